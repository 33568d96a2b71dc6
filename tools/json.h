/* SPDX-License-Identifier: MIT */
/*
 * A small, strict JSON reader for the CLI (selfmon compare reads reports
 * with it). RFC 8259 and nothing more: no comments, no trailing commas, no
 * NaN, numbers within a double, UTF-8 checked, \u escapes with their
 * surrogate pairs, no NUL in strings, no duplicate member names, nesting at
 * most CLI_JSON_MAX_DEPTH deep. Every read is bounded by the input's length.
 */
#ifndef SELFMON_TOOLS_JSON_H
#define SELFMON_TOOLS_JSON_H

#include <stddef.h>

#define CLI_JSON_MAX_DEPTH 64
/* Files larger than this are refused rather than read. */
#define CLI_JSON_MAX_FILE (256u << 20)

enum cli_json_type {
	CLI_JSON_NULL,
	CLI_JSON_FALSE,
	CLI_JSON_TRUE,
	CLI_JSON_NUMBER,
	CLI_JSON_STRING,
	CLI_JSON_ARRAY,
	CLI_JSON_OBJECT,
};

struct cli_json {
	enum cli_json_type type;
	char *key; /* a member's name (decoded), NULL in an array or at the top */
	char *str; /* STRING: decoded, NUL-terminated */
	double num; /* NUMBER */
	int nr; /* ARRAY, OBJECT: children */
	struct cli_json *kid;
};

/*
 * Parse @len bytes of @text into @root. Return: 0, or -EINVAL with
 * "line L, column C: <what is wrong>" in @err, -ENOMEM. @root needs
 * cli_json_free() on success only.
 */
int cli_json_parse(const char *text, size_t len, struct cli_json *root, char *err, size_t errsz);
void cli_json_free(struct cli_json *v);

/*
 * Read the file @path and parse it. Return: 0, -errno of open/read with
 * "<strerror>" in @err, -EFBIG, or what cli_json_parse() returns.
 */
int cli_json_load(const char *path, struct cli_json *root, char *err, size_t errsz);

/* The member @key of object @o, or NULL (also when @o is not an object). */
const struct cli_json *cli_json_get(const struct cli_json *o, const char *key);
/* The member's string, or NULL when absent or not a string. */
const char *cli_json_str(const struct cli_json *o, const char *key);

#endif
