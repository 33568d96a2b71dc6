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
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/errtext.h"
#include "ring.h"

/*
 * The page's geometry is read once, here, and checked against the mapping:
 * the reader then trusts ring->data and ring->size alone, never the page's
 * data_offset and data_size again (another writer of the page, or a corrupt
 * one, could change them under it).
 */
int selfmon_ring__init(struct selfmon_ring *ring, void *map, size_t map_len)
{
	struct perf_event_mmap_page *pg = map;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), off = page, size;

	if (map_len < sizeof(*pg) || map_len <= page)
		return selfmon__err(-EINVAL,
				    "perf ring: a mapping of %zu bytes holds no metadata "
				    "page and data pages (perf_event_open(2), \"MMAP layout\")",
				    map_len);
	size = map_len - page;
	/* Linux 4.1 and later fill these in; before, the data starts one page on. */
	if (pg->data_offset || pg->data_size) {
		off = pg->data_offset;
		size = pg->data_size;
	}
	/* Records are 8-byte multiples laid in 2^n bytes: that is what lets a header never wrap. */
	if (off < sizeof(*pg) || off % 8 || size < 8 || (size & (size - 1)) || off > map_len ||
	    size > map_len - off)
		return selfmon__err(
			-EINVAL,
			"perf ring: data_offset %llu and data_size %llu do not "
			"lie in the %zu-byte mapping as 2^n bytes after the metadata page "
			"(perf_event_open(2), \"MMAP layout\"): a corrupt or foreign page",
			(unsigned long long)off, (unsigned long long)size, map_len);
	ring->page = pg;
	ring->size = size;
	ring->data = (const uint8_t *)map + off;
	return 0;
}

/*
 * Can this process read the mapping's ends and write its data_tail? Asked of
 * the kernel, which answers EFAULT where a load or store of ours would take
 * SIGSEGV: 8 bytes of each end written into a pipe (readable?), and data_tail
 * copied through it onto itself (writable? its value unchanged: the reader
 * alone writes it). A ring mapped without PROT_WRITE is perf's overwrite
 * mode (perf_event_open(2), "MMAP layout": the kernel ignores data_tail and
 * overwrites what was not read), which this reader does not follow.
 */
int selfmon_ring__check_access(void *map, size_t map_len)
{
	struct perf_event_mmap_page *pg = map;
	uint64_t buf;
	int p[2], err = 0;

	if (pipe2(p, O_CLOEXEC))
		return selfmon__err(-errno, "perf ring: pipe2: %s", selfmon_errtext__str(errno));
	if (write(p[1], map, 8) != 8 || read(p[0], &buf, 8) != 8 ||
	    write(p[1], (const char *)map + map_len - 8, 8) != 8 || read(p[0], &buf, 8) != 8)
		err = selfmon__err(
			errno == EFAULT ? -EFAULT : -errno,
			"perf ring: "
			"the %zu bytes at %p are not all readable (%s): pass a live mapping "
			"of the ring and its length",
			map_len, map, selfmon_errtext__str(errno));
	else if (write(p[1], &pg->data_tail, 8) != 8 || read(p[0], &pg->data_tail, 8) != 8)
		err = selfmon__err(
			errno == EFAULT ? -EACCES : -errno,
			"perf ring: "
			"the ring is mapped read-only (%s): without PROT_WRITE perf "
			"overwrites unread records and ignores data_tail (overwrite "
			"mode), which this reader moves: mmap(2) it PROT_READ | PROT_WRITE",
			selfmon_errtext__str(errno));
	close(p[0]);
	close(p[1]);
	return err;
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

const void *selfmon_ring__straddling(struct selfmon_ring *ring, uint64_t tail, uint64_t head,
				     uint16_t *size, uint64_t *corrupt)
{
	uint64_t off = tail & (ring->size - 1);
	uint16_t sz;

	/* Records are 8-byte multiples in a power-of-two ring: a header never wraps. */
	memcpy(&sz, ring->data + off + offsetof(struct perf_event_header, size), sizeof(sz));
	/* a multiple of 8 and under 8: 0 */
	if (!sz || sz % 8 || sz > head - tail) {
		(*corrupt)++;
		return NULL;
	}
	*size = sz;
	if (off + sz > ring->size)
		return selfmon_ring__copy_wrapped(ring, off, sz);
	return ring->data + off;
}
