// SPDX-License-Identifier: MIT
/*
 * The inline seqlock read of <selfmon/read.h> against a perf_event_mmap_page
 * in memory, with a fake arch whose counter and timestamp "instructions"
 * return what the test says and can play the kernel, updating the page in
 * the middle of a read. Formulas: perf_event_open(2), "MMAP layout".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

/* ---- the fake arch, in place of arch/<arch>/include/selfmon/arch.h ---- */
#define SELFMON_ARCH_H
#define SELFMON_ARCH_NAME	"fake"
#define SELFMON_ARCH_USER_READ	1
#define SELFMON_ARCH_MAX_INDEX	32u
/* As arm64: selfmon_page__read_value32() and _64() test the index alone (the tests at the end). */
#define SELFMON_ARCH_FIXED_PAGE	1

static struct {
	uint64_t counter;		/* what the counter register holds */
	uint64_t timestamp;		/* what the timestamp counter holds */
	uint32_t last_idx;
	int counter_reads, timestamp_reads;
	/* On the first counter read, play the kernel: new lock, offset and counter (and index, if set). */
	struct perf_event_mmap_page *race_page;
	uint64_t race_offset, race_counter;
	uint32_t race_index;
	uint32_t idx_seen[4];		/* the index of each counter read */
} hw;

static inline uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	hw.last_idx = idx;
	if (hw.counter_reads < 4)
		hw.idx_seen[hw.counter_reads] = idx;
	if (hw.counter_reads++ == 0 && hw.race_page) {
		uint64_t stale = hw.counter;

		hw.race_page->lock++;
		hw.race_page->offset = hw.race_offset;
		if (hw.race_index)
			hw.race_page->index = hw.race_index;
		hw.race_page->lock++;
		hw.counter = hw.race_counter;
		return stale;	/* the read in flight saw the old register */
	}
	return hw.counter;
}

static inline uint64_t selfmon_arch_read_timestamp(void)
{
	hw.timestamp_reads++;
	return hw.timestamp;
}

#include <selfmon/read.h>

static struct perf_event_mmap_page page;

static int reset_page(void **state)
{
	(void)state;
	memset(&page, 0, sizeof(page));
	memset(&hw, 0, sizeof(hw));
	page.lock = 2;
	page.index = 1;
	page.cap_user_rdpmc = 1;
	page.pmc_width = 48;
	return 0;
}

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

	return cmocka_run_group_tests_name("read", tests, NULL, NULL);
}
