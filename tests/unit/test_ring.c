// SPDX-License-Identifier: MIT
/*
 * The ring reader (sample/ring.c) over a synthetic ring: the metadata page
 * and 2^n data bytes as the kernel lays them out (perf_event_open(2), "MMAP
 * layout"). Records come out whole and in order, one that wraps the end is
 * copied whole, data_tail ends past what was read, and a corrupt header
 * empties the ring instead of looping.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

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
	selfmon_ring__init(&ring, &map, DATA);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_come_out_in_order_and_the_tail_follows),
		cmocka_unit_test(a_record_that_wraps_the_end_is_handed_on_whole),
		cmocka_unit_test(a_callback_that_stops_leaves_the_rest_for_the_next_read),
		cmocka_unit_test(a_corrupt_header_empties_the_ring_and_is_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
