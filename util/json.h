/* SPDX-License-Identifier: MIT */
/*
 * A small, strict JSON reader, one for the CLI (selfmon compare reads
 * reports with it) and the tests (they read what the CLI and the library
 * write). RFC 8259 and nothing more: no comments, no trailing commas, no
 * NaN, numbers within a double, UTF-8 checked, \u escapes with their
 * surrogate pairs, no NUL in strings, no duplicate member names, nesting at
 * most UTIL_JSON_MAX_DEPTH deep. Every read is bounded by the input's
 * length. For every layer (util/ includes libc only); internal, as the rest
 * of util/.
 */
#ifndef SELFMON_UTIL_JSON_H
#define SELFMON_UTIL_JSON_H

#include <stddef.h>

#define UTIL_JSON_MAX_DEPTH 64
/* Files larger than this are refused rather than read. */
#define UTIL_JSON_MAX_FILE (256u << 20)

enum util_json_type {
	UTIL_JSON_NULL,
	UTIL_JSON_FALSE,
	UTIL_JSON_TRUE,
	UTIL_JSON_NUMBER,
	UTIL_JSON_STRING,
	UTIL_JSON_ARRAY,
	UTIL_JSON_OBJECT,
};

/* One value of a parsed document, and below it its members or elements. */
struct util_json {
	enum util_json_type type;
	char *key; /* a member's name (decoded), NULL in an array or at the top */
	char *str; /* STRING: decoded, NUL-terminated */
	double num; /* NUMBER; TRUE: 1, FALSE: 0 (a flag reads as a number) */
	int nr; /* ARRAY, OBJECT: children */
	struct util_json *kid;
};

/**
 * util_json_parse() - parse one JSON document.
 * @text: the document, not necessarily NUL-terminated
 * @len: its length in bytes (a NUL within it is an error)
 * @root: the tree, filled in
 * @err: where a complaint goes
 * @errsz: its size
 *
 * Return: 0, or -EINVAL with "line L, column C: <what is wrong>" in @err,
 * -ENOMEM. On failure @root is left empty (a NULL value): util_json_free()
 * on it does nothing, and is needed on success only.
 */
int util_json_parse(const char *text, size_t len, struct util_json *root, char *err, size_t errsz);

/**
 * util_json_free() - free what util_json_parse() allocated below @v.
 * @v: a tree (may be NULL); left empty
 */
void util_json_free(struct util_json *v);

/**
 * util_json_load() - read the file @path and parse it.
 * @path: a regular file of at most UTIL_JSON_MAX_FILE bytes
 * @root: the tree, filled in
 * @err: where a complaint goes
 * @errsz: its size
 *
 * Return: 0, -errno of open/read with "<strerror>" in @err, -EFBIG, or what
 * util_json_parse() returns.
 */
int util_json_load(const char *path, struct util_json *root, char *err, size_t errsz);

/**
 * util_json_get() - a member of an object.
 * @o: the object (may be NULL, or not an object: then NULL)
 * @key: the member's name
 *
 * Return: the member, or NULL.
 */
const struct util_json *util_json_get(const struct util_json *o, const char *key);

/**
 * util_json_str() - a member's string.
 * @o: the object
 * @key: the member's name
 *
 * Return: its text, or NULL when absent or not a string.
 */
const char *util_json_str(const struct util_json *o, const char *key);

#endif
