// SPDX-License-Identifier: MIT
/* Write a file so that a crash or a full disk never leaves half of it at its path. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <selfmon/outfile.h>
#include <selfmon/selfmon.h>

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "out.txt";
	static const char text[] = "hello\n";
	char *tmp;
	int fd = selfmon_outfile__open("the output", path, &tmp);

	if (fd < 0) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		selfmon_outfile__discard(tmp); /* the old file stays */
		return 1;
	}
	close(fd);
	if (selfmon_outfile__commit("the output", path, tmp, false)) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	return 0;
}
