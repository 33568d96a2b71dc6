// SPDX-License-Identifier: MIT
/*
 * What reading one sample costs, for `selfmon bench samplecost`:
 * selfmon_sampler__drain() with a callback that counts (the parse included)
 * and libperf's loop alone (perf_mmap__read_init, perf_mmap__read_event and
 * perf_mmap__consume per record, perf_mmap__read_done), over the same ring.
 *
 * A bench body must be able to run any number of iterations, again and
 * again; a ring filled by sampling is read once, and libperf's read
 * position (struct perf_mmap's prev) cannot be put back through its API.
 * So the ring is the real mapping of a real event (libperf's
 * perf_evlist__mmap(), and perf_evsel__mmap() of the same fd for
 * selfmon_sampler__attach(): the kernel backs both with one ring), filled
 * once by sampling (cpu-clock, which every machine has) until every record
 * position holds a sample, and stopped. Each body then publishes records by
 * moving data_head on, as the kernel does after writing them: the readers
 * read the kernel's records again, lap after lap. The records are 64 bytes
 * (IDENTIFIER, IP, TID, TIME, STREAM_ID, CPU, PERIOD), a size that divides
 * the ring, so every position they reach holds a whole record. The tests
 * (sample_board_test) measure the same on a ring filled afresh by the PMU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
/* The build's note of what this libperf offers (scripts/check-libperf.sh): the any-CPU map's name. */
#include <generated/libperf.h>

#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>
#include "cli.h"
#include "../util/err.h"

#define SC_TYPE                                                                         \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define SC_RECORD 64
#define SC_PAGES 16

struct cli_samplecost {
	struct perf_evlist *evlist;
	struct perf_evsel *evsel; /* the evlist's */
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_mmap *map; /* perf_evlist__mmap()'s */
	struct perf_event_mmap_page *page; /* perf_evsel__mmap()'s, the same ring */
	size_t len;
	struct selfmon_sampler *s; /* attached to @page */
	uint64_t batch; /* records that fit the ring */
	uint64_t got;
};

static int open_event(struct cli_samplecost *sc, struct perf_event_attr *attr)
{
	libperf_init(NULL);
	sc->len = (SC_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE);
	sc->threads = perf_thread_map__new_dummy();
	sc->cpus = SELFMON_LIBPERF_CPU_MAP_ANY(); /* renamed in Linux 6.8 */
	sc->evlist = perf_evlist__new();
	sc->evsel = sc->evlist ? perf_evsel__new(attr) : NULL;
	if (sc->evsel)
		perf_evlist__add(sc->evlist, sc->evsel);
	if (!sc->threads || !sc->cpus || !sc->evsel)
		return selfmon_errmsg__set(-ENOMEM, "samplecost: out of memory");
	perf_thread_map__set_pid(sc->threads, 0, 0);
	perf_evlist__set_maps(sc->evlist, sc->cpus, sc->threads);
	if (perf_evlist__open(sc->evlist))
		return selfmon_errmsg__set(errno ? -errno : -EIO,
					   "samplecost: libperf cannot open "
					   "the sampling event: %s",
					   strerror(errno));
	if (perf_evlist__mmap(sc->evlist, SC_PAGES) || perf_evsel__mmap(sc->evsel, SC_PAGES))
		return selfmon_errmsg__set(errno ? -errno : -EIO,
					   "samplecost: libperf cannot map "
					   "a %d-page ring: %s",
					   SC_PAGES, strerror(errno));
	sc->map = perf_evlist__next_mmap(sc->evlist, NULL, false);
	sc->page = perf_evsel__mmap_base(sc->evsel, 0, 0);
	if (!sc->map || !sc->page)
		return selfmon_errmsg__set(-EIO, "samplecost: libperf gave no mapping");
	return 0;
}

static volatile uint64_t sink;

/* The data pages, read only (the kernel refuses writes to them: SIGBUS). */
static const uint8_t *data_of(const struct cli_samplecost *sc)
{
	return (const uint8_t *)sc->page + sc->page->data_offset;
}

/*
 * Fill the ring once, by sampling this thread's cpu-clock, until every
 * record position holds a sample (drained as it goes, so nothing is lost),
 * then stop the event for good. Each one must be a 64-byte SAMPLE.
 */
static int fill(struct cli_samplecost *sc)
{
	uint64_t size = sc->page->data_size, t0 = (uint64_t)time(NULL);

	perf_evlist__enable(sc->evlist);
	while (__atomic_load_n(&sc->page->data_head, __ATOMIC_ACQUIRE) < size &&
	       (uint64_t)time(NULL) - t0 < 5) {
		for (int i = 0; i < 10000; i++)
			sink += (uint64_t)i;
		selfmon_sampler__drain(sc->s, NULL, NULL, 0);
	}
	perf_evlist__disable(sc->evlist);
	selfmon_sampler__drain(sc->s, NULL, NULL, 0);
	if (sc->page->data_head < size)
		return selfmon_errmsg__set(-ETIMEDOUT,
					   "samplecost: cpu-clock sampling did not fill a "
					   "%llu-byte ring in 5 s",
					   (unsigned long long)size);
	for (uint64_t off = 0; off < size; off += SC_RECORD) {
		struct perf_event_header h;

		memcpy(&h, data_of(sc) + off, sizeof(h));
		if (h.type != PERF_RECORD_SAMPLE || h.size != SC_RECORD)
			return selfmon_errmsg__set(-EIO,
						   "samplecost: the ring holds a record of type %u "
						   "and %u bytes where 64-byte samples were due "
						   "(throttled or lost?)",
						   h.type, h.size);
	}
	sc->batch = size / SC_RECORD;
	/* from here on, data_head is ours to move: the event never runs again */
	sc->page->data_tail = sc->page->data_head;
	return 0;
}

struct cli_samplecost *cli_samplecost__open(void)
{
	struct selfmon_sampler_opts o = {
		.sz = sizeof(o), .period = 20000, .sample_type = SC_TYPE, .ring_pages = SC_PAGES
	};
	struct cli_samplecost *sc = calloc(1, sizeof(*sc));
	struct selfmon_sampler *proto;
	struct perf_event_attr attr;
	int err;

	if (!sc) {
		errno = ENOMEM;
		return NULL;
	}
	/* selfmon's attr for the event: cpu-clock every 20 us, which every machine samples */
	proto = selfmon_sampler__open("cpu-clock:u", &o);
	if (!proto) {
		err = -errno;
		goto out;
	}
	attr = *selfmon_sampler__attr(proto, 0);
	selfmon_sampler__close(proto);
	/*
	 * Without PERF_SAMPLE_READ the read_format changes no record; without
	 * PERF_FORMAT_ID libperf allocates no id table, which 6.1 never frees.
	 */
	attr.read_format &= ~(uint64_t)PERF_FORMAT_ID;
	err = open_event(sc, &attr);
	if (!err) {
		sc->s = selfmon_sampler__attach(sc->page, sc->len, &attr);
		if (!sc->s)
			err = -errno;
	}
	if (!err)
		err = fill(sc);
out:
	if (err)
		cli_samplecost__close(sc);
	return err ? util_null_errno(err) : sc;
}

void cli_evlist__close_mapped(struct perf_evlist *evlist, struct perf_evsel *evsel)
{
	if (evsel)
		perf_evsel__munmap(evsel);
	if (evlist) {
		perf_evlist__munmap(evlist);
		perf_evlist__close(evlist);
		/*
		 * libperf 6.1's perf_evsel__delete() does not drop the maps the
		 * evlist gave its evsel: setting none drops them (and later
		 * libperfs, which do, find none).
		 */
		perf_evlist__set_maps(evlist, NULL, NULL);
		perf_evlist__delete(evlist); /* and its evsel */
	} else if (evsel) {
		perf_evsel__delete(evsel);
	}
}

void cli_samplecost__close(struct cli_samplecost *sc)
{
	if (!sc)
		return;
	selfmon_sampler__close(sc->s);
	cli_evlist__close_mapped(sc->evlist, sc->evsel);
	perf_cpu_map__put(sc->cpus);
	perf_thread_map__put(sc->threads);
	free(sc);
}

/* @n more records for the readers, as the kernel publishes them. */
static void publish(struct cli_samplecost *sc, uint64_t n)
{
	uint64_t head = __atomic_load_n(&sc->page->data_head, __ATOMIC_RELAXED);

	__atomic_store_n(&sc->page->data_head, head + n * SC_RECORD, __ATOMIC_RELEASE);
}

static int count(const struct selfmon_record *rec, void *arg)
{
	(void)rec;
	((struct cli_samplecost *)arg)->got++;
	return 0;
}

/* The three bodies: @iters records published in ring-sized batches, and read. */
static void body_loop(void *arg, uint64_t iters)
{
	struct cli_samplecost *sc = arg;

	for (uint64_t n; iters; iters -= n) {
		n = iters < sc->batch ? iters : sc->batch;
		publish(sc, n);
		/* no reader: data_tail follows, as a reader's would */
		__atomic_store_n(&sc->page->data_tail, sc->page->data_head, __ATOMIC_RELEASE);
	}
}

static void body_selfmon(void *arg, uint64_t iters)
{
	struct cli_samplecost *sc = arg;

	for (uint64_t n; iters; iters -= n) {
		n = iters < sc->batch ? iters : sc->batch;
		publish(sc, n);
		selfmon_sampler__drain(sc->s, count, sc, 0);
	}
}

static void body_libperf(void *arg, uint64_t iters)
{
	struct cli_samplecost *sc = arg;

	/*
	 * libperf reads from its own position (prev): read_done() brings it to
	 * data_head, where the other bodies left data_tail.
	 */
	perf_mmap__read_done(sc->map);
	for (uint64_t n; iters; iters -= n) {
		n = iters < sc->batch ? iters : sc->batch;
		publish(sc, n);
		if (perf_mmap__read_init(sc->map) < 0)
			continue;
		while (perf_mmap__read_event(sc->map)) {
			sc->got++;
			perf_mmap__consume(sc->map);
		}
		perf_mmap__read_done(sc->map);
	}
}

const struct cli_cost_row cli_samplecost__rows[CLI_SAMPLECOST__NR] = {
	[CLI_SAMPLECOST_EMPTY] = { "samplecost/loop", body_loop },
	[CLI_SAMPLECOST_SELFMON] = { "samplecost/selfmon", body_selfmon },
	[CLI_SAMPLECOST_LIBPERF] = { "samplecost/libperf", body_libperf },
};

uint64_t cli_samplecost__records(const struct cli_samplecost *sc)
{
	return sc->got;
}
