/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_SAMPLE_MAPS_H
#define SELFMON_SAMPLE_MAPS_H

#include <stdint.h>
#include <stdio.h>

/* One line of /proc/self/maps (proc(5), "/proc/pid/maps"). */
struct selfmon_map {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min;
	uint32_t prot; /* PROT_READ | PROT_WRITE | PROT_EXEC */
	int shared; /* 's': MAP_SHARED; 'p': private */
	int deleted; /* the file was unlinked (or replaced) since it was mapped */
	/*
	 * The file's name ("\012" made '\n' again, " (deleted)" cut);
	 * "[vdso]" and such; "" for an anonymous mapping.
	 */
	char *path;
};

/*
 * Parse one line of /proc/self/maps (with or without its newline) into
 * @m. Return: 1 for an executable mapping (@m->path allocated), 0 for
 * another, -EBADMSG for a line not in proc(5)'s format, -ENOMEM.
 */
int selfmon_maps__parse_line(char *line, struct selfmon_map *m);

/*
 * The calling process's executable mappings (those with 'x'), in address
 * order. Return: 0 with *@maps (free with selfmon_maps__free()) and *@nr, or
 * -errno with a message (/proc/self/maps unreadable or a line not in
 * proc(5)'s format, no memory).
 */
int selfmon_maps__read_exec(struct selfmon_map **maps, int *nr);

/* The same from @f, laid out as /proc/self/maps (a test's or a fuzzer's text). */
int selfmon_maps__read_file(FILE *f, struct selfmon_map **maps, int *nr);

void selfmon_maps__free(struct selfmon_map *maps, int nr);

#endif
