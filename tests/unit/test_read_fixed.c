// SPDX-License-Identifier: MIT
/*
 * The short reads of <selfmon/read.h> (selfmon_page__read_value32(), _64()
 * and the leader's read with its times) on an arch that declares
 * SELFMON_ARCH_FIXED_PAGE, as arm64 does: the caller saw cap_user_rdpmc and
 * pmc_width once, so the read tests the index alone, and still takes the
 * seqlock and the sign extension of perf_event_open(2), "MMAP layout". A
 * fake arch returns what the test says, and can play the kernel in the
 * middle of a read.
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
#define SELFMON_ARCH_NAME "fake-fixed"
#define SELFMON_ARCH_USER_READ 1
#define SELFMON_ARCH_MAX_INDEX 32u
#define SELFMON_ARCH_FIXED_PAGE 1

static struct {
	uint64_t counter;
	int counter_reads;
	uint32_t last_idx;
	/* On the first counter read, play the kernel: a new lock, offset and counter. */
	struct perf_event_mmap_page *race_page;
	uint64_t race_offset, race_counter;
} hw;

static inline uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	hw.last_idx = idx;
	if (hw.counter_reads++ == 0 && hw.race_page) {
		uint64_t stale = hw.counter;

		hw.race_page->lock++;
		hw.race_page->offset = hw.race_offset;
		hw.race_page->lock++;
		hw.counter = hw.race_counter;
		return stale;
	}
	return hw.counter;
}

static inline uint64_t selfmon_arch_read_timestamp(void)
{
	return 0;
}

#include <selfmon/read.h>

static struct perf_event_mmap_page page;

static int reset_page(void **state)
{
	(void)state;
	memset(&page, 0, sizeof(page));
	memset(&hw, 0, sizeof(hw));
	page.lock = 2;
	page.index = 3;
	page.cap_user_rdpmc = 1;
	page.pmc_width = 32;
	return 0;
}

static void read_value32_sign_extends_bit_31_and_ignores_the_bits_above(void **state)
{
	uint64_t v = 0;

	(void)state;
	page.offset = 1000;
	hw.counter = 0xdeadbeeffffffffeull; /* -2 in 32 bits, garbage above (arm64 perf document) */
	assert_int_equal(selfmon_page__read_value32(&page, &v), 0);
	assert_true(v == 998);
	assert_int_equal(hw.last_idx, 3);
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
		assert_int_equal(selfmon_page__read_fixed_times_(&page, &c, 64), -EAGAIN);
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
	assert_int_equal(selfmon_page__read_fixed_times_(&page, &c, 32), 0);
	assert_true(c.value == 9 && c.enabled == 500 && c.running == 500);
	/* Off its counter part of the time: 1, unread, for the caller's long way with the times now. */
	page.time_running = 400;
	c.value = 77;
	assert_int_equal(selfmon_page__read_fixed_times_(&page, &c, 32), 1);
	assert_true(c.value == 77);
	assert_int_equal(hw.counter_reads, 1);
}

#define T(f) cmocka_unit_test_setup(f, reset_page)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(read_value32_sign_extends_bit_31_and_ignores_the_bits_above),
		T(read_value64_adds_the_whole_counter),
		T(index_0_or_beyond_the_arch_is_eagain_and_reads_no_counter),
		T(a_page_rewritten_during_the_read_is_read_again),
		T(the_leaders_read_gives_the_pages_times_and_leaves_a_multiplexed_event),
	};

	return cmocka_run_group_tests_name("read_fixed", tests, NULL, NULL);
}
