// SPDX-License-Identifier: MIT
/*
 * The sampler of the calling thread on the host's kernel, with software
 * events (which sample with no PMU): cpu-clock and task-clock at a fixed
 * period give samples of this thread only, in time order, with the IPs of
 * the loop that ran; side-band records come (SWITCH around a sleep, MMAP2 of
 * an exec mapping); an undrained ring loses records and says so (the
 * overflow signal, SIGTRAP and a signal during a drain's wait:
 * sample_signal_test.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>
#include "kselftest_harness.h"
#include "sample_loop.h"

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

struct seen {
	size_t n, max;
	struct selfmon_sample *samples;
	size_t switch_out, switch_in, other_tid;
	const void *map_addr;	/* the MMAP2 record to look for */
	size_t map_len, mmap2_hits;
	char map_file[PATH_MAX];
	pid_t tid;
};

static int collect(const struct selfmon_record *r, void *arg)
{
	struct seen *s = arg;

	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		if (s->n < s->max)
			s->samples[s->n++] = r->sample;
		break;
	case PERF_RECORD_SWITCH:
		if (r->has_sample_id && (pid_t)r->sample_id.tid != s->tid)
			s->other_tid++;
		if (r->misc & PERF_RECORD_MISC_SWITCH_OUT)
			s->switch_out++;
		else
			s->switch_in++;
		break;
	case PERF_RECORD_MMAP2:
		if (r->mmap.addr == (uintptr_t)s->map_addr && r->mmap.len == s->map_len &&
		    !strcmp(r->mmap.filename, s->map_file))
			s->mmap2_hits++;
		break;
	}
	return 0;
}

static void seen_init(struct seen *s, size_t max)
{
	memset(s, 0, sizeof(*s));
	s->max = max;
	s->samples = calloc(max, sizeof(*s->samples));
	s->tid = (pid_t)syscall(SYS_gettid);
}

/*
 * The event's own clock after the disable: its time running as the kernel
 * reports it (read(2) of its fd; the sampler's read_format is GROUP, ID,
 * TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING: nr, enabled, running, values).
 */
static uint64_t event_running_ns(const struct selfmon_sampler *smp)
{
	uint64_t buf[3 + 2 * 8];

	for (int fd = 0; fd < 1024; fd++)
		if (selfmon_sampler__owns_fd(smp, fd))
			return read(fd, buf, sizeof(buf)) >= 24 ? buf[2] : 0;
	return 0;
}

/*
 * @n samples of a clock event of period @period that ran @running ns: the
 * k-th sample comes when the event's timer has run k periods, so never more
 * than @running holds (half a period of slack for the timer's clock and the
 * event's rounding apart); a timer held up by a loaded host gives fewer,
 * though not fewer than half.
 */
static void expect_samples_in_running_time(struct __test_metadata *_metadata, size_t n,
					   uint64_t period, uint64_t running)
{
	EXPECT_GE(running + period / 2, (uint64_t)n * period)
		TH_LOG("%zu samples of %llu ns in %llu ns of the event's running time", n,
		       (unsigned long long)period, (unsigned long long)running);
	EXPECT_LE(running / period / 2, (uint64_t)n)
		TH_LOG("%zu samples of %llu ns in %llu ns of the event's running time", n,
		       (unsigned long long)period, (unsigned long long)running);
}

/*
 * Sample @event over busy() for @ms; check every sample. The few instructions
 * between the enable ioctl's return and busy(), and between busy()'s return
 * and the disable, lie outside the loop: one sample may land there.
 */
static void check_loop_samples(struct __test_metadata *_metadata, const char *event, unsigned int ms)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	uint64_t n = loops_for_ms(ms), lo = (uintptr_t)busy, prev = 0;
	struct selfmon_sampler *smp = selfmon_sampler__open(event, &o);
	struct seen s;
	size_t outside = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t running;

	ASSERT_NE(NULL, smp) TH_LOG("%s: %s", event, selfmon_errmsg());
	seen_init(&s, 1 << 16);
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	busy_fn(n);
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	running = event_running_ns(smp);
	ASSERT_LE(0, selfmon_sampler__drain(smp, collect, &s, 0)) TH_LOG("%s", selfmon_errmsg());
	/* as many as the event's own running time holds: not the loop's planned ms, another clock */
	EXPECT_LT(0, s.n) TH_LOG("%s: no samples in %llu ns", event, (unsigned long long)running);
	expect_samples_in_running_time(_metadata, s.n, PERIOD_NS, running);
	for (size_t i = 0; i < s.n; i++) {
		const struct selfmon_sample *x = &s.samples[i];

		EXPECT_EQ(getpid(), (pid_t)x->pid);
		EXPECT_EQ(s.tid, (pid_t)x->tid);
		EXPECT_LE(prev, x->time);
		prev = x->time;
		EXPECT_EQ(PERIOD_NS, x->period);
		EXPECT_GT(ncpu, (long)x->cpu);
		EXPECT_EQ(selfmon_sampler__id(smp, 0), x->id);
		EXPECT_EQ(selfmon_sampler__id(smp, 0), x->stream_id);
		outside += x->ip < lo || x->ip >= lo + LOOP_BYTES;
	}
	EXPECT_GE(1, outside) TH_LOG("%zu of %zu IPs outside busy() at %#lx", outside, s.n,
				     (unsigned long)lo);
	free(s.samples);
	selfmon_sampler__close(smp);
}

TEST(cpu_clock_samples_are_this_threads_in_time_order_with_ips_in_the_loop)
{
	check_loop_samples(_metadata, "cpu-clock:u", 40);
}

TEST(task_clock_samples_are_this_threads_in_time_order_with_ips_in_the_loop)
{
	check_loop_samples(_metadata, "task-clock:u", 40);
}

TEST(a_sleep_is_surrounded_by_switch_records_of_this_thread)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	struct selfmon_sampler *smp;
	struct seen s;

	o.sideband = SELFMON_SIDEBAND_SWITCH;
	o.sample_id_all = 1;
	smp = selfmon_sampler__open("task-clock:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	seen_init(&s, 1 << 12);
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	for (int i = 0; i < 3; i++)
		usleep(5000);
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LE(0, selfmon_sampler__drain(smp, collect, &s, 0));
	EXPECT_LE(3, s.switch_out);
	EXPECT_LE(3, s.switch_in);
	EXPECT_EQ(0, s.other_tid);
	free(s.samples);
	selfmon_sampler__close(smp);
}

TEST(an_exec_mapping_of_a_file_gives_its_mmap2_record)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	struct selfmon_sampler *smp;
	struct seen s;
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/exe", O_RDONLY);

	ASSERT_LE(0, fd);
	o.sideband = SELFMON_SIDEBAND_MMAP2;
	smp = selfmon_sampler__open("cpu-clock:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	seen_init(&s, 16);
	ASSERT_NE(NULL, realpath("/proc/self/exe", s.map_file));
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	s.map_addr = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, s.map_addr);
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	s.map_len = len;
	ASSERT_LE(0, selfmon_sampler__drain(smp, collect, &s, 0));
	EXPECT_EQ(1, s.mmap2_hits) TH_LOG("no MMAP2 of %s at %p", s.map_file, s.map_addr);
	munmap((void *)s.map_addr, len);
	close(fd);
	free(s.samples);
	selfmon_sampler__close(smp);
}

/* Touch @pages fresh anonymous pages: each is one page fault of this thread in user space. */
static void fault_pages(size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	/* Small pages only: a transparent huge page would take 512 of them in one fault. */
	madvise((void *)p, pages * page, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < pages; i++)
		p[i * page] = 1;
	munmap((void *)p, pages * page);
}

/*
 * A one-page ring left undrained fills up, and the kernel drops what does
 * not fit; it writes PERF_RECORD_LOST, with the count, as soon as there is
 * room again (after a drain), and the sampler adds it up.
 *
 * The records come from page faults, one sample each (period 1), not from
 * a clock: cpu-clock's hrtimer at its shortest period (10 us) can cost a
 * virtual machine as much time per sample as the period itself, and the
 * thread then makes almost no progress between interrupts. A fault is
 * taken by the thread itself, so the count is the program's, at any load.
 */
TEST(an_undrained_one_page_ring_loses_records_and_counts_them)
{
	struct selfmon_sampler_opts o = period_opts(1, ALL_IDS);
	struct selfmon_sampler_stats st;
	struct selfmon_sampler *smp;

	o.ring_pages = 1;
	smp = selfmon_sampler__open("page-faults:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	fault_pages(2000);	/* 2000 samples of ~72 bytes into 4 KiB */
	ASSERT_LT(0, selfmon_sampler__drain(smp, NULL, NULL, 0));
	fault_pages(16);	/* room again: the LOST record is written first */
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LT(0, selfmon_sampler__drain(smp, NULL, NULL, 0));
	ASSERT_EQ(0, selfmon_sampler__stats(smp, &st));
	EXPECT_LE(1, st.lost_records);
	/* At most one page's worth of the 2000 fit: the rest is counted lost. */
	EXPECT_LT(1000, st.lost) TH_LOG("%llu samples, %llu lost", (unsigned long long)st.samples,
					(unsigned long long)st.lost);
	EXPECT_GT(st.samples, 0);
	EXPECT_EQ(0, st.malformed);
	EXPECT_EQ(0, st.corrupt);
	selfmon_sampler__close(smp);
}

/* Each thread: its own sampler, its own busy loop; every sample must be its own. */
static void *sample_own_thread(void *arg)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	struct thread_result *res = arg;
	struct selfmon_sampler *smp = selfmon_sampler__open("cpu-clock:u", &o);
	struct seen s;

	if (!smp) {
		res->err = -errno;
		snprintf(res->msg, sizeof(res->msg), "%s", selfmon_errmsg());
		return NULL;
	}
	seen_init(&s, 1 << 14);
	selfmon_sampler__enable(smp);
	busy_fn(loops_for_ms(30));
	selfmon_sampler__disable(smp);
	res->err = selfmon_sampler__drain(smp, collect, &s, 0);
	res->samples = s.n;
	for (size_t i = 0; i < s.n; i++)
		res->foreign += (pid_t)s.samples[i].tid != s.tid;
	free(s.samples);
	selfmon_sampler__close(smp);
	return NULL;
}

TEST(two_threads_with_their_own_samplers_get_only_their_own_samples)
{
	struct thread_result res[2] = { 0 };
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, sample_own_thread, &res[i]));
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		ASSERT_LE(0, res[i].err) TH_LOG("thread %d: %s", i, res[i].msg);
		EXPECT_LT(0, res[i].samples);
		EXPECT_EQ(0, res[i].foreign);
	}
}

/* A group: the leader samples, and each sample reads both members by id. */
TEST(a_group_leader_samples_and_each_sample_reads_every_member)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, PERF_SAMPLE_IP | PERF_SAMPLE_ID);
	struct selfmon_read_entry e;
	struct selfmon_sampler *smp;
	struct seen s;

	smp = selfmon_sampler__open("{cpu-clock,task-clock}:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(2, selfmon_sampler__nr(smp));
	ASSERT_NE(0, selfmon_sampler__layout(smp)->sample_type & PERF_SAMPLE_READ);
	seen_init(&s, 1 << 12);
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	busy_fn(loops_for_ms(20));
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LE(0, selfmon_sampler__drain(smp, collect, &s, 0));
	ASSERT_LT(0, s.n);
	for (size_t i = 0; i < s.n; i++) {
		ASSERT_EQ(2, s.samples[i].read.nr);
		ASSERT_EQ(selfmon_sampler__id(smp, 0), s.samples[i].id);
		for (int m = 0; m < 2; m++) {
			ASSERT_EQ(0, selfmon_record_read__entry(&s.samples[i].read, (uint64_t)m, &e));
			EXPECT_EQ(selfmon_sampler__id(smp, m), e.id);
			EXPECT_LT(0, e.value);
		}
	}
	free(s.samples);
	selfmon_sampler__close(smp);
}

TEST(a_drain_of_an_empty_ring_waits_for_its_timeout)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, 0);
	struct selfmon_sampler *smp = selfmon_sampler__open("cpu-clock:u", &o);
	uint64_t t0;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	t0 = now_ns();
	EXPECT_EQ(0, selfmon_sampler__drain(smp, NULL, NULL, 50));
	EXPECT_LE(45000000ull, now_ns() - t0);
	selfmon_sampler__close(smp);
}

TEST(a_drain_in_a_forked_child_is_refused)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, 0);
	struct selfmon_sampler *smp = selfmon_sampler__open("cpu-clock:u", &o);
	int status;
	pid_t pid;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(selfmon_sampler__drain(smp, NULL, NULL, 0) == -SELFMON_ERRNO__FORKED ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	selfmon_sampler__close(smp);
}

TEST(options_need_one_of_period_and_frequency_and_a_power_of_two_ring)
{
	struct selfmon_sampler_opts o = period_opts(0, 0);

	EXPECT_EQ(NULL, selfmon_sampler__open("cpu-clock", &o));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "exactly one"));
	o.period = 1000;
	o.freq = 1000;
	EXPECT_EQ(NULL, selfmon_sampler__open("cpu-clock", &o));
	o.freq = 0;
	o.ring_pages = 3;
	EXPECT_EQ(NULL, selfmon_sampler__open("cpu-clock", &o));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "power of two"));
	o.ring_pages = 0;
	EXPECT_EQ(NULL, selfmon_sampler__open("cpu-clock:q", &o));
	EXPECT_EQ(SELFMON_ERRNO__SYNTAX, errno);
	EXPECT_EQ(NULL, selfmon_sampler__open("cpu-clock", NULL));
	EXPECT_EQ(EINVAL, errno);
}

/*
 * sample_freq: for the software clocks the kernel turns a frequency into
 * the period of one second over it (cpu_clock_event_init()), so each
 * sample of a 2000 Hz cpu-clock says 500000 ns. How many samples are due
 * is told by the event's own clock, as the kernel reports it: its time
 * running (read(2), PERF_FORMAT_TOTAL_TIME_RUNNING). The thread's CPU clock
 * is another clock: it leaves out time the hypervisor stole, which the
 * event's timer counts, and it once showed 208 samples in 103,410,665 ns.
 */
TEST(a_frequency_of_the_cpu_clock_samples_at_that_rate)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .freq = 2000, .sample_type = ALL_IDS };
	struct selfmon_sampler *smp = selfmon_sampler__open("cpu-clock:u", &o);
	struct seen s;
	uint64_t running;

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(1, (int)selfmon_sampler__attr(smp, 0)->freq);
	seen_init(&s, 1 << 12);
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	busy_fn(loops_for_ms(100));
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	running = event_running_ns(smp);
	ASSERT_LE(0, selfmon_sampler__drain(smp, collect, &s, 0));
	ASSERT_LT(0, running);
	for (size_t i = 0; i < s.n; i++)
		EXPECT_EQ(1000000000ull / 2000, s.samples[i].period);
	expect_samples_in_running_time(_metadata, s.n, 1000000000ull / 2000, running);
	free(s.samples);
	selfmon_sampler__close(smp);
}

TEST_HARNESS_MAIN
