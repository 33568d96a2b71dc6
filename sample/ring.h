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
 * The start of a read: data_head by an acquire load (the man page's rmb()
 * after reading it), and data_tail, ours alone to write. A pair no kernel
 * writes (a tail off the 8-byte grid, a head behind the tail or more than
 * the ring's size ahead of it) is counted in *@corrupt and the tail given
 * as the head: nothing is walked.
 * Return: the tail to read from; *@head the head to read up to.
 */
static inline uint64_t selfmon_ring__begin(const struct selfmon_ring *ring, uint64_t *head,
					   uint64_t *corrupt)
{
	uint64_t h = __atomic_load_n(&ring->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->page->data_tail;

	if (__builtin_expect(tail % 8 || h < tail || h - tail > ring->size, 0)) {
		(*corrupt)++;
		tail = h;
	}
	*head = h;
	return tail;
}

/*
 * The end of a read: data_tail moved past what was read, by a release store
 * (the man page's mb() before writing it), once for all the records read:
 * "MMAP layout" asks that data_tail reflect the last data read, so that
 * the kernel overwrites nothing unread; a store per record (libperf's
 * perf_mmap__consume()) would only give the kernel its room back sooner.
 */
static inline void selfmon_ring__end(struct selfmon_ring *ring, uint64_t tail)
{
	__atomic_store_n(&ring->page->data_tail, tail, __ATOMIC_RELEASE);
}

/*
 * The record at @tail that a walk of the contiguous bytes before the ring's
 * end and before @head could not take whole: one that wraps the end, copied
 * whole (selfmon_ring__copy_wrapped()), or a header that cannot be walked
 * (a size that is 0, not a multiple of 8, or runs past @head), counted in
 * *@corrupt. Out of line: it comes at most once per lap of the ring.
 * Return: the record, contiguous, its size in *@size; NULL when corrupt.
 */
const void *selfmon_ring__straddling(struct selfmon_ring *ring, uint64_t tail, uint64_t head,
				     uint16_t *size, uint64_t *corrupt);

/*
 * Call @fn on each whole record between data_tail and data_head, in order,
 * each 8-byte aligned and contiguous (copied if it wraps); stop early when
 * @fn returns non-zero. data_tail then moves past what was read.
 * A header.size that is not a multiple of 8 of at least 8, or that runs past
 * data_head, cannot be walked: the rest up to data_head is dropped and
 * counted in *@corrupt. So is a data_head and data_tail that no kernel
 * writes (selfmon_ring__begin()): the reader would walk bytes that hold no
 * records, and a record longer than the ring would be copied from beyond it.
 *
 * The generic reader, for any @fn (the unit tests and the fuzz harness
 * drive it); the sampler's drain walks the ring with the same begin, end
 * and straddling steps in a loop of its own (sample/sampler_drain.c). The
 * loop keeps the ring's data and mask in locals: @fn could, for all the
 * compiler knows, change @ring, and they would be reloaded per record.
 * Return: the number of records handed to @fn.
 */
static inline long selfmon_ring__read(struct selfmon_ring *ring,
				      int (*fn)(const void *rec, uint16_t size, void *ctx),
				      void *ctx, uint64_t *corrupt)
{
	uint64_t head, tail = selfmon_ring__begin(ring, &head, corrupt);
	const uint8_t *data = ring->data;
	uint64_t mask = ring->size - 1;
	long n = 0;

	while (tail < head) {
		uint64_t off = tail & mask;
		const void *rec = data + off;
		uint16_t size;

		/* Records are 8-byte multiples in a power-of-two ring: a header never wraps. */
		memcpy(&size, data + off + offsetof(struct perf_event_header, size), sizeof(size));
		/* a multiple of 8 and under 8: 0 */
		if (!size || size % 8 || size > head - tail || off + size > mask + 1) {
			rec = selfmon_ring__straddling(ring, tail, head, &size, corrupt);
			if (!rec) {
				tail = head;
				break;
			}
		}
		n++;
		tail += size;
		if (fn(rec, size, ctx))
			break;
	}
	selfmon_ring__end(ring, tail);
	return n;
}

#endif
