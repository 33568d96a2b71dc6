/* SPDX-License-Identifier: MIT */
/*
 * JSON for the tests, in C because the emulated board has no python3: the
 * CLI's own strict parser (util/json.h, linked from libselfmon-util.a)
 * builds a tree the tests query, objects by key, arrays by index; and the
 * helpers that run the CLI and find a benchmark in its report. Marked
 * unused, so that a test that needs only some of them need not mention the
 * rest.
 */
#ifndef SELFMON_TESTS_JSON_CHECK_H
#define SELFMON_TESTS_JSON_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../util/json.h"

/*
 * Parse the whole of @text into @v (util/json.h: the CLI's strict reader);
 * 0, or -EINVAL or -ENOMEM with the complaint in @err.
 */
static __attribute__((unused)) int json_parse(const char *text, struct util_json *v, char *err,
					      size_t errsz)
{
	return util_json_parse(text, strlen(text), v, err, errsz);
}

/* The benchmarks[] entry named @name (e.g. "add_chain_median"), or NULL. */
static __attribute__((unused)) const struct util_json *json_bench(const struct util_json *root,
								   const char *name)
{
	const struct util_json *b = util_json_get(root, "benchmarks");

	for (int i = 0; b && b->type == UTIL_JSON_ARRAY && i < b->nr; i++) {
		const char *n = util_json_str(&b->kid[i], "name");

		if (n && !strcmp(n, name))
			return &b->kid[i];
	}
	return NULL;
}

/* Read all of a command's stdout; NULL on failure. Sets *status to its exit status. */
static __attribute__((unused)) char *run_capture(const char *cmd, int *status)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!buf || !f) {
		free(buf);
		if (f)
			pclose(f);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *g = realloc(buf, cap *= 2);

			if (!g)
				break;
			buf = g;
		}
	}
	buf[len] = '\0';
	*status = pclose(f);
	return buf;
}

/*
 * The selfmon CLI next to this test: $SELFMON_BIN, else the build tree
 * (O/tests/selftests[/arm64]/x -> O/selfmon) or the bundle (bundle/bin/x ->
 * bundle/selfmon).
 */
static __attribute__((unused)) const char *selfmon_cli(void)
{
	static char path[1024];
	static const char *const up[] = { "/../selfmon", "/../../selfmon", "/../../../selfmon" };
	char exe[900];
	ssize_t n;

	if (getenv("SELFMON_BIN"))
		return getenv("SELFMON_BIN");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", exe, up[i]);
		if (!access(path, X_OK))
			return path;
	}
	return NULL;
}

#endif
