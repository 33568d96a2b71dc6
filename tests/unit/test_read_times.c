// SPDX-License-Identifier: MIT
/*
 * The inline reads of <selfmon/read.h> that bring a page's times up to now
 * (cap_user_time), and the short reads of a page seen once, against a
 * perf_event_mmap_page in memory (read_world.h's fake arch). Formulas:
 * perf_event_open(2), "MMAP layout".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "read_world.h"

/* ---- times brought up to now (cap_user_time) ---- */

/* The man page's conversion, computed another way: exact 128-bit product. */
static uint64_t ns_of(uint64_t cyc, uint16_t shift, uint32_t mult, uint64_t offset)
{
	return offset + (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static void cap_user_time_advances_enabled_and_running_by_the_converted_timestamp(void **state)
{
	const uint64_t now_ns = 10000000000ull;	/* the kernel's "now" at the update */
	struct selfmon_count c = { 0 };
	uint64_t delta;

	(void)state;
	page.cap_user_time = 1;
	page.time_enabled = 4000;
	page.time_running = 3000;
	page.time_mult = 2796202667u;		/* 2^31 * 1.302: a 768 MHz timestamp counter */
	page.time_shift = 31;
	/* time_offset = time_zero - now, as the kernel publishes it */
	page.time_offset = 1000 - now_ns;
	hw.timestamp = 7700000123ull;		/* past the 2^31 boundary: the remainder counts */
	delta = ns_of(hw.timestamp, page.time_shift, page.time_mult, page.time_offset);
	assert_true(delta > 0 && delta < 1000000000ull);	/* the example is sane */

	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_int_equal(hw.timestamp_reads, 1);
	assert_true(c.enabled == 4000 + delta);
	assert_true(c.running == 3000 + delta);
}

static void cap_user_time_with_a_huge_timestamp_does_not_overflow_the_product(void **state)
{
	struct selfmon_count c = { 0 };
	uint64_t delta;

	(void)state;
	page.cap_user_time = 1;
	page.time_mult = 0xffffffffu;
	page.time_shift = 31;
	page.time_offset = 0;
	hw.timestamp = 0x00ffffffffffffffull;	/* cyc * mult would not fit in 64 bits */
	page.time_enabled = 7;			/* multiplexed: the times are brought up to now */
	delta = ns_of(hw.timestamp, page.time_shift, page.time_mult, page.time_offset);
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_true(c.enabled == 7 + delta);
	assert_true(c.running == delta);
}

static void cap_user_time_short_counts_a_wrapped_timestamp_from_time_cycles(void **state)
{
	struct selfmon_count c = { 0 };
	uint64_t cyc, delta;

	(void)state;
	page.cap_user_time = 1;
	page.cap_user_time_short = 1;
	page.time_mult = 1u << 24;
	page.time_shift = 24;			/* 1 ns per cycle */
	page.time_cycles = 0x5fffffff0ull;	/* the kernel's epoch, 16 short of a 32-bit wrap */
	page.time_mask = 0xffffffffull;		/* a 32-bit timestamp counter */
	page.time_offset = (uint64_t)-0x5fffffff0ll;	/* zero at the epoch */
	hw.timestamp = 0x10;			/* the short counter wrapped: 0x20 cycles since the epoch */
	cyc = page.time_cycles + 0x20;
	delta = ns_of(cyc, page.time_shift, page.time_mult, page.time_offset);
	assert_true(delta == 0x20);
	page.time_enabled = 7;

	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_true(c.enabled == 7 + 0x20);
	assert_true(c.running == 0x20);
}

static void without_cap_user_time_short_the_timestamp_is_taken_whole(void **state)
{
	struct selfmon_count c = { 0 };

	(void)state;
	page.cap_user_time = 1;
	page.time_mult = 1;
	page.time_shift = 0;
	page.time_cycles = 0x5fffffff0ull;	/* ignored: cap_user_time_short is 0 */
	page.time_mask = 0xffffffffull;
	page.time_offset = (uint64_t)-100;
	hw.timestamp = 0x100000010ull;
	page.time_enabled = 7;
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_true(c.enabled == 7 + 0x100000010ull - 100);
}

static void an_event_never_off_its_counter_keeps_the_pages_times_and_reads_no_timestamp(void **state)
{
	struct selfmon_count c = { 0 };

	(void)state;
	page.cap_user_time = 1;
	page.time_mult = 1;
	page.time_shift = 0;
	page.time_enabled = 5000;
	page.time_running = 5000;
	hw.timestamp = 123456;
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	/* enabled == running: the ratio is 1 now as at the update, nothing to bring up to date */
	assert_int_equal(hw.timestamp_reads, 0);
	assert_true(c.enabled == 5000 && c.running == 5000);
}

/*
 * ---- the short reads of a page seen once (SELFMON_ARCH_FIXED_PAGE) ----
 * selfmon_page__read_value32(), _64() and a group leader's read with its
 * times test the index alone, and still take the seqlock and the sign
 * extension of perf_event_open(2), "MMAP layout".
 */

static void read_value32_sign_extends_bit_31_and_ignores_the_bits_above(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.pmc_width = 32;
	page.offset = 1000;
	hw.counter = 0xdeadbeeffffffffeull; /* -2 in 32 bits, garbage above (arm64 perf document) */
	assert_int_equal(selfmon_page__read_value32(&page, &v), 0);
	assert_true(v == 998);
	assert_int_equal(hw.last_idx, 1);
	hw.counter = 0xffffffff00000005ull;
	assert_int_equal(selfmon_page__read_value32(&page, &v), 0);
	assert_true(v == 1005);
}

static void read_value64_adds_the_whole_counter(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.pmc_width = 64;
	page.offset = (uint64_t)-10;
	hw.counter = 0x100000000ull;
	assert_int_equal(selfmon_page__read_value64(&page, &v), 0);
	assert_true(v == 0x100000000ull - 10);
}

/* A group of mixed widths: each counter by its own shift, as read_value32/64 would read it. */
static void read_shifted_reads_as_read_value32_at_32_and_read_value64_at_0(void **state)
{
	uint64_t v = 0, w = 0;

	(void)state;
	page.offset = 1000;
	hw.counter = 0xdeadbeeffffffffeull; /* -2 in 32 bits, garbage above */
	assert_int_equal(selfmon_priv_page_read_shifted(&page, &v, 32), 0);
	assert_int_equal(selfmon_page__read_value32(&page, &w), 0);
	assert_true(v == 998 && w == 998);
	assert_int_equal(selfmon_priv_page_read_shifted(&page, &v, 0), 0);
	assert_int_equal(selfmon_page__read_value64(&page, &w), 0);
	assert_true(v == 0xdeadbeeffffffffeull + 1000 && w == v);
	page.index = 0;
	v = 77;
	assert_int_equal(selfmon_priv_page_read_shifted(&page, &v, 32), -EAGAIN);
	assert_true(v == 77);
}

static void index_0_or_beyond_the_arch_is_eagain_and_reads_no_counter(void **state)
{
	static const uint32_t bad[] = { 0, SELFMON_ARCH_MAX_INDEX + 1, 0xffffffffu };
	struct selfmon_count c = { .value = 77 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 77;

		page.index = bad[i];
		assert_int_equal(selfmon_page__read_value32(&page, &v), -EAGAIN);
		assert_int_equal(selfmon_page__read_value64(&page, &v), -EAGAIN);
		assert_int_equal(selfmon_priv_page_read_fixed_times(&page, &c, 64), -EAGAIN);
		assert_true(v == 77 && c.value == 77); /* nothing made up */
	}
	assert_int_equal(hw.counter_reads, 0);
}

static void a_page_rewritten_during_the_read_is_read_again(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.offset = 100;
	hw.counter = 5;
	hw.race_page = &page;
	hw.race_offset = 200;
	hw.race_counter = 7;
	assert_int_equal(selfmon_page__read_value32(&page, &v), 0);
	assert_int_equal(hw.counter_reads, 2);
	assert_true(v == 207);
}

static void the_leaders_read_gives_the_pages_times_and_leaves_a_multiplexed_event(void **state)
{
	struct selfmon_count c = { 0 };

	(void)state;
	page.offset = 10;
	page.time_enabled = page.time_running = 500;
	hw.counter = 0xfffffffful; /* -1 in 32 bits */
	assert_int_equal(selfmon_priv_page_read_fixed_times(&page, &c, 32), 0);
	assert_true(c.value == 9 && c.enabled == 500 && c.running == 500);
	/*
	 * Off its counter part of the time: 1, nothing stored, for the
	 * caller's long way with the times now. The counter of the index the
	 * page names may have been read (one test for the seqlock and the
	 * times), never another.
	 */
	page.time_running = 400;
	c.value = 77;
	assert_int_equal(selfmon_priv_page_read_fixed_times(&page, &c, 32), 1);
	assert_true(c.value == 77);
	assert_true(hw.counter_reads <= 2);
	assert_int_equal(hw.last_idx, page.index);
}

#define T(f) cmocka_unit_test_setup(f, reset_page)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(an_event_never_off_its_counter_keeps_the_pages_times_and_reads_no_timestamp),
		T(cap_user_time_advances_enabled_and_running_by_the_converted_timestamp),
		T(cap_user_time_with_a_huge_timestamp_does_not_overflow_the_product),
		T(cap_user_time_short_counts_a_wrapped_timestamp_from_time_cycles),
		T(without_cap_user_time_short_the_timestamp_is_taken_whole),
		T(read_value32_sign_extends_bit_31_and_ignores_the_bits_above),
		T(read_value64_adds_the_whole_counter),
		T(read_shifted_reads_as_read_value32_at_32_and_read_value64_at_0),
		T(index_0_or_beyond_the_arch_is_eagain_and_reads_no_counter),
		T(a_page_rewritten_during_the_read_is_read_again),
		T(the_leaders_read_gives_the_pages_times_and_leaves_a_multiplexed_event),
	};

	return cmocka_run_group_tests_name("read times", tests, NULL, NULL);
}
