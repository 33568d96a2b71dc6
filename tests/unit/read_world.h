/* SPDX-License-Identifier: MIT */
/*
 * The world of the tests of <selfmon/read.h>'s inline reads (test_read.c,
 * test_read_times.c): a fake arch whose counter and timestamp
 * "instructions" return what the test says and can play the kernel,
 * updating the page in the middle of a read, and the page they read. Include
 * after <cmocka.h> and <linux/perf_event.h>, instead of <selfmon/read.h>.
 */
#ifndef SELFMON_TEST_READ_WORLD_H
#define SELFMON_TEST_READ_WORLD_H

#include <stdint.h>
#include <string.h>

/* ---- the fake arch, in place of arch/<arch>/include/selfmon/arch.h ---- */
#define SELFMON_ARCH_H
#define SELFMON_ARCH_NAME	"fake"
#define SELFMON_ARCH_USER_READ	1
#define SELFMON_ARCH_MAX_INDEX	32u
/* As arm64: selfmon_page__read_value32() and _64() test the index alone (test_read_times.c). */
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

#endif
