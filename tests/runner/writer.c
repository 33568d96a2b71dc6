// SPDX-License-Identifier: MIT
/*
 * A user's program as scripts/board-run sees one: it prints its arguments
 * to stdout, a line to stderr, writes FILE (and sub/nested.txt) in its
 * working directory, and exits with STATUS.
 * Usage: writer STATUS FILE [ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	int status = argc > 1 ? atoi(argv[1]) : 2;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: writer STATUS FILE [ARGS...]\n");
		return 2;
	}
	f = fopen(argv[2], "w");
	if (!f || fprintf(f, "{\"writer\": \"%s\", \"args\": %d}\n", argv[0], argc - 3) < 0 || fclose(f)) {
		perror(argv[2]);
		return 2;
	}
	if (mkdir("sub", 0755) == 0 && (f = fopen("sub/nested.txt", "w"))) {
		fputs("nested\n", f);
		fclose(f);
	}
	for (int i = 3; i < argc; i++)
		printf("arg[%d]=[%s]\n", i - 3, argv[i]);
	fprintf(stderr, "writer: exiting %d\n", status);
	return status;
}
