// SPDX-License-Identifier: MIT
/*
 * core/fmt.c, the library's own snprintf(3): for every directive it takes,
 * the same bytes and the same return value as the C library's, whole and cut
 * short at every buffer size.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../core/fmt.h"

/* Not a constant: the compiler must not judge the C library's truncation. */
static volatile size_t big = 256;

/*
 * Both formatters, @fmt and its arguments, into a buffer of every size from
 * 0 to one past the text: equal return values and equal bytes, the rest of
 * the buffer untouched.
 */
#define SAME(fmt, ...)                                                                       \
	do {                                                                                 \
		char want[256], got[256];                                                   \
		int n = snprintf(want, big, fmt, __VA_ARGS__);                              \
		assert_in_range(n, 0, 200);                                                  \
		for (size_t size = 0; size <= (size_t)n + 1; size++) {                      \
			memset(want, 'Z', sizeof(want));                                    \
			memset(got, 'Z', sizeof(got));                                      \
			assert_int_equal(snprintf(want, size, fmt, __VA_ARGS__), n);        \
			assert_int_equal(selfmon_fmt__print(got, size, fmt, __VA_ARGS__), n); \
			if (memcmp(want, got, sizeof(want)))                                \
				fail_msg("'%s' at size %zu: want '%.*s', got '%.*s'", fmt,  \
					 size, n + 1, want, n + 1, got);                    \
		}                                                                            \
	} while (0)

static void integers_print_as_the_c_library_prints_them(void **state)
{
	/*
	 * Beyond char and short: hh and h convert first (C11 7.21.6.1). Not a
	 * literal: clang's -Wformat refuses an int there, which is what is passed.
	 */
	const char *narrow = "%hhd %hhu %hd %hu";

	(void)state;
	SAME("%d %d %d", 0, 7, -7);
	SAME("%d %d", INT_MAX, INT_MIN);
	SAME("%i|%u|%x|%X", -42, 4000000000u, 0xbeefu, 0xbeefu);
	SAME("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	SAME("%lld %llu %llx", LLONG_MIN, ULLONG_MAX, 0x123456789abcdefull);
	SAME("%zu %zd %zx", (size_t)SIZE_MAX, (ssize_t)-3, (size_t)255);
	SAME("%jd %ju %td", INTMAX_MIN, UINTMAX_MAX, (ptrdiff_t)-9);
	SAME(narrow, 300, 300, 70000, 70000);
}

static void width_precision_and_flags_pad_as_the_c_library_pads(void **state)
{
	SAME("[%5d][%-5d][%05d][%05d]", 42, 42, 42, -42);
	const char *zero_and_prec = "[%08.3d][%-08d]"; /* '0' gives way: -Wformat says so */

	SAME("[%.3d][%.0d][%.0d][%8.3d]", 7, 0, 5, -7);
	SAME(zero_and_prec, 7, 7);
	SAME("[%02x][%016llx][%-6x][%#x][%#X][%#x][%#010x]", 5u, 0xabcull, 10u, 255u, 255u, 0u, 255u);
	SAME("[%*d][%*d][%.*d][%.*d]", 6, 1, -6, 1, 3, 2, -1, 2);
	SAME("[%1d][%0d]", 12345, 12345);
	(void)state;
}

static void text_and_characters_print_as_the_c_library_prints_them(void **state)
{
	(void)state;
	SAME("[%s][%10s][%-10s]", "pmu", "pmu", "pmu");
	SAME("event '%.40s...': %s", "a-very-long-event-name-that-goes-on-and-on-and-on", "x");
	SAME("[%.*s][%.*s][%.0s]", 3, "abcdef", 10, "abc", "gone");
	SAME("[%c][%3c][%-3c]%%[%%]", 'a', 'b', 'c');
	SAME("%s", "");
	SAME("%s", "plain text with no directive");
}

static void a_null_string_prints_as_null_in_parentheses(void **state)
{
	const char *volatile none = NULL; /* unknown to -Wformat-overflow */
	char buf[32];

	(void)state;
	assert_int_equal(selfmon_fmt__print(buf, sizeof(buf), "[%s]", none), 8);
	assert_string_equal(buf, "[(null)]");
}

static void a_pointer_prints_as_0x_and_its_address_in_hex(void **state)
{
	char buf[64], want[64];
	int x;

	(void)state;
	snprintf(want, sizeof(want), "0x%jx", (uintmax_t)(uintptr_t)&x);
	selfmon_fmt__print(buf, sizeof(buf), "%p", (void *)&x);
	assert_string_equal(buf, want);
	selfmon_fmt__print(buf, sizeof(buf), "%p", NULL);
	assert_string_equal(buf, "0x0");
}

static void a_directive_it_does_not_take_is_copied_out_as_it_stands(void **state)
{
	const char *fmt = "ratio %.2f, %Lg!"; /* not a literal: -Wformat would refuse it */
	char buf[64];

	(void)state;
	assert_int_equal(selfmon_fmt__print(buf, sizeof(buf), fmt, 1.5, 2.5L), 16);
	assert_string_equal(buf, "ratio %.2f, %Lg!");
}

static void a_zero_size_writes_nothing_and_takes_a_null_buffer(void **state)
{
	(void)state;
	assert_int_equal(selfmon_fmt__print(NULL, 0, "%s-%d", "cpu", 12), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(integers_print_as_the_c_library_prints_them),
		cmocka_unit_test(width_precision_and_flags_pad_as_the_c_library_pads),
		cmocka_unit_test(text_and_characters_print_as_the_c_library_prints_them),
		cmocka_unit_test(a_null_string_prints_as_null_in_parentheses),
		cmocka_unit_test(a_pointer_prints_as_0x_and_its_address_in_hex),
		cmocka_unit_test(a_directive_it_does_not_take_is_copied_out_as_it_stands),
		cmocka_unit_test(a_zero_size_writes_nothing_and_takes_a_null_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
