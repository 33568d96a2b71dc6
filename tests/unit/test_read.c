// SPDX-License-Identifier: MIT
/*
 * The inline seqlock read of <selfmon/read.h> against a perf_event_mmap_page
 * in memory (read_world.h's fake arch): when the page refuses, the count and
 * its sign extension, the seqlock. The times and the fixed-page reads:
 * test_read_times.c. Formulas: perf_event_open(2), "MMAP layout".
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

/* ---- capability masks ---- */

static void capability_masks_match_the_uapi_bitfields(void **state)
{
	struct perf_event_mmap_page p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.cap_user_rdpmc = 1;
	assert_true(p.capabilities == SELFMON_CAP_USER_RDPMC);
	memset(&p, 0, sizeof(p));
	p.cap_user_time = 1;
	assert_true(p.capabilities == SELFMON_CAP_USER_TIME);
	memset(&p, 0, sizeof(p));
	p.cap_user_time_zero = 1;
	assert_true(p.capabilities == SELFMON_CAP_USER_TIME_ZERO);
	memset(&p, 0, sizeof(p));
	p.cap_user_time_short = 1;
	assert_true(p.capabilities == SELFMON_CAP_USER_TIME_SHORT);
}

/* ---- when the page refuses ---- */

static void index_0_means_not_on_a_counter_now_eagain(void **state)
{
	struct selfmon_count c = { .value = 77 };
	uint64_t v = 77;

	(void)state;
	page.index = 0;
	assert_int_equal(selfmon_page__read_value(&page, &v), -EAGAIN);
	assert_int_equal(selfmon_page__read(&page, &c), -EAGAIN);
	assert_int_equal(hw.counter_reads, 0);
	assert_true(v == 77 && c.value == 77);	/* nothing made up */
}

static void cap_user_rdpmc_0_is_eagain(void **state)
{
	struct selfmon_count c = { 0 };
	uint64_t v = 0;

	(void)state;
	page.cap_user_rdpmc = 0;
	page.cap_user_time = 1;
	assert_int_equal(selfmon_page__read_value(&page, &v), -EAGAIN);
	assert_int_equal(selfmon_page__read(&page, &c), -EAGAIN);
	assert_int_equal(hw.counter_reads, 0);
}

static void an_index_beyond_what_the_arch_reads_is_eagain(void **state)
{
	struct selfmon_count c = { 0 };
	uint64_t v = 0;

	(void)state;
	page.index = SELFMON_ARCH_MAX_INDEX + 1;
	assert_int_equal(selfmon_page__read_value(&page, &v), -EAGAIN);
	assert_int_equal(selfmon_page__read(&page, &c), -EAGAIN);
	page.index = 0xffffffffu;
	assert_int_equal(selfmon_page__read_value(&page, &v), -EAGAIN);
	assert_int_equal(hw.counter_reads, 0);
}

static void the_highest_index_is_read_with_that_index(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.index = SELFMON_ARCH_MAX_INDEX;
	hw.counter = 5;
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_int_equal(hw.last_idx, SELFMON_ARCH_MAX_INDEX);
	assert_true(v == 5);
}

/*
 * A pmc_width of 0 leaves no counter bits (and 64 - 0 would be an undefined
 * shift); one above 64 is no width a register has. Neither is read.
 */
static void a_pmc_width_of_0_or_above_64_is_eagain_and_reads_no_counter(void **state)
{
	static const uint16_t widths[] = { 0, 65, 128, 0xffff };

	(void)state;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct selfmon_count c = { .value = 77 };
		uint64_t v = 77;

		reset_page(NULL);
		page.pmc_width = widths[i];
		page.offset = 1000;
		hw.counter = 5;
		if (selfmon_page__read_value(&page, &v) != -EAGAIN || selfmon_page__read(&page, &c) != -EAGAIN)
			fail_msg("pmc_width %u: read, want -EAGAIN (value %llu)", widths[i], (unsigned long long)v);
		assert_int_equal(hw.counter_reads, 0);
		assert_true(v == 77 && c.value == 77);
	}
}

static void pmc_width_1_and_64_are_the_bounds_that_read(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.offset = 1000;
	hw.counter = 5;
	page.pmc_width = 64;
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_true(v == 1005);
	page.pmc_width = 1;
	hw.counter = 0;
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_true(v == 1000);
}

/*
 * The kernel moves the event to another counter in the middle of a read (a
 * reschedule: lock, index and offset change). The retry reads the counter of
 * the index it loaded in that same iteration, and the new offset.
 */
static void each_iteration_reads_the_counter_of_the_index_it_loaded(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.index = 3;
	page.offset = 1000;
	hw.counter = 5;
	hw.race_page = &page;
	hw.race_offset = 4000;
	hw.race_counter = 6;
	hw.race_index = 6;
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_int_equal(hw.counter_reads, 2);
	assert_int_equal(hw.idx_seen[0], 3);
	assert_int_equal(hw.idx_seen[1], 6);
	assert_true(v == 4006);

	/* Off the counter in the middle (index 0): the retry refuses, nothing made up. */
	reset_page(NULL);
	page.index = 3;
	hw.race_page = &page;
	hw.race_offset = 9000;
	hw.race_index = 0xffffffffu;	/* not an index at all: as bad as 0 */
	v = 77;
	assert_int_equal(selfmon_page__read_value(&page, &v), -EAGAIN);
	assert_int_equal(hw.counter_reads, 1);
	assert_true(v == 77);
}

/* ---- count = offset + sign-extended counter ---- */

static void the_count_is_offset_plus_counter_and_says_user(void **state)
{
	struct selfmon_count c = { 0 };

	(void)state;
	page.index = 3;
	page.offset = 1000;
	page.time_enabled = 111;
	page.time_running = 99;
	hw.counter = 234;
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_true(c.value == 1234);
	assert_true(c.enabled == 111 && c.running == 99);	/* no cap_user_time: as published */
	assert_int_equal(c.flags, SELFMON_COUNT_USER);
	assert_int_equal(c.reason, SELFMON_REASON_NONE);
	assert_int_equal(hw.last_idx, 3);
	assert_int_equal(hw.timestamp_reads, 0);
}

/*
 * The kernel programs a counter of @width bits with prev = (u64)-left (it
 * counts up towards the overflow), writes prev & mask to the register and
 * publishes offset = count - prev. @delta events later the register holds
 * (prev + delta) & mask, plus whatever junk the hardware leaves above @width.
 * The read must give count + delta.
 */
struct width_case {
	unsigned int width;
	uint64_t count, prev, delta, junk;
};

static uint64_t mask_of(unsigned int width)
{
	return width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}

static void check_width_case(const struct width_case *t)
{
	struct selfmon_count c = { 0 };
	uint64_t v = 0;

	reset_page(NULL);
	page.pmc_width = (uint16_t)t->width;
	page.offset = t->count - t->prev;
	hw.counter = ((t->prev + t->delta) & mask_of(t->width)) | (t->junk & ~mask_of(t->width));
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	if (v != t->count + t->delta || c.value != v)
		fail_msg("width %u prev 0x%llx delta %llu: got %llu / %llu, want %llu", t->width,
			 (unsigned long long)t->prev, (unsigned long long)t->delta,
			 (unsigned long long)v, (unsigned long long)c.value,
			 (unsigned long long)(t->count + t->delta));
}

static void pmc_width_sign_extends_a_counter_that_started_below_the_top(void **state)
{
	static const unsigned int widths[] = { 32, 40, 47, 48, 63, 64 };

	(void)state;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		/* left = 1e6 events to the overflow; 1000 counted since; not yet wrapped */
		struct width_case t = { widths[i], 5000000, (uint64_t)-1000000, 1000, 0 };

		check_width_case(&t);
	}
}

static void pmc_width_sign_extends_a_counter_that_wrapped_past_2_to_the_width(void **state)
{
	static const unsigned int widths[] = { 32, 40, 47, 48, 63, 64 };

	(void)state;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		/* 5 events before the top, 12 counted: the register reads 7 */
		struct width_case t = { widths[i], 123456789, (uint64_t)-5, 12, 0 };

		check_width_case(&t);
		assert_true(hw.counter == 7);
	}
}

static void pmc_width_takes_a_counter_that_started_at_a_small_value(void **state)
{
	static const unsigned int widths[] = { 32, 40, 47, 48, 63, 64 };

	(void)state;
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct width_case t = { widths[i], 42, 1000, 555, 0 };

		check_width_case(&t);
	}
}

static void pmc_width_32_ignores_garbage_above_bit_31(void **state)
{
	static const uint64_t junk[] = { 0xdeadbeef00000000ull, 0xffffffff00000000ull, 0x100000000ull };

	(void)state;
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		struct width_case below = { 32, 1000, (uint64_t)-100, 10, junk[i] };
		struct width_case wrapped = { 32, 1000, (uint64_t)-100, 300, junk[i] };
		struct width_case small = { 32, 1000, 50, 10, junk[i] };

		check_width_case(&below);
		check_width_case(&wrapped);
		check_width_case(&small);
	}
}

static void pmc_width_1_is_the_lowest_bit_sign_extended(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.pmc_width = 1;
	page.offset = 10;
	hw.counter = 0xfffffffffffffffeull;	/* bit 0 clear: 0 */
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_true(v == 10);
	hw.counter = 1;				/* bit 0 set: -1 */
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_true(v == 9);
}

/* ---- the seqlock ---- */

static void a_page_update_during_the_read_makes_it_retry_and_return_the_new_value(void **state)
{
	struct selfmon_count c = { 0 };
	uint64_t v = 0;

	(void)state;
	page.offset = 1000;
	hw.counter = 5;			/* old: 1005 */
	hw.race_page = &page;
	hw.race_offset = 2000;
	hw.race_counter = 7;		/* new: 2007 */
	assert_int_equal(selfmon_page__read_value(&page, &v), 0);
	assert_true(v == 2007);
	assert_int_equal(hw.counter_reads, 2);

	reset_page(NULL);
	page.offset = 1000;
	hw.counter = 5;
	hw.race_page = &page;
	hw.race_offset = 3000;
	hw.race_counter = 9;
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_true(c.value == 3009);
	assert_int_equal(hw.counter_reads, 2);
}

static void a_quiet_page_is_read_once(void **state)
{
	struct selfmon_count c = { 0 };

	(void)state;
	assert_int_equal(selfmon_page__read(&page, &c), 0);
	assert_int_equal(hw.counter_reads, 1);
}

#define T(f) cmocka_unit_test_setup(f, reset_page)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(capability_masks_match_the_uapi_bitfields),
		T(index_0_means_not_on_a_counter_now_eagain),
		T(cap_user_rdpmc_0_is_eagain),
		T(an_index_beyond_what_the_arch_reads_is_eagain),
		T(the_highest_index_is_read_with_that_index),
		T(a_pmc_width_of_0_or_above_64_is_eagain_and_reads_no_counter),
		T(pmc_width_1_and_64_are_the_bounds_that_read),
		T(each_iteration_reads_the_counter_of_the_index_it_loaded),
		T(the_count_is_offset_plus_counter_and_says_user),
		T(pmc_width_sign_extends_a_counter_that_started_below_the_top),
		T(pmc_width_sign_extends_a_counter_that_wrapped_past_2_to_the_width),
		T(pmc_width_takes_a_counter_that_started_at_a_small_value),
		T(pmc_width_32_ignores_garbage_above_bit_31),
		T(pmc_width_1_is_the_lowest_bit_sign_extended),
		T(a_page_update_during_the_read_makes_it_retry_and_return_the_new_value),
		T(a_quiet_page_is_read_once),
	};

	return cmocka_run_group_tests_name("read", tests, NULL, NULL);
}
