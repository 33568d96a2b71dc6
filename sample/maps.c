// SPDX-License-Identifier: MIT
/*
 * /proc/self/maps, as proc(5) lays out "/proc/pid/maps": address range,
 * perms, offset, dev (major:minor, hex), inode, then the path after blanks.
 * The symbol reader and the perf.data writer both start from the process's
 * executable mappings: they predate any sampler, so no MMAP record will
 * ever tell of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../core/error.h"
#include "maps.h"

/* One line; returns 1 for an exec mapping parsed into @m, 0 to skip, -EBADMSG. */
static int parse_line(char *line, struct selfmon_map *m)
{
	char perms[5], *path;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	int n = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &n) < 7 || !n || strlen(perms) != 4)
		return -EBADMSG;
	if (perms[2] != 'x')
		return 0;
	path = line + n;
	path[strcspn(path, "\n")] = '\0';
	*m = (struct selfmon_map){ start, end, pgoff, ino, maj, min, 0, perms[3] == 's', NULL };
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
	m->path = strdup(path);
	return m->path ? 1 : -ENOMEM;
}

int selfmon_maps__read_exec(struct selfmon_map **maps, int *nr)
{
	struct selfmon_map *v = NULL, m;
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096 + 256];
	int err = 0, cap = 0;

	*maps = NULL;
	*nr = 0;
	if (!f)
		return selfmon__err(-errno, "/proc/self/maps: %s (is /proc mounted?)", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		int r = parse_line(line, &m);

		if (r < 0) {
			err = r == -ENOMEM ? selfmon__err(r, "/proc/self/maps: no memory")
					   : selfmon__err(r, "/proc/self/maps: a line not in proc(5)'s "
							  "format: '%.80s'", line);
			goto out;
		}
		if (!r)
			continue;
		if (*nr == cap) {
			struct selfmon_map *g = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof(*v));

			if (!g) {
				free(m.path);
				err = selfmon__err(-ENOMEM, "/proc/self/maps: no memory");
				goto out;
			}
			v = g;
		}
		v[(*nr)++] = m;
	}
out:
	fclose(f);
	if (err) {
		selfmon_maps__free(v, *nr);
		v = NULL;
		*nr = 0;
	}
	*maps = v;
	return err;
}

void selfmon_maps__free(struct selfmon_map *maps, int nr)
{
	for (int i = 0; i < nr; i++)
		free(maps[i].path);
	free(maps);
}
