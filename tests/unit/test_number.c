// SPDX-License-Identifier: MIT
/*
 * Numbers as kernel files and event strings write them: digits of one base
 * only, up to a bound, the text after them left to the caller.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../../core/number.h"

/* Parse @text in @base up to @max; the return, and where parsing stopped. */
static int parse(const char *text, unsigned int base, uint64_t max, uint64_t *val,
		 size_t *used)
{
	const char *p = text;
	int err = selfmon_number__parse(&p, base, max, val);

	*used = (size_t)(p - text);
	return err;
}

static void decimal_digits_parse_and_stop_at_the_first_other_character(void **state)
{
	uint64_t v = 0;
	size_t used;

	(void)state;
	assert_int_equal(parse("4095-7", 10, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 4095);
	assert_int_equal(used, 4);
	assert_int_equal(parse("010", 10, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 10);
}

static void hex_digits_of_either_case_parse_in_base_16(void **state)
{
	uint64_t v = 0;
	size_t used;

	(void)state;
	assert_int_equal(parse("fFa0", 16, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 0xffa0);
	assert_int_equal(parse("1g", 16, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 1);
	assert_int_equal(used, 1);
}

/* What strtol(3) would take and no kernel file writes. */
static void blanks_signs_and_prefixes_are_not_numbers(void **state)
{
	static const char *const bad[] = { "", " 1", "+1", "-1", "x10", "\n1" };
	uint64_t v = 77;
	size_t used;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i], 10, UINT64_MAX, &v, &used), -EINVAL);
		assert_int_equal(used, 0);
		assert_int_equal(v, 77);
	}
	assert_int_equal(parse("0x10", 16, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 0);
	assert_int_equal(used, 1);
}

static void a_digit_of_a_larger_base_is_not_a_digit(void **state)
{
	uint64_t v = 77;
	size_t used;

	(void)state;
	assert_int_equal(parse("a", 10, UINT64_MAX, &v, &used), -EINVAL);
	assert_int_equal(parse("9", 8, UINT64_MAX, &v, &used), -EINVAL);
	assert_int_equal(parse("12", 2, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 1);
}

/* The bound holds exactly: @max parses, @max + 1 does not, at every size of bound. */
static void a_number_over_the_bound_is_out_of_range(void **state)
{
	static const uint64_t bounds[] = { 0, 1, 9, 10, 63, 1023, UINT32_MAX, INT64_MAX,
					   UINT64_MAX - 1 };
	char text[32];
	uint64_t v;
	size_t used;

	(void)state;
	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		snprintf(text, sizeof(text), "%llu", (unsigned long long)bounds[i]);
		assert_int_equal(parse(text, 10, bounds[i], &v, &used), 0);
		assert_true(v == bounds[i]);
		snprintf(text, sizeof(text), "%llu", (unsigned long long)bounds[i] + 1);
		v = 77;
		assert_int_equal(parse(text, 10, bounds[i], &v, &used), -ERANGE);
		assert_int_equal(used, 0);
		assert_int_equal(v, 77);
	}
}

static void sixty_four_bits_parse_and_sixty_five_do_not(void **state)
{
	uint64_t v;
	size_t used;

	(void)state;
	assert_int_equal(parse("18446744073709551615", 10, UINT64_MAX, &v, &used), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse("18446744073709551616", 10, UINT64_MAX, &v, &used), -ERANGE);
	assert_int_equal(parse("ffffffffffffffff", 16, UINT64_MAX, &v, &used), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse("10000000000000000", 16, UINT64_MAX, &v, &used), -ERANGE);
	assert_int_equal(parse("000000000000000000000000001", 16, UINT64_MAX, &v, &used), 0);
	assert_int_equal(v, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decimal_digits_parse_and_stop_at_the_first_other_character),
		cmocka_unit_test(hex_digits_of_either_case_parse_in_base_16),
		cmocka_unit_test(blanks_signs_and_prefixes_are_not_numbers),
		cmocka_unit_test(a_digit_of_a_larger_base_is_not_a_digit),
		cmocka_unit_test(a_number_over_the_bound_is_out_of_range),
		cmocka_unit_test(sixty_four_bits_parse_and_sixty_five_do_not),
	};

	return cmocka_run_group_tests_name("number", tests, NULL, NULL);
}
