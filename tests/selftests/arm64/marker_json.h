/* SPDX-License-Identifier: MIT */
/*
 * The markers' report of the running process, as JSON, parsed: what the
 * arm64 marker suites read their regions from (util/json.h's reader, through json_check.h).
 */
#ifndef SELFMON_TESTS_ARM64_MARKER_JSON_H
#define SELFMON_TESTS_ARM64_MARKER_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <selfmon/marker.h>
#include "../json_check.h"

/* The report now, through a file of this process's, parsed into @root. Return: 0 or -1 (@err says). */
static inline int report_json(struct util_json *root, char *err, size_t errsz)
{
	char path[64], *text = NULL;
	long n;
	FILE *f;
	int rc = -1;

	snprintf(path, sizeof(path), "/tmp/selfmon-markers-%d.json", (int)getpid());
	setenv("SELFMON_OUTPUT", path, 1);
	setenv("SELFMON_FORMAT", "json", 1);
	if (selfmon_marker__report())
		return snprintf(err, errsz, "no report"), -1;
	f = fopen(path, "r");
	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (text = calloc(1, (size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
		rc = json_parse(text, root, err, errsz);
	if (f)
		fclose(f);
	free(text);
	unlink(path);
	unsetenv("SELFMON_OUTPUT");
	return rc;
}

#endif
