// SPDX-License-Identifier: MIT
/*
 * The sysfs format grammar (Documentation/ABI/testing/
 * sysfs-bus-event_source-devices-format): "<field>:<bits>", where field is
 * config, config1 or config2 and bits is a comma-separated list of bit
 * numbers and ranges lo-hi; a term's value is spread over those bits in
 * the order listed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "../../core/format.h"

static struct selfmon_format parsed(const char *spec)
{
	struct selfmon_format fmt;

	memset(&fmt, 0xa5, sizeof(fmt));
	assert_int_equal(selfmon_format__parse(spec, &fmt), 0);
	return fmt;
}

static void config1_1_is_one_bit_of_config1(void **state)
{
	struct selfmon_format f = parsed("config1:1");

	(void)state;
	assert_int_equal(f.field, 1);
	assert_int_equal(f.nr_bits, 1);
	assert_int_equal(f.bits[0], 1);
}

static void config_0_15_is_sixteen_bits_of_config_in_order(void **state)
{
	struct selfmon_format f = parsed("config:0-15");

	(void)state;
	assert_int_equal(f.field, 0);
	assert_int_equal(f.nr_bits, 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(f.bits[i], i);
}

static void a_list_of_bits_and_ranges_keeps_the_listed_order(void **state)
{
	static const uint8_t want[] = { 1, 6, 7, 8, 9, 10, 44 };
	struct selfmon_format f = parsed("config1:1,6-10,44");

	(void)state;
	assert_int_equal(f.field, 1);
	assert_int_equal(f.nr_bits, (int)sizeof(want));
	assert_memory_equal(f.bits, want, sizeof(want));
}

static void config2_0_63_is_the_whole_word(void **state)
{
	struct selfmon_format f = parsed("config2:0-63");

	(void)state;
	assert_int_equal(f.field, 2);
	assert_int_equal(f.nr_bits, 64);
	assert_int_equal(f.bits[63], 63);
	assert_true(selfmon_format__mask(&f) == ~(uint64_t)0);
}

static void a_trailing_newline_as_read_from_sysfs_is_accepted(void **state)
{
	struct selfmon_format f = parsed("config:8-15\n");

	(void)state;
	assert_int_equal(f.nr_bits, 8);
	assert_int_equal(f.bits[0], 8);
}

static void malformed_specs_are_einval(void **state)
{
	static const char *const bad[] = {
		"config3:1",	/* no such field */
		"config:",	/* no bits */
		"config:5-2",	/* range backwards */
		"config:64",	/* past the word */
		"config:0-64",
		"config:1x",	/* trailing garbage */
		"config:1,",	/* dangling comma */
		"config:1-",	/* open range */
		"config:-1",
		"config1",	/* no colon */
		"conf:1",
		"configs:1",
		":1",
		"",
	};
	struct selfmon_format f;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = selfmon_format__parse(bad[i], &f);

		if (err != -EINVAL)
			fail_msg("'%s' parsed with %d, want -EINVAL", bad[i], err);
	}
}

static void apply_puts_value_bit_i_at_the_ith_listed_bit(void **state)
{
	struct selfmon_format f = parsed("config1:1,6-10,44");
	struct perf_event_attr attr = { 0 };

	(void)state;
	/* value bits 0, 2 and 6 -> attr bits 1, 7 and 44 */
	assert_int_equal(selfmon_format__apply(&f, 0x45, &attr), 0);
	assert_true(attr.config1 == ((1ull << 1) | (1ull << 7) | (1ull << 44)));
	assert_true(attr.config == 0);
	assert_true(attr.config2 == 0);
}

static void apply_ors_into_what_is_already_there(void **state)
{
	struct selfmon_format ev = parsed("config:0-7"), um = parsed("config:8-15");
	struct perf_event_attr attr = { 0 };

	(void)state;
	assert_int_equal(selfmon_format__apply(&ev, 0x3c, &attr), 0);
	assert_int_equal(selfmon_format__apply(&um, 0x01, &attr), 0);
	assert_true(attr.config == 0x013c);
}

static void apply_writes_the_field_the_format_names(void **state)
{
	struct selfmon_format f = parsed("config2:3");
	struct perf_event_attr attr = { 0 };

	(void)state;
	assert_int_equal(selfmon_format__apply(&f, 1, &attr), 0);
	assert_true(attr.config2 == 8);
	assert_true(attr.config == 0 && attr.config1 == 0);
}

static void apply_of_a_value_wider_than_the_bits_is_erange_and_changes_nothing(void **state)
{
	struct selfmon_format f = parsed("config:0-7");
	struct perf_event_attr attr = { .config = 0x1234 };

	(void)state;
	assert_int_equal(selfmon_format__apply(&f, 0x100, &attr), -ERANGE);
	assert_int_equal(selfmon_format__apply(&f, ~(uint64_t)0, &attr), -ERANGE);
	assert_true(attr.config == 0x1234);
	assert_int_equal(selfmon_format__apply(&f, 0xff, &attr), 0);
}

static void apply_of_a_64_bit_format_takes_any_value(void **state)
{
	struct selfmon_format f = parsed("config:0-63");
	struct perf_event_attr attr = { 0 };

	(void)state;
	assert_int_equal(selfmon_format__apply(&f, 0x8000000000000001ull, &attr), 0);
	assert_true(attr.config == 0x8000000000000001ull);
}

static void clear_removes_only_the_formats_bits(void **state)
{
	struct selfmon_format f = parsed("config1:0,2");
	struct perf_event_attr attr = { .config = ~0ull, .config1 = 0xff, .config2 = ~0ull };

	(void)state;
	selfmon_format__clear(&f, &attr);
	assert_true(attr.config1 == 0xfa);
	assert_true(attr.config == ~0ull && attr.config2 == ~0ull);
}

static void mask_has_every_listed_bit_and_no_other(void **state)
{
	struct selfmon_format f = parsed("config1:1,6-10,44");

	(void)state;
	assert_true(selfmon_format__mask(&f) == ((1ull << 1) | (0x1full << 6) | (1ull << 44)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config1_1_is_one_bit_of_config1),
		cmocka_unit_test(config_0_15_is_sixteen_bits_of_config_in_order),
		cmocka_unit_test(a_list_of_bits_and_ranges_keeps_the_listed_order),
		cmocka_unit_test(config2_0_63_is_the_whole_word),
		cmocka_unit_test(a_trailing_newline_as_read_from_sysfs_is_accepted),
		cmocka_unit_test(malformed_specs_are_einval),
		cmocka_unit_test(apply_puts_value_bit_i_at_the_ith_listed_bit),
		cmocka_unit_test(apply_ors_into_what_is_already_there),
		cmocka_unit_test(apply_writes_the_field_the_format_names),
		cmocka_unit_test(apply_of_a_value_wider_than_the_bits_is_erange_and_changes_nothing),
		cmocka_unit_test(apply_of_a_64_bit_format_takes_any_value),
		cmocka_unit_test(clear_removes_only_the_formats_bits),
		cmocka_unit_test(mask_has_every_listed_bit_and_no_other),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
