// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: a perf ring buffer whose metadata page and records are
 * both the input's (perf_event_open(2), "MMAP layout"): the geometry
 * (data_offset, data_size), the data_tail and a run of data_head values,
 * and the data bytes. The mapping is a heap block of exactly its length
 * (one page, 2^n data pages), so ASan sees any access past it. Each input
 * goes through the ring reader alone (sample/ring.h) or, by its flags,
 * through selfmon_sampler__attach() and the drain, parser included.
 *
 * Input: u8 pages (low 2 bits: 2^n data pages), u8 flags, u64 data_offset,
 * u64 data_size, u64 sample_type, u64 data_tail, u8 read_format, u8 number
 * of heads, that many u64 heads; the rest fills the data pages, repeated.
 * flags: bit 0 the geometry as given (else the kernel's: one page on, all
 * the data pages), bit 1 both 0 (a kernel before 4.1), bit 2 through the
 * sampler, bit 3 heads absolute (else added to the tail), bit 4
 * sample_id_all.
 *
 * What must hold: init refuses a geometry outside the mapping; a record
 * handed on lies inside the data area or the copy buffer, whole; the tail
 * only moves forward to at most the head, or to the head when the pair is
 * corrupt; records handed on fit in the bytes consumed; the walk ends.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/sampler.h>
#include "../../sample/ring.h"

#define FIXED 36

struct walk {
	const struct selfmon_ring *ring;
	uint64_t bytes;
	uint64_t sum;
};

static uint64_t u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int on_record(const void *rec, uint16_t size, void *arg)
{
	struct walk *w = arg;
	const uint8_t *b = rec, *data = w->ring->data, *copy = (const uint8_t *)w->ring->copy;

	if (size < 8 || size % 8 || size > w->ring->size)
		abort();
	/* the copy buffer holds any u16 size: a wrapped record is bounded by the ring */
	if (!((b >= data && b + size <= data + w->ring->size) || b == copy))
		abort();
	for (uint16_t i = 0; i < size; i++)
		w->sum += b[i];
	w->bytes += size;
	return 0;
}

static int on_parsed(const struct selfmon_record *r, void *ctx)
{
	(void)ctx;
	return r->size < 8 ? (abort(), 0) : 0;
}

static void through_the_reader(void *map, size_t map_len, const uint64_t *heads, int nr_heads)
{
	struct selfmon_ring *ring = malloc(sizeof(*ring));
	struct perf_event_mmap_page *pg = map;

	if (!ring)
		return;
	if (!selfmon_ring__init(ring, map, map_len)) {
		if ((uint64_t)(ring->data - (const uint8_t *)map) + ring->size > map_len)
			abort();
		for (int i = 0; i < nr_heads; i++) {
			struct walk w = { .ring = ring };
			uint64_t corrupt = 0, tail = pg->data_tail, head = heads[i];
			long n;

			pg->data_head = head;
			n = selfmon_ring__read(ring, on_record, &w, &corrupt);
			if (n < 0 || (uint64_t)n * 8 > w.bytes)
				abort();
			if (corrupt ? pg->data_tail != head
				    : pg->data_tail < tail || pg->data_tail > head ||
				      pg->data_tail - tail != w.bytes)
				abort();
		}
	}
	free(ring);
}

static void through_the_sampler(void *map, size_t map_len, const uint64_t *heads, int nr_heads,
				 uint64_t sample_type, uint8_t read_format, int id_all)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_type = sample_type,
					.read_format = read_format, .sample_id_all = id_all };
	struct perf_event_mmap_page *pg = map;
	struct selfmon_sampler *s = selfmon_sampler__attach(map, map_len, &attr);

	if (!s)
		return;
	for (int i = 0; i < nr_heads; i++) {
		pg->data_head = heads[i];
		if (selfmon_sampler__drain(s, on_parsed, NULL, 0) < 0)
			abort();
	}
	selfmon_sampler__close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), map_len, fill;
	uint64_t heads[16];
	struct perf_event_mmap_page *pg;
	uint64_t sample_type;
	uint8_t flags, read_format;
	int nr_heads;
	void *map;

	if (size < FIXED)
		return 0;
	flags = data[1];
	sample_type = u64(data + 18);
	read_format = data[34];
	nr_heads = data[35] % 17;
	if (size < FIXED + 8 * (size_t)nr_heads)
		return 0;
	map_len = (1 + ((size_t)1 << (data[0] & 3))) * page;
	map = aligned_alloc(page, map_len);
	if (!map)
		return 0;
	memset(map, 0, map_len);
	pg = map;
	pg->data_tail = u64(data + 26);
	if (flags & 1) {
		pg->data_offset = u64(data + 2);
		pg->data_size = u64(data + 10);
	} else if (!(flags & 2)) {
		pg->data_offset = page;
		pg->data_size = map_len - page;
	}
	for (int i = 0; i < nr_heads; i++) {
		uint64_t h = u64(data + FIXED + 8 * (size_t)i);

		heads[i] = flags & 8 ? h : pg->data_tail + (h & 0xffffff);
	}
	data += FIXED + 8 * (size_t)nr_heads;
	size -= FIXED + 8 * (size_t)nr_heads;
	for (size_t off = page; size && off < map_len; off += fill) {
		fill = size < map_len - off ? size : map_len - off;
		memcpy((uint8_t *)map + off, data, fill);
	}
	if (flags & 4)
		through_the_sampler(map, map_len, heads, nr_heads, sample_type, read_format,
				    !!(flags & 16));
	else
		through_the_reader(map, map_len, heads, nr_heads);
	free(map);
	return 0;
}
