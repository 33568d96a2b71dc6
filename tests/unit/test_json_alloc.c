// SPDX-License-Identifier: MIT
/*
 * The JSON parser's allocations (util/json.c): a string's buffer is
 * bounded by the string's own span in the text, never by the rest of the
 * document, so that a report of many regions (a few MB, tens of thousands
 * of strings) parses in memory of its own size, not in the square of it.
 * malloc is replaced (test_json_alloc.wrap) to count, while a parse runs,
 * the allocations of 4 KiB or more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../util/json.h"

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static int counting, large;

void *__wrap_malloc(size_t size)
{
	if (counting && size >= 4096)
		large++;
	return __real_malloc(size);
}

/* {"a":"b","c":[1,"d"],"pad":"x...x"}, the padding @pad bytes long. */
static char *document(size_t pad, size_t *len)
{
	static const char head[] = "{\"a\":\"b\",\"c\":[1,\"d\"],\"pad\":\"";
	char *doc = __real_malloc(sizeof(head) + pad + 3);

	assert_non_null(doc);
	memcpy(doc, head, sizeof(head) - 1);
	memset(doc + sizeof(head) - 1, 'x', pad);
	memcpy(doc + sizeof(head) - 1 + pad, "\"}", 3);
	*len = sizeof(head) - 1 + pad + 2;
	return doc;
}

static void strings_before_a_large_one_allocate_their_own_length_not_the_rest(void **state)
{
	struct util_json root = { 0 };
	char err[128] = "";
	size_t len;
	char *doc = document(1 << 20, &len);
	int rc;

	(void)state;
	large = 0;
	counting = 1;
	rc = util_json_parse(doc, len, &root, err, sizeof(err));
	counting = 0;
	assert_int_equal(0, rc);
	assert_string_equal("b", util_json_get(&root, "a")->str);
	assert_int_equal(1 << 20, strlen(util_json_get(&root, "pad")->str));
	/* The padding's own buffer alone: "a", "b", "c", "d" and "pad" are small. */
	assert_int_equal(1, large);
	util_json_free(&root);
	free(doc);
}

static void an_escape_before_the_closing_quote_stays_inside_the_string(void **state)
{
	static const char doc[] = "{\"k\":\"a\\\"b\\\\\",\"n\":\"\\u00e9\"}";
	struct util_json root = { 0 };
	char err[128] = "";

	(void)state;
	assert_int_equal(0, util_json_parse(doc, sizeof(doc) - 1, &root, err, sizeof(err)));
	assert_string_equal("a\"b\\", util_json_get(&root, "k")->str);
	assert_string_equal("\xc3\xa9", util_json_get(&root, "n")->str);
	util_json_free(&root);
}

static void an_unterminated_string_is_said_as_such(void **state)
{
	static const char doc[] = "{\"k\":\"abc\\";
	struct util_json root = { 0 };
	char err[128] = "";

	(void)state;
	assert_int_not_equal(0, util_json_parse(doc, sizeof(doc) - 1, &root, err, sizeof(err)));
	assert_non_null(strstr(err, "unterminated string"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strings_before_a_large_one_allocate_their_own_length_not_the_rest),
		cmocka_unit_test(an_escape_before_the_closing_quote_stays_inside_the_string),
		cmocka_unit_test(an_unterminated_string_is_said_as_such),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
