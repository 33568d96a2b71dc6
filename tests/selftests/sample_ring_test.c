// SPDX-License-Identifier: MIT
/*
 * selfmon_sampler__attach(): selfmon's ring reader and parser over a ring
 * another library mapped, here libperf's (lpring.h), on the host kernel with
 * a software event. Both readers read the same records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>
#include "kselftest_harness.h"
#include "lpring.h"

#define PAGES 16

static volatile uint64_t sink;

static void spin_ms(unsigned int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000l + (t.tv_nsec - t0.tv_nsec) < ms * 1000000l);
}

struct tally {
	long records, samples, foreign;
	pid_t pid;
};

static int tally(const struct selfmon_record *r, void *arg)
{
	struct tally *t = arg;

	t->records++;
	if (r->type == PERF_RECORD_SAMPLE) {
		t->samples++;
		t->foreign += (pid_t)r->sample.pid != t->pid;
	}
	return 0;
}

/* The attr selfmon's own sampler opens @event with. */
static int sampler_attr(const char *event, uint64_t period, struct perf_event_attr *attr)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .period = period, .ring_pages = PAGES };
	struct selfmon_sampler *s = selfmon_sampler__open(event, &o);

	if (!s)
		return -errno;
	*attr = *selfmon_sampler__attr(s, 0);
	selfmon_sampler__close(s);
	return 0;
}

/*
 * The ring is read by libperf's loop, data_tail is put back, and selfmon
 * reads it again: the same records, all parsed, and data_tail left where
 * libperf left it.
 */
TEST(an_attached_sampler_reads_the_records_libperfs_loop_reads_from_its_mapping)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	struct selfmon_sampler_stats st;
	struct selfmon_sampler *s;
	struct tally t = { .pid = getpid() };
	struct lpring r;
	uint64_t tail0, tail1;
	long n;

	ASSERT_EQ(0, sampler_attr("cpu-clock:u", 100000, &attr)) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, lpring_open(&r, &attr, PAGES));
	s = selfmon_sampler__attach(r.base, r.len, &r.attr);
	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(0, selfmon_sampler__nr(s));
	perf_evlist__enable(r.evlist);
	spin_ms(20);
	perf_evlist__disable(r.evlist);
	pg = r.base;
	tail0 = pg->data_tail;
	n = lpring_read_all(&r);
	tail1 = pg->data_tail;
	EXPECT_LT(0, n);
	EXPECT_EQ(__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail1);
	__atomic_store_n(&pg->data_tail, tail0, __ATOMIC_RELEASE);
	/* a drain of an attached sampler never polls: it returns at once */
	EXPECT_EQ(n, selfmon_sampler__drain(s, tally, &t, -1)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(tail1, pg->data_tail);
	ASSERT_EQ(0, selfmon_sampler__stats(s, &st));
	EXPECT_EQ((uint64_t)n, st.records);
	EXPECT_EQ(n, t.samples);
	EXPECT_EQ(0, t.foreign);
	EXPECT_EQ(0, st.malformed + st.unknown + st.corrupt);
	EXPECT_EQ(0, selfmon_sampler__drain(s, tally, &t, -1));
	selfmon_sampler__close(s);
	/* close left libperf's mapping alone: it still reads */
	EXPECT_EQ(0, lpring_read_all(&r));
	lpring_close(&r);
}

TEST(attach_refuses_a_missing_mapping_or_a_length_that_is_not_a_ring)
{
	static uint64_t area[4096];
	struct perf_event_attr attr = { .size = sizeof(attr) };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	EXPECT_EQ(NULL, selfmon_sampler__attach(NULL, 2 * page, &attr));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "no mapping"));
	EXPECT_EQ(NULL, selfmon_sampler__attach(area, 2 * page, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "no attr"));
	EXPECT_EQ(NULL, selfmon_sampler__attach(area, page, &attr));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "2^n data pages"));
	EXPECT_EQ(NULL, selfmon_sampler__attach(area, 4 * page, &attr));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(NULL, selfmon_sampler__attach(area, 2 * page + 8, &attr));
	EXPECT_EQ(EINVAL, errno);
}

struct stale {
	long samples, after_other, stale;
	bool other_before;
};

/* A SAMPLE of the default type carries nothing its sample_type does not name. */
static int check_clean(const struct selfmon_record *r, void *arg)
{
	struct stale *t = arg;
	const struct selfmon_sample *x = &r->sample;

	if (r->type != PERF_RECORD_SAMPLE) {
		t->other_before = true;
		return 0;
	}
	t->samples++;
	t->after_other += t->other_before;
	t->other_before = false;
	t->stale += r->has_sample_id || r->sample_id.tid || r->sample_id.time || x->addr ||
		    x->stream_id || x->cpu || x->res || x->read.nr || x->callchain_nr ||
		    x->callchain || x->raw || x->weight.full || x->data_src || x->phys_addr ||
		    x->cgroup || x->code_page_size || x->aux_size;
	return 0;
}

/*
 * The drain parses the common SAMPLE into a record it reuses, and any other
 * record (here MMAP2 with a sample_id trailer, whose fields share the
 * union with the sample's) in full: a SAMPLE after one must not show what
 * the MMAP2 left there.
 */
TEST(a_sample_after_a_side_band_record_shows_nothing_of_it)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .period = 100000,
					  .sideband = SELFMON_SIDEBAND_MMAP2, .sample_id_all = 1 };
	struct selfmon_sampler *s = selfmon_sampler__open("cpu-clock:u", &o);
	struct stale t = { 0 };
	int fd = open("/proc/self/exe", O_RDONLY);

	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, selfmon_sampler__enable(s));
	for (int i = 0; i < 8; i++) {
		void *m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

		ASSERT_NE(MAP_FAILED, m);
		munmap(m, 4096);
		spin_ms(2);
	}
	ASSERT_EQ(0, selfmon_sampler__disable(s));
	close(fd);
	ASSERT_LT(0, selfmon_sampler__drain(s, check_clean, &t, 0)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_LT(0, t.after_other) TH_LOG("%ld samples, none right after an MMAP2", t.samples);
	EXPECT_EQ(0, t.stale) TH_LOG("%ld of %ld samples show fields of an earlier record", t.stale,
				     t.samples);
	selfmon_sampler__close(s);
}

TEST_HARNESS_MAIN
