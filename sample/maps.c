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
#include "../core/errtext.h"
#include "maps.h"

/*
 * The path as the kernel printed it, made the file's name again in place.
 * proc(5), "/proc/pid/maps": a newline in a pathname is printed as the
 * octal escape \012, and " (deleted)" is appended to a file deleted since
 * it was mapped. Both are ambiguous (a name may hold either literally), as
 * proc(5) says: the likely reading is taken, and a reader of the file by
 * that name finds out (symbols.c does not open a deleted one at all).
 */
static void unmangle(char *path, int *deleted)
{
	static const char marker[] = " (deleted)";
	size_t n = strlen(path), m = sizeof(marker) - 1;
	char *w = path;

	*deleted = n > m && !strcmp(path + n - m, marker);
	if (*deleted)
		path[n - m] = '\0';
	for (const char *r = path; *r; r++) {
		if (!strncmp(r, "\\012", 4)) {
			*w++ = '\n';
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

int selfmon_maps__parse_line(char *line, struct selfmon_map *m)
{
	char perms[5], *path;
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	int n = 0, deleted;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu%n", &start, &end, perms, &pgoff, &maj, &min,
		   &ino, &n) < 7 ||
	    !n || strlen(perms) != 4 || start > end)
		return -EBADMSG;
	/* The path starts after the blanks that pad the inode's column; "" when anonymous. */
	path = line + n;
	if (*path && *path != ' ' && *path != '\n')
		return -EBADMSG;
	path += strspn(path, " ");
	/* The line's own newline ends it: a newline in a name comes escaped. */
	path[strcspn(path, "\n")] = '\0';
	if (perms[2] != 'x')
		return 0;
	*m = (struct selfmon_map){ start, end, pgoff, ino, maj, min, 0, perms[3] == 's', 0, NULL };
	m->prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		  PROT_EXEC;
	m->path = strdup(path);
	if (!m->path)
		return -ENOMEM;
	unmangle(m->path, &deleted);
	m->deleted = deleted;
	return 1;
}

static int add(struct selfmon_map **v, int *nr, int *cap, const struct selfmon_map *m)
{
	if (*nr == *cap) {
		int c = *cap ? 2 * *cap : 16;
		struct selfmon_map *g = realloc(*v, (size_t)c * sizeof(**v));

		if (!g)
			return -ENOMEM;
		*v = g;
		*cap = c;
	}
	(*v)[(*nr)++] = *m;
	return 0;
}

int selfmon_maps__read_file(FILE *f, struct selfmon_map **maps, int *nr)
{
	struct selfmon_map *v = NULL, m;
	char *line = NULL;
	size_t size = 0;
	int err = 0, cap = 0;

	*maps = NULL;
	*nr = 0;
	/* getline: a line is as long as its path, which no fixed buffer bounds. */
	while (!err && getline(&line, &size, f) > 0) {
		int r = selfmon_maps__parse_line(line, &m);

		if (r > 0 && add(&v, nr, &cap, &m)) {
			free(m.path);
			r = -ENOMEM;
		}
		if (r == -ENOMEM)
			err = selfmon__err(-ENOMEM, "/proc/self/maps: no memory");
		else if (r < 0)
			err = selfmon__err(r,
					   "/proc/self/maps: a line not in proc(5)'s format: "
					   "'%.80s'",
					   line);
	}
	if (!err && ferror(f))
		err = selfmon__err(errno ? -errno : -EIO, "/proc/self/maps: read: %s",
				   selfmon_errtext__str(errno ? errno : EIO));
	free(line);
	if (err) {
		selfmon_maps__free(v, *nr);
		v = NULL;
		*nr = 0;
	}
	*maps = v;
	return err;
}

int selfmon_maps__read_exec(struct selfmon_map **maps, int *nr)
{
	FILE *f = fopen("/proc/self/maps", "re");
	int err;

	*maps = NULL;
	*nr = 0;
	if (!f)
		return selfmon__err(-errno, "/proc/self/maps: %s (is /proc mounted?)",
				    selfmon_errtext__str(errno));
	err = selfmon_maps__read_file(f, maps, nr);
	fclose(f);
	return err;
}

void selfmon_maps__free(struct selfmon_map *maps, int nr)
{
	for (int i = 0; i < nr; i++)
		free(maps[i].path);
	free(maps);
}
