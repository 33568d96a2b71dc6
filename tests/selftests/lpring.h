/* SPDX-License-Identifier: MIT */
/*
 * One sampling event opened and mapped by libperf, for the tests that set
 * selfmon's ring reader beside libperf's: an evlist of one evsel for this
 * thread (a dummy CPU map and pid 0: per-thread), mapped by
 * perf_evlist__mmap(), which gives the struct perf_mmap that
 * perf_mmap__read_event() reads; and the same fd mapped once more by
 * perf_evsel__mmap(), whose base selfmon_sampler__attach() takes. A second
 * mmap of a perf fd with the same number of data pages maps the same ring
 * buffer (the kernel's perf_mmap() reuses event->rb), so both readers see
 * the same records and the same data_tail.
 */
#ifndef SELFMON_TESTS_LPRING_H
#define SELFMON_TESTS_LPRING_H

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
/* The build's note of what this libperf offers (scripts/check-libperf.sh): the any-CPU map's name. */
#include <generated/libperf.h>
#include "../../tools/cli.h"

struct lpring {
	struct perf_evlist *evlist;
	struct perf_evsel *evsel;	/* owned by the evlist */
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_mmap *map;		/* perf_evlist__mmap()'s: for perf_mmap__read_event() */
	void *base;			/* perf_evsel__mmap()'s: for selfmon_sampler__attach() */
	size_t len;
	struct perf_event_attr attr;
};

static inline void lpring_close(struct lpring *r)
{
	cli_evlist__close_mapped(r->evlist, r->evsel);
	perf_cpu_map__put(r->cpus);
	perf_thread_map__put(r->threads);
	memset(r, 0, sizeof(*r));
}

/*
 * Open @attr (disabled) for this thread with a ring of @pages data pages,
 * mapped twice. Return: 0 or -errno.
 */
static inline int lpring_open(struct lpring *r, const struct perf_event_attr *attr, int pages)
{
	memset(r, 0, sizeof(*r));
	libperf_init(NULL);	/* its page size; and no messages on stderr */
	r->attr = *attr;
	r->attr.disabled = 1;
	/* no id table for libperf to leak: without PERF_SAMPLE_READ no record shows it */
	if (!(r->attr.sample_type & PERF_SAMPLE_READ))
		r->attr.read_format &= ~(uint64_t)PERF_FORMAT_ID;
	r->len = (size_t)(pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
	r->threads = perf_thread_map__new_dummy();
	r->cpus = SELFMON_LIBPERF_CPU_MAP_ANY();	/* renamed in Linux 6.8 */
	r->evlist = perf_evlist__new();
	r->evsel = r->evlist ? perf_evsel__new(&r->attr) : NULL;
	if (r->evsel)
		perf_evlist__add(r->evlist, r->evsel);
	if (!r->threads || !r->cpus || !r->evsel)
		goto fail;
	perf_thread_map__set_pid(r->threads, 0, 0);
	perf_evlist__set_maps(r->evlist, r->cpus, r->threads);
	if (perf_evlist__open(r->evlist) || perf_evlist__mmap(r->evlist, pages) ||
	    perf_evsel__mmap(r->evsel, pages))
		goto fail;
	r->map = perf_evlist__next_mmap(r->evlist, NULL, false);
	r->base = perf_evsel__mmap_base(r->evsel, 0, 0);
	if (r->map && r->base)
		return 0;
fail:
	lpring_close(r);
	return errno ? -errno : -EIO;
}

/* libperf's read loop, alone: the records it hands out. */
static inline long lpring_read_all(struct lpring *r)
{
	union perf_event *ev;
	long n = 0;

	if (perf_mmap__read_init(r->map) < 0)
		return 0;
	while ((ev = perf_mmap__read_event(r->map)) != NULL) {
		n++;
		perf_mmap__consume(r->map);
	}
	perf_mmap__read_done(r->map);
	return n;
}

#endif
