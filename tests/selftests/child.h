/* SPDX-License-Identifier: MIT */
/*
 * Run a function in a child process and keep what it printed: the way a test
 * checks an assertion that must fail (the failure ends the child, not the
 * test) and the message it gives.
 */
#ifndef SELFMON_TESTS_CHILD_H
#define SELFMON_TESTS_CHILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Call @fn(@arg) in a child whose stdout and stderr go to @out (@size bytes,
 * NUL-terminated); the child exits with @fn's return unless @fn ends it
 * first. Return: the child's wait status, or -1 when it could not run.
 */
static inline int run_child(int (*fn)(void *), void *arg, char *out, size_t size)
{
	struct rlimit nocore = { 0, 0 };
	size_t len = 0;
	int fd[2], status = -1;
	pid_t pid;

	if (pipe(fd))
		return -1;
	/* Nothing buffered before the fork is printed twice. */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		/* A failed assertion may abort(): no core file for it. */
		setrlimit(RLIMIT_CORE, &nocore);
		close(fd[0]);
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		status = fn(arg);
		fflush(stdout);
		fflush(stderr);
		_exit(status);
	}
	close(fd[1]);
	for (;;) {
		ssize_t n = read(fd[0], out + len, size - 1 - len);

		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == size - 1) {
			char sink[256];

			while (read(fd[0], sink, sizeof(sink)) > 0)
				;
			break;
		}
	}
	out[len] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

#endif
