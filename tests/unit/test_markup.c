// SPDX-License-Identifier: MIT
/*
 * The XML and JSON writers of untrusted text (util/text.c): any
 * bytes give well-formed XML 1.0 and valid JSON, and what can be kept is
 * kept. tests/check_compare.py parses the same kind of names with Python's
 * xml.etree and json, end to end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../util/text.h"

/* What @write makes of @in, as a string (a static buffer). */
static const char *written(void (*write)(FILE *, const char *), const char *in)
{
	static char buf[512];
	FILE *f;

	memset(buf, 0, sizeof(buf));
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	write(f, in);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void xml_text_replaces_what_xml_1_0_cannot_carry_and_keeps_the_rest(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "add_chain", "add_chain" },
		{ "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&apos;" },
		/* kept through an attribute's normalization as references */
		{ "t\tl\nr\r", "t&#9;l&#10;r&#13;" },
		/* C0 controls, U+FFFE and U+FFFF: not even as references, so as visible text */
		{ "x\x01y\x1b", "x\\u0001y\\u001b" },
		{ "k\xef\xbf\xbf", "k\\uffff" },
		{ "k\xef\xbf\xbe", "k\\ufffe" },
		/* allowed: U+FFFD, an astral character, DEL, U+0085 */
		{ "\xef\xbf\xbd\xf0\x9f\x98\x80\x7f\xc2\x85", "\xef\xbf\xbd\xf0\x9f\x98\x80\x7f\xc2\x85" },
		/* not UTF-8: a stray continuation, an overlong, a surrogate, a cut sequence */
		{ "a\x80z", "a\xef\xbf\xbdz" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "e\xe2\x82", "e\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ NULL, "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(written(util_xml_text, cases[i].in), cases[i].out);
}

static void json_string_escapes_controls_and_noncharacters_and_replaces_what_is_not_utf8(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "add_chain", "\"add_chain\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"" },
		{ "\n\r\t\x01\x7f", "\"\\n\\r\\t\\u0001\\u007f\"" },
		{ "k\xef\xbf\xbf\xef\xbf\xbe", "\"k\\uffff\\ufffe\"" },
		{ "\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\"" },
		{ "\xc3\xa9\xf0\x9f\x98\x80", "\"\xc3\xa9\xf0\x9f\x98\x80\"" },
		{ "a\xff" "b\xed\xbf\xbf", "\"a\\ufffdb\\ufffd\\ufffd\\ufffd\"" },
		{ NULL, "\"\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(written(util_json_string, cases[i].in), cases[i].out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xml_text_replaces_what_xml_1_0_cannot_carry_and_keeps_the_rest),
		cmocka_unit_test(
			json_string_escapes_controls_and_noncharacters_and_replaces_what_is_not_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
