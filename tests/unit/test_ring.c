// SPDX-License-Identifier: MIT
/*
 * The ring reader (sample/ring.c) over a synthetic ring: the metadata page
 * and 2^n data bytes as the kernel lays them out (perf_event_open(2), "MMAP
 * layout"). Records come out whole and in order, one that wraps the end is
 * copied whole, data_tail ends past what was read, and a corrupt header
 * empties the ring instead of looping. A hostile page is refused: geometry
 * (data_offset, data_size) outside the mapping at init, and a data_head or
 * data_tail no kernel writes at each read, before any byte is walked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../sample/ring.h"

#define DATA 256

static union {
	struct perf_event_mmap_page page;
	uint8_t bytes[4096 + DATA];
} map;
static struct selfmon_ring ring;

/* Write a record of @size bytes at ring position @pos, its words all @fill. */
static void put(uint64_t pos, uint16_t size, uint8_t fill)
{
	uint8_t rec[512];
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = size };

	memset(rec, fill, size);
	memcpy(rec, &h, sizeof(h));
	for (uint16_t i = 0; i < size; i++)
		map.bytes[4096 + ((pos + i) % DATA)] = rec[i];
}

static void setup(uint64_t tail)
{
	memset(&map, 0, sizeof(map));
	map.page.data_offset = 4096;
	map.page.data_size = DATA;
	map.page.data_tail = tail;
	assert_int_equal(selfmon_ring__init(&ring, &map, sizeof(map)), 0);
}

struct got {
	int n, stop_after;
	uint16_t sizes[16];
	uint8_t fills[16];
	int whole[16];
};

static int take(const void *rec, uint16_t size, void *arg)
{
	struct got *g = arg;
	const uint8_t *b = rec;
	int whole = ((uintptr_t)rec % 8) == 0;

	for (uint16_t i = 8; i < size; i++)
		whole &= b[i] == b[8];
	g->sizes[g->n] = size;
	g->fills[g->n] = size > 8 ? b[8] : 0;
	g->whole[g->n] = whole;
	return ++g->n == g->stop_after;
}

static void records_come_out_in_order_and_the_tail_follows(void **state)
{
	struct got g = { 0 };
	uint64_t corrupt = 0;

	(void)state;
	setup(0);
	put(0, 32, 0xa1);
	put(32, 16, 0xa2);
	map.page.data_head = 48;
	assert_false(selfmon_ring__empty(&ring));
	assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 2);
	assert_int_equal(g.sizes[0], 32);
	assert_int_equal(g.fills[1], 0xa2);
	assert_int_equal(map.page.data_tail, 48);
	assert_true(selfmon_ring__empty(&ring));
	assert_int_equal(corrupt, 0);
}

static void a_record_that_wraps_the_end_is_handed_on_whole(void **state)
{
	struct got g = { 0 };
	uint64_t corrupt = 0, start = 5 * DATA + DATA - 24;	/* an earlier lap, 24 bytes before the end */

	(void)state;
	setup(start);
	put(start, 64, 0xb1);
	put(start + 64, 8, 0);
	map.page.data_head = start + 72;
	assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 2);
	assert_int_equal(g.sizes[0], 64);
	assert_int_equal(g.fills[0], 0xb1);
	assert_true(g.whole[0]);
	assert_int_equal(map.page.data_tail, start + 72);
}

static void a_callback_that_stops_leaves_the_rest_for_the_next_read(void **state)
{
	struct got g = { .stop_after = 1 };
	uint64_t corrupt = 0;

	(void)state;
	setup(0);
	put(0, 16, 0xc1);
	put(16, 16, 0xc2);
	map.page.data_head = 32;
	assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 1);
	assert_int_equal(map.page.data_tail, 16);
	g.stop_after = 0;
	assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 1);
	assert_int_equal(g.fills[1], 0xc2);
	assert_int_equal(map.page.data_tail, 32);
}

static void a_corrupt_header_empties_the_ring_and_is_counted(void **state)
{
	static const uint16_t bad[] = { 0, 4, 12, 64 };	/* 64: runs past data_head */
	uint64_t corrupt = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct got g = { 0 };

		setup(0);
		put(0, 16, 0xd1);
		put(16, 16, 0xd2);
		memcpy(&map.bytes[4096 + 16 + 6], &bad[i], 2);
		map.page.data_head = 48;
		assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 1);
		assert_int_equal(map.page.data_tail, 48);
	}
	assert_int_equal(corrupt, 4);
}

/* A record whose size fits data_head but not the ring: nothing may be copied from past it. */
static void a_record_longer_than_the_ring_is_corrupt_not_copied(void **state)
{
	struct got g = { 0 };
	uint64_t corrupt = 0, start = DATA - 8;
	struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 4 * DATA };

	(void)state;
	setup(start);
	memcpy(&map.bytes[4096 + start], &h, sizeof(h));
	map.page.data_head = start + 4 * DATA;
	assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(corrupt, 1);
	assert_int_equal(map.page.data_tail, start + 4 * DATA);
}

/* Heads and tails the kernel never writes: each read drops what is between them, walking nothing. */
static void a_head_or_tail_no_kernel_writes_is_corrupt_and_walks_nothing(void **state)
{
	static const struct { uint64_t tail, head; } bad[] = {
		{ 0, DATA + 8 },	/* more than the ring ahead: unread records overwritten */
		{ 64, 32 },		/* head behind tail */
		{ 4, 36 },		/* a tail off the 8-byte grid: a header could straddle the end */
		{ 0, UINT64_MAX - 7 },	/* a walk of 2^61 records */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct got g = { 0 };
		uint64_t corrupt = 0;

		setup(bad[i].tail);
		for (uint64_t pos = 0; pos < DATA; pos += 16)
			put(pos, 16, 0xe1);
		map.page.data_head = bad[i].head;
		assert_int_equal(selfmon_ring__read(&ring, take, &g, &corrupt), 0);
		assert_int_equal(g.n, 0);
		assert_int_equal(corrupt, 1);
		assert_int_equal(map.page.data_tail, bad[i].head);
	}
}

/* Geometry outside the mapping, or not 2^n bytes, is refused when the ring is set up. */
static void a_page_whose_data_lies_outside_the_mapping_is_refused(void **state)
{
	static const struct { uint64_t off, size; size_t len; } bad[] = {
		{ 4096, 2 * DATA, 4096 + DATA },	/* data_size past the end */
		{ 8192, DATA, 4096 + DATA },		/* data_offset past the end */
		{ 4096 + 8, DATA, 4096 + DATA },	/* the end, by 8 bytes */
		{ UINT64_MAX - 7, 16, 4096 + DATA },	/* offset + size wraps */
		{ 4096, UINT64_MAX / 2 + 1, 4096 + DATA },
		{ 4096, 192, 4096 + DATA },		/* not a power of two */
		{ 4096, 4, 4096 + DATA },		/* less than a header */
		{ 512, DATA, 4096 + DATA },		/* over the page's own fields */
		{ 4100, 128, 4096 + DATA },		/* off the 8-byte grid */
		{ 4096, DATA, 1024 },			/* a mapping shorter than the page */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&map, 0, sizeof(map));
		map.page.data_offset = bad[i].off;
		map.page.data_size = bad[i].size;
		assert_int_equal(selfmon_ring__init(&ring, &map, bad[i].len), -EINVAL);
		if (!strstr(selfmon_errmsg(), "data_size") && !strstr(selfmon_errmsg(), "mapping"))
			fail_msg("case %zu: the message names no field: %s", i, selfmon_errmsg());
	}
	/* Before Linux 4.1 (both 0): the data is the rest after one page, which must exist. */
	memset(&map, 0, sizeof(map));
	assert_int_equal(selfmon_ring__init(&ring, &map, 4096), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_come_out_in_order_and_the_tail_follows),
		cmocka_unit_test(a_record_that_wraps_the_end_is_handed_on_whole),
		cmocka_unit_test(a_callback_that_stops_leaves_the_rest_for_the_next_read),
		cmocka_unit_test(a_corrupt_header_empties_the_ring_and_is_counted),
		cmocka_unit_test(a_record_longer_than_the_ring_is_corrupt_not_copied),
		cmocka_unit_test(a_head_or_tail_no_kernel_writes_is_corrupt_and_walks_nothing),
		cmocka_unit_test(a_page_whose_data_lies_outside_the_mapping_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
