/* SPDX-License-Identifier: MIT */
/*
 * The markers' suites' child runner: each case runs in a child process of
 * its own (markers are per process), with its environment, its stderr in a
 * file and its report in another, read back as text. Header-only: each
 * suite includes it once, after json_check.h.
 */
#ifndef SELFMON_TESTS_MARKER_RUN_H
#define SELFMON_TESTS_MARKER_RUN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "json_check.h"

/* What a child left: its exit status, its stderr, its report file (NULL: none). */
struct run {
	int status;
	char *err;
	char *report;
};

static char *slurp(const char *path)
{
	struct stat st;
	char *buf;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) || !(buf = calloc(1, (size_t)st.st_size + 1))) {
		fclose(f);
		return NULL;
	}
	if (fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/*
 * Run @fn in a child with SELFMON_EVENTS=@events (NULL: unset) and
 * SELFMON_OUTPUT=@out (NULL: unset; "-": a file of the test's); the child
 * exits with @fn's value through exit(), so that the report at exit runs.
 */
static void run_child(int (*fn)(void), const char *events, const char *out, struct run *r)
{
	char dir[] = "/tmp/selfmon-marker-XXXXXX", errp[128], outp[128];
	pid_t pid;
	int st = 0;

	memset(r, 0, sizeof(*r));
	if (!mkdtemp(dir))
		return;
	snprintf(errp, sizeof(errp), "%s/stderr", dir);
	snprintf(outp, sizeof(outp), "%s/report.json", dir);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, 2);
		if (events)
			setenv("SELFMON_EVENTS", events, 1);
		else
			unsetenv("SELFMON_EVENTS");
		if (out)
			setenv("SELFMON_OUTPUT", !strcmp(out, "-") ? outp : out, 1);
		else
			unsetenv("SELFMON_OUTPUT");
		unsetenv("SELFMON_FORMAT");
		exit(fn());
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid)
		r->status = st;
	r->err = slurp(errp);
	r->report = slurp(outp);
	unlink(errp);
	unlink(outp);
	rmdir(dir);
}

static void run_free(struct run *r)
{
	free(r->err);
	free(r->report);
}

static __attribute__((unused)) int count_lines(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; p && (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static volatile unsigned long sink;

static void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i;
}
static __attribute__((unused)) double num(const struct util_json *o, const char *key)
{
	const struct util_json *v = util_json_get(o, key);

	return v && v->type == UTIL_JSON_NUMBER ? v->num : -1;
}

#endif
