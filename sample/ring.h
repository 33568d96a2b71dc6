/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_SAMPLE_RING_H
#define SELFMON_SAMPLE_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

/*
 * The reader of a perf ring buffer (perf_event_open(2), "MMAP layout"):
 * the metadata page, then 2^n data pages the kernel writes records into.
 */
struct selfmon_ring {
	struct perf_event_mmap_page *page;
	const uint8_t *data; /* page + data_offset */
	uint64_t size; /* data_size, a power of two */
	/* A record that wraps the end is copied here whole: at most 64 KiB (u16 size). */
	uint64_t copy[65536 / 8];
};

/*
 * Point @ring at a mapping of @map_len bytes as mmap(2) gave it: the page's
 * data_offset and data_size (else, before Linux 4.1, the rest after one
 * page) must lie inside it, a power of two of at least 8 bytes.
 * Return: 0, or -EINVAL with a message (a page that does not fit the mapping).
 */
int selfmon_ring__init(struct selfmon_ring *ring, void *map, size_t map_len);

/*
 * Is the @map_len-byte mapping at @map readable at both ends, and its
 * data_tail writable? Never faults: the kernel is asked (see ring.c).
 * Return: 0, -EFAULT (not readable), -EACCES (read-only: perf's overwrite
 * mode) or -errno, with a message.
 */
int selfmon_ring__check_access(void *map, size_t map_len);

/* Is there anything to read? (An acquire load of data_head.) */
int selfmon_ring__empty(const struct selfmon_ring *ring);

/* The record at @off that wraps the end, copied whole into @ring->copy. */
const void *selfmon_ring__copy_wrapped(struct selfmon_ring *ring, uint64_t off, uint16_t size);

/*
 * Call @fn on each whole record between data_tail and data_head, in order,
 * each 8-byte aligned and contiguous (copied if it wraps); stop early when
 * @fn returns non-zero. data_tail then moves past what was read.
 * A header.size that is not a multiple of 8 of at least 8, or that runs past
 * data_head, cannot be walked: the rest up to data_head is dropped and
 * counted in *@corrupt. So is a data_head and data_tail that no kernel
 * writes: a tail off the 8-byte grid, a head behind the tail or more than
 * the ring's size ahead of it (records overwritten while unread, or a
 * corrupt page); the reader would walk bytes that hold no records, and a
 * record longer than the ring would be copied from beyond it.
 *
 * Inline, so that a caller's static @fn is inlined into the loop: the
 * per-record cost is a budget (docs/costs.md). The loop keeps
 * the ring's data and mask in locals: @fn could, for all the compiler
 * knows, change @ring, and they would be reloaded per record.
 * Return: the number of records handed to @fn.
 */
static inline long selfmon_ring__read(struct selfmon_ring *ring,
				      int (*fn)(const void *rec, uint16_t size, void *ctx),
				      void *ctx, uint64_t *corrupt)
{
	uint64_t head = __atomic_load_n(&ring->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->page->data_tail; /* ours alone to write */
	const uint8_t *data = ring->data;
	uint64_t mask = ring->size - 1;
	long n = 0;

	if (__builtin_expect(tail % 8 || head < tail || head - tail > ring->size, 0)) {
		(*corrupt)++;
		tail = head;
	}
	while (tail < head) {
		uint64_t off = tail & mask;
		const void *rec = data + off;
		uint16_t size;

		/* Records are 8-byte multiples in a power-of-two ring: a header never wraps. */
		memcpy(&size, data + off + offsetof(struct perf_event_header, size), sizeof(size));
		/* a multiple of 8 and under 8: 0 */
		if (!size || size % 8 || size > head - tail) {
			(*corrupt)++;
			tail = head;
			break;
		}
		if (off + size > mask + 1)
			rec = selfmon_ring__copy_wrapped(ring, off, size);
		n++;
		tail += size;
		if (fn(rec, size, ctx))
			break;
	}
	__atomic_store_n(&ring->page->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

#endif
