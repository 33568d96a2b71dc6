// SPDX-License-Identifier: MIT
/*
 * The ring-buffer reader, following perf_event_open(2), "MMAP layout"
 * (data_head, data_tail) to the letter: an acquire load of data_head (the
 * man page's rmb() after reading it), records read in place, one that wraps
 * the end copied whole, then a release store of data_tail (its mb() before
 * writing it), so the kernel never overwrites a record being read.
 *
 * Why not libperf's perf_mmap__read_init/read_event/consume/read_done: they
 * follow the same protocol, but a struct perf_mmap is only made by
 * perf_evlist__mmap(), which wants an evlist with CPU and thread maps, maps
 * every evsel and redirects them with SET_OUTPUT; a sampler of one thread
 * opens one ring for one fd. This reader takes any mapping, so the unit
 * tests drive it over a synthetic ring (wrapping records, a corrupt
 * header) with no kernel at all.
 */
#include <string.h>

#include "ring.h"

void selfmon_ring__init(struct selfmon_ring *ring, void *page, uint64_t size)
{
	struct perf_event_mmap_page *pg = page;

	ring->page = pg;
	ring->size = size;
	ring->data = (const uint8_t *)page + (pg->data_offset ? pg->data_offset : 4096);
	/* Linux 4.1 and later fill these in; before, the data starts one page on. */
	if (pg->data_size && pg->data_offset) {
		ring->size = pg->data_size;
		ring->data = (const uint8_t *)page + pg->data_offset;
	}
}

int selfmon_ring__empty(const struct selfmon_ring *ring)
{
	uint64_t head = __atomic_load_n(&ring->page->data_head, __ATOMIC_ACQUIRE);

	return head == ring->page->data_tail;
}

/*
 * A record that wraps the end, copied whole: rare, so out of the loop (a
 * memcpy call in it would make the loop keep its state on the stack).
 */
const void *selfmon_ring__copy_wrapped(struct selfmon_ring *ring, uint64_t off, uint16_t size)
{
	uint64_t first = ring->size - off;

	memcpy(ring->copy, ring->data + off, first);
	memcpy((uint8_t *)ring->copy + first, ring->data, size - first);
	return ring->copy;
}
