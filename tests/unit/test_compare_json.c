// SPDX-License-Identifier: MIT
/*
 * The JSON reader of the CLI and the tests (util/json.c) is strict: what RFC 8259 allows
 * parses to the right values, anything else is refused with the line and
 * column, never read past the input's end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../util/json.h"

static void valid_documents_parse_to_their_values(void **state)
{
	static const char doc[] = " {\"a\": [1, -0.5e2, 3E+1, true, false, null], \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t"
				  "\\u00e9\\ud83d\\ude00\u00e9\", \"o\": {}} ";
	struct util_json v;
	const struct util_json *a;
	char err[128];

	(void)state;
	assert_int_equal(util_json_parse(doc, strlen(doc), &v, err, sizeof(err)), 0);
	a = util_json_get(&v, "a");
	assert_non_null(a);
	assert_int_equal(a->nr, 6);
	assert_true(a->kid[0].num == 1 && a->kid[1].num == -50 && a->kid[2].num == 30);
	assert_int_equal(a->kid[3].type, UTIL_JSON_TRUE);
	assert_int_equal(a->kid[4].type, UTIL_JSON_FALSE);
	assert_int_equal(a->kid[5].type, UTIL_JSON_NULL);
	assert_string_equal(util_json_str(&v, "s"), "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9");
	assert_int_equal(util_json_get(&v, "o")->type, UTIL_JSON_OBJECT);
	assert_null(util_json_get(&v, "missing"));
	assert_null(util_json_str(&v, "a"));
	util_json_free(&v);
}

/* The tests read a flag as a number, as they read a count: true is 1, false 0. */
static void true_and_false_read_as_one_and_zero(void **state)
{
	static const char doc[] = "[true, false]";
	struct util_json v;
	char err[128];

	(void)state;
	assert_int_equal(util_json_parse(doc, strlen(doc), &v, err, sizeof(err)), 0);
	assert_true(v.kid[0].num == 1 && v.kid[1].num == 0);
	util_json_free(&v);
}

/* A refused document leaves nothing to free: a caller that frees it anyway is safe. */
static void a_refused_document_leaves_an_empty_tree(void **state)
{
	static const char doc[] = "{\"a\": [1, 2, {\"b\": \"c\"}], \"a\": 3}";
	struct util_json v;
	char err[128];

	(void)state;
	assert_int_equal(util_json_parse(doc, strlen(doc), &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "duplicate member name \"a\""));
	assert_int_equal(v.type, UTIL_JSON_NULL);
	assert_int_equal(v.nr, 0);
	assert_null(v.kid);
	util_json_free(&v);
}

static void malformed_documents_are_refused_with_line_and_column(void **state)
{
	static const struct { const char *doc, *why; } bad[] = {
		{ "", "the input ends" },
		{ "{\"a\": 1,}", "expected a member name" },
		{ "[1, 2,]", "unexpected ']'" },
		{ "[1 2]", "expected ',' or ']'" },
		{ "{\"a\" 1}", "expected ':'" },
		{ "{'a': 1}", "expected a member name" },
		{ "[01]", "leading zeros" },
		{ "[1.]", "decimal point" },
		{ "[1e]", "exponent" },
		{ "[-]", "needs a digit" },
		{ "[NaN]", "unexpected 'N'" },
		{ "[1e999]", "out of range" },
		{ "[-1e999]", "out of range" },
		{ "[tru]", "unexpected text" },
		{ "\"abc", "unterminated string" },
		{ "\"a\tb\"", "control character 0x09" },
		{ "\"\\x\"", "invalid escape" },
		{ "\"\\u12g4\"", "4 hex digits" },
		{ "\"\\ud800\"", "without its low surrogate" },
		{ "\"\\udc00\"", "lone low surrogate" },
		{ "\"\\u0000\"", "NUL" },
		{ "\"\xc0\xaf\"", "invalid UTF-8" },
		{ "\"\xed\xa0\x80\"", "invalid UTF-8" },
		{ "\"\xf4\x90\x80\x80\"", "invalid UTF-8" },
		{ "{\"a\": 1, \"a\": 2}", "duplicate member name \"a\"" },
		{ "[1] [2]", "after the document's end" },
		{ "/* c */ 1", "unexpected '/'" },
		{ "[1,\n  x]", "line 2, column 3" },
	};
	struct util_json v;
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = util_json_parse(bad[i].doc, strlen(bad[i].doc), &v, err, sizeof(err));

		if (rc != -EINVAL || !strstr(err, bad[i].why) || strncmp(err, "line ", 5))
			fail_msg("'%s': rc %d, '%s' (wanted '%s')", bad[i].doc, rc, err, bad[i].why);
	}
}

static void nesting_is_bounded(void **state)
{
	char doc[2 * (UTIL_JSON_MAX_DEPTH + 2)];
	struct util_json v;
	char err[160];
	int n = UTIL_JSON_MAX_DEPTH;

	(void)state;
	memset(doc, '[', (size_t)n);
	memset(doc + n, ']', (size_t)n);
	assert_int_equal(util_json_parse(doc, 2 * (size_t)n, &v, err, sizeof(err)), 0);
	util_json_free(&v);
	memset(doc, '[', (size_t)n + 1);
	memset(doc + n + 1, ']', (size_t)n + 1);
	assert_int_equal(util_json_parse(doc, 2 * (size_t)n + 2, &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nested deeper than"));
}

/* The length bounds every read: a NUL inside is an error, and nothing past the end is read. */
static void the_input_length_bounds_every_read(void **state)
{
	static const char with_nul[] = "[1, \0 2]", cut[] = "[123456";
	struct util_json v;
	char err[160];
	char *exact = malloc(3);

	(void)state;
	assert_int_equal(util_json_parse(with_nul, sizeof(with_nul) - 1, &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "byte 0x00"));
	/* "[12" then "3456" outside the length: the number ends where the input does */
	assert_int_equal(util_json_parse(cut, 3, &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the end of the input"));
	/* a buffer of exactly the document's bytes, no NUL after it (ASan would see a read past it) */
	memcpy(exact, "4.5", 3);
	assert_int_equal(util_json_parse(exact, 3, &v, err, sizeof(err)), 0);
	assert_true(v.num == 4.5);
	util_json_free(&v);
	free(exact);
}

static void a_missing_file_says_so(void **state)
{
	struct util_json v;
	char err[160];

	(void)state;
	assert_int_equal(util_json_load("/nonexistent/report.json", &v, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "No such file or directory");
	assert_int_equal(util_json_load("/", &v, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_documents_parse_to_their_values),
		cmocka_unit_test(true_and_false_read_as_one_and_zero),
		cmocka_unit_test(a_refused_document_leaves_an_empty_tree),
		cmocka_unit_test(malformed_documents_are_refused_with_line_and_column),
		cmocka_unit_test(nesting_is_bounded),
		cmocka_unit_test(the_input_length_bounds_every_read),
		cmocka_unit_test(a_missing_file_says_so),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
