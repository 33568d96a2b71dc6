/* SPDX-License-Identifier: MIT */
/*
 * What the tests of written perf.data files share: the file read whole, for
 * the parser, and the perf tool that reads it, where there is one.
 * Header-only: each test includes it once.
 */
#ifndef SELFMON_TESTS_PERF_FILES_H
#define SELFMON_TESTS_PERF_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file's bytes, whole, 8-byte aligned for the parser; NULL (and *@len 0) if unread. */
static __attribute__((unused)) uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	struct stat st;

	*len = 0;
	if (f && !fstat(fileno(f), &st) && (buf = aligned_alloc(8, ((size_t)st.st_size + 8) & ~7ul)))
		*len = fread(buf, 1, (size_t)st.st_size, f);
	if (f)
		fclose(f);
	return buf;
}

/*
 * perf, as Debian installs it (linux-perf): $SELFMON_PERF, else `perf` when
 * it runs (Debian's /usr/bin/perf may be a wrapper that wants a
 * perf_<kernel version> that the running kernel has no package for), else
 * the versioned binaries themselves; NULL where there is none. It runs
 * commands with json_check.h's run_capture(): there where that is included first.
 */
#ifdef SELFMON_TESTS_JSON_CHECK_H
static __attribute__((unused)) const char *find_perf(void)
{
	static char path[256];
	char *out;
	int status = -1;
	FILE *f;

	if (getenv("SELFMON_PERF"))
		return getenv("SELFMON_PERF");
	out = run_capture("perf version 2>/dev/null", &status);
	free(out);
	if (!status)
		return "perf";
	f = popen("ls -1 /usr/bin/perf_[0-9]* /usr/lib/linux-tools*/perf 2>/dev/null | tail -n 1", "r");
	path[0] = '\0';
	if (f) {
		if (fgets(path, sizeof(path), f))
			path[strcspn(path, "\n")] = '\0';
		pclose(f);
	}
	return path[0] ? path : NULL;
}
#endif

#endif
