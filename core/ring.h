/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_RING_H
#define SELFMON_CORE_RING_H

#include <stdint.h>
#include <linux/perf_event.h>

/*
 * The reader of a perf ring buffer (perf_event_open(2), "MMAP layout"):
 * the metadata page, then 2^n data pages the kernel writes records into.
 */
struct selfmon_ring {
	struct perf_event_mmap_page *page;
	const uint8_t *data;		/* page + data_offset */
	uint64_t size;			/* data_size, a power of two */
	/* A record that wraps the end is copied here whole: at most 64 KiB (u16 size). */
	uint64_t copy[65536 / 8];
};

/*
 * Point @ring at a mapping: @page as mmap(2) gave it, @size its data bytes
 * (the kernel's data_offset/data_size win when it fills them in).
 */
void selfmon_ring__init(struct selfmon_ring *ring, void *page, uint64_t size);

/* Is there anything to read? (An acquire load of data_head.) */
int selfmon_ring__empty(const struct selfmon_ring *ring);

/*
 * Call @fn on each whole record between data_tail and data_head, in order,
 * each 8-byte aligned and contiguous (copied if it wraps); stop early when
 * @fn returns non-zero. data_tail then moves past what was read.
 * A header.size that is not a multiple of 8 of at least 8, or that runs past
 * data_head, cannot be walked: the rest up to data_head is dropped and
 * counted in *@corrupt.
 * Return: the number of records handed to @fn.
 */
long selfmon_ring__read(struct selfmon_ring *ring, int (*fn)(const void *rec, uint16_t size, void *ctx),
			void *ctx, uint64_t *corrupt);

#endif
