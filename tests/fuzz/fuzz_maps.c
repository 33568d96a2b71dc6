// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: /proc/self/maps text (sample/maps.c) through the reader
 * of a whole file (selfmon_maps__read_file over fmemopen(3)) and each line
 * through selfmon_maps__parse_line(). The input is copied to a heap buffer
 * of exactly its size, so ASan sees any read past it.
 *
 * What must hold: the walk ends; a read either fails with -EBADMSG or
 * -ENOMEM and nothing, or gives only executable mappings whose path is no
 * longer than the line it came from and holds no escape left undone
 * (a "\012" turned into its newline, " (deleted)" cut and said), each with
 * start <= end.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../../sample/maps.h"

static void check(const struct selfmon_map *m, size_t line_len)
{
	size_t n = strlen(m->path);

	if (m->start > m->end || !(m->prot & PROT_EXEC) || n > line_len || strstr(m->path, "\\012"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct selfmon_map *maps, m;
	int nr, err;
	FILE *f;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* the whole text as a file */
	f = fmemopen(text, size ? size : 1, "r");
	if (f) {
		err = selfmon_maps__read_file(f, &maps, &nr);
		if (err && (err != -EBADMSG && err != -ENOMEM))
			abort();
		if (err && (maps || nr))
			abort();
		for (int i = 0; i < nr; i++)
			check(&maps[i], size);
		selfmon_maps__free(maps, nr);
		fclose(f);
	}
	/* each line alone, as a string */
	for (char *line = text, *next; line && *line; line = next) {
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		len = strlen(line);
		err = selfmon_maps__parse_line(line, &m);
		if (err < 0 && err != -EBADMSG && err != -ENOMEM)
			abort();
		if (err == 1) {
			check(&m, len);
			free(m.path);
		}
	}
	free(text);
	return 0;
}
