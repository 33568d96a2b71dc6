// SPDX-License-Identifier: MIT
/*
 * The sampler on the arm64 board, exactly: under QEMU's -icount shift=0 with
 * one vCPU an instruction is a cycle, and cycles:u counts user instructions
 * only, so a loop of known length gives a known number of overflows.
 *
 * What the sampled region holds, in user cycles: the return from the enable
 * ioctl (libc, the sampler's loop over its fds, the calls back), the call of
 * the loop, the loop, the path to the disable ioctl, and, with signals, each
 * handler and the sigreturn trampoline. The ioctls themselves are kernel
 * code, which ':u' does not count. So the loop runs K·P + P/2 cycles: the
 * rest must stay under P/2 (a few hundred cycles, and some hundreds per
 * signal), and then overflows K·P ... 1·P fall in the loop, and no
 * (K+1)-th comes: exactly K samples, every IP in the loop.
 *
 * Only cycles are sampled: QEMU 7.2's overflow of inst_retired (the
 * instructions event) is unreliable (1 to 23 samples where 30 to 90
 * were due); it is read here as a group member, never as a leader.
 *
 * On a board with several vCPUs (the emulated big.LITTLE) counts are close,
 * not exact: the tests SKIP there (EXACT_OR_SKIP).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <selfmon/read.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>
#include "kselftest_harness.h"
#include "board.h"
#include "../lpring.h"

/*
 * The sampled loop, hand-written so that its length and its addresses are
 * known: sboard_loop(n) runs cbz, n times (subs, b.ne), ret: 2n + 2
 * instructions, all in [sboard_loop, sboard_loop_end).
 */
__asm__(
	"	.text\n"
	"	.balign	64\n"
	"	.globl	sboard_loop\n"
	"	.type	sboard_loop, %function\n"
	"sboard_loop:\n"
	"	cbz	x0, 2f\n"
	"1:	subs	x0, x0, #1\n"
	"	b.ne	1b\n"
	"2:	ret\n"
	"	.size	sboard_loop, . - sboard_loop\n"
	"	.globl	sboard_loop_end\n"
	"sboard_loop_end:\n");
void sboard_loop(uint64_t n);
extern const char sboard_loop_end[];

static bool in_loop(uint64_t ip)
{
	return ip >= (uintptr_t)sboard_loop && ip < (uintptr_t)sboard_loop_end;
}

/* Run the loop for about @cycles user cycles (to 2). */
static void run_cycles(uint64_t cycles)
{
	sboard_loop(cycles / 2 - 1);
}

/* K periods and a half: K overflows, the last P/2 before the loop's end. */
static void run_periods(uint64_t k, uint64_t period)
{
	run_cycles(k * period + period / 2);
}

static struct selfmon_sampler_opts opts_for(uint64_t period)
{
	return (struct selfmon_sampler_opts){ .sz = sizeof(struct selfmon_sampler_opts),
		.period = period, .ring_pages = 64 };
}

struct seen {
	uint64_t samples, outside, foreign, bad_period;
	pid_t tid;
	uint64_t period;
	/* group reads: entries, values that differ, values that did not grow */
	uint64_t nr_bad, unequal, not_growing, last;
	uint64_t ids[2], bad_ids;
};

static int check_sample(const struct selfmon_record *r, void *arg)
{
	struct seen *s = arg;
	struct selfmon_read_entry a, b;

	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	s->samples++;
	s->outside += !in_loop(r->sample.ip);
	s->foreign += (pid_t)r->sample.tid != s->tid;
	s->bad_period += r->sample.period != s->period;
	if (!s->ids[0])
		return 0;
	if (r->sample.read.nr != 2 || selfmon_record_read__entry(&r->sample.read, 0, &a) ||
	    selfmon_record_read__entry(&r->sample.read, 1, &b)) {
		s->nr_bad++;
		return 0;
	}
	s->bad_ids += a.id != s->ids[0] || b.id != s->ids[1];
	s->unequal += a.value != b.value;
	s->not_growing += a.value <= s->last;
	s->last = a.value;
	return 0;
}

static void seen_init(struct seen *s, uint64_t period)
{
	memset(s, 0, sizeof(*s));
	s->tid = (pid_t)syscall(SYS_gettid);
	s->period = period;
}

/* Sample @events every @period over K + 1/2 periods; drain into @s. */
static void sample_periods(struct __test_metadata *_metadata, const char *events, uint64_t period,
			   uint64_t k, struct seen *s, struct selfmon_sampler_stats *st)
{
	struct selfmon_sampler_opts o = opts_for(period);
	struct selfmon_sampler *smp = selfmon_sampler__open(events, &o);

	ASSERT_NE(NULL, smp) TH_LOG("%s: %s", events, selfmon_errmsg());
	seen_init(s, period);
	if (selfmon_sampler__nr(smp) == 2) {
		s->ids[0] = selfmon_sampler__id(smp, 0);
		s->ids[1] = selfmon_sampler__id(smp, 1);
	}
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	run_periods(k, period);
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LE(0, selfmon_sampler__drain(smp, check_sample, s, 0)) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_sampler__stats(smp, st));
	selfmon_sampler__close(smp);
}

static void expect_exact(struct __test_metadata *_metadata, uint64_t period, uint64_t k)
{
	struct selfmon_sampler_stats st;
	struct seen s;

	EXACT_OR_SKIP();
	sample_periods(_metadata, "cycles:u", period, k, &s, &st);
	TH_LOG("cycles:u every %llu over %llu.5 periods: %llu samples, %llu outside the loop, "
	       "%llu lost, %llu throttled", (unsigned long long)period, (unsigned long long)k,
	       (unsigned long long)s.samples, (unsigned long long)s.outside,
	       (unsigned long long)st.lost, (unsigned long long)st.throttled);
	EXPECT_EQ(k, s.samples);
	EXPECT_EQ(0, s.outside);
	EXPECT_EQ(0, s.foreign);
	EXPECT_EQ(0, s.bad_period);
	EXPECT_EQ(0, st.lost + st.lost_samples + st.throttled + st.malformed + st.corrupt);
}

TEST(cycles_u_every_100000_over_30_periods_gives_exactly_30_samples_in_the_loop)
{
	expect_exact(_metadata, 100000, 30);
}

TEST(cycles_u_every_10000_over_300_periods_gives_exactly_300_samples_in_the_loop)
{
	expect_exact(_metadata, 10000, 300);
}

/*
 * A group's leader samples and reads its members (PERF_SAMPLE_READ): under
 * shift=0, cycles:u and instructions:u count the same user instructions
 * from the same enable, so both values are equal in every sample.
 */
TEST(a_cycles_and_instructions_group_reads_equal_values_in_every_sample)
{
	struct selfmon_sampler_stats st;
	struct seen s;

	EXACT_OR_SKIP();
	sample_periods(_metadata, "{cycles:u,instructions:u}", 100000, 30, &s, &st);
	TH_LOG("{cycles:u,instructions:u} every 100000: %llu samples, the last read %llu cycles",
	       (unsigned long long)s.samples, (unsigned long long)s.last);
	ASSERT_NE(0, s.ids[0]);
	EXPECT_EQ(30, s.samples);
	EXPECT_EQ(0, s.outside);
	EXPECT_EQ(0, s.nr_bad);
	EXPECT_EQ(0, s.bad_ids);
	EXPECT_EQ(0, s.unequal);
	EXPECT_EQ(0, s.not_growing);
	/* the 30th overflow: 30 periods counted, and not a 31st */
	EXPECT_LE(30 * 100000, s.last);
	EXPECT_GT(31 * 100000, s.last);
	EXPECT_EQ(0, st.lost + st.throttled + st.malformed);
}

/* asm-generic/siginfo.h; glibc 2.36 does not name it. */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define COOKIE 0xb0a4d5a3ul

static volatile sig_atomic_t trap_count, trap_bad, trap_outside;

static void on_sigtrap(int signo, siginfo_t *si, void *uc)
{
	const ucontext_t *u = uc;

	(void)signo;
	trap_count++;
	trap_bad += si->si_code != TRAP_PERF || selfmon_sigtrap__data(si) != COOKIE;
	trap_outside += !in_loop(u->uc_mcontext.pc);
}

/*
 * attr.sigtrap: one synchronous SIGTRAP per overflow, with the cookie, the
 * interrupted PC in the loop. The handler's own cycles count too; 30 of
 * them stay far under the half period of margin.
 */
TEST(sigtrap_fires_exactly_once_per_overflow_with_the_cookie_and_the_pc_in_the_loop)
{
	struct selfmon_sampler_opts o = opts_for(100000);
	struct sigaction sa = { .sa_sigaction = on_sigtrap, .sa_flags = SA_SIGINFO };
	struct selfmon_sampler_stats st;
	struct selfmon_sampler *smp;

	EXACT_OR_SKIP();
	o.sigtrap = 1;
	o.sig_data = COOKIE;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	smp = selfmon_sampler__open("cycles:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	trap_count = trap_bad = trap_outside = 0;
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	run_periods(30, 100000);
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LE(0, selfmon_sampler__drain(smp, NULL, NULL, 0));
	ASSERT_EQ(0, selfmon_sampler__stats(smp, &st));
	TH_LOG("sigtrap, cycles:u every 100000: %d SIGTRAPs, %llu samples", (int)trap_count,
	       (unsigned long long)st.samples);
	EXPECT_EQ(30, trap_count);
	EXPECT_EQ(30, st.samples);
	EXPECT_EQ(0, trap_bad);
	EXPECT_EQ(0, trap_outside);
	selfmon_sampler__close(smp);
	signal(SIGTRAP, SIG_DFL);
}

static struct selfmon_sampler *sig_smp;
static struct seen sig_seen;
static volatile sig_atomic_t sig_count, sig_bad, sig_busy;

static void on_overflow(int signo, siginfo_t *si, void *uc)
{
	(void)signo;
	(void)uc;
	sig_count++;
	sig_bad += si->si_code != POLL_IN || !selfmon_sampler__owns_fd(sig_smp, si->si_fd);
	sig_busy += selfmon_sampler__drain_signal_safe(sig_smp, check_sample, &sig_seen) < 0;
}

/*
 * The overflow signal (O_ASYNC, F_SETSIG, F_SETOWN_EX) with wakeup_events = 1:
 * one signal per sample, exactly, each handler draining its sample.
 */
TEST(the_overflow_signal_comes_exactly_once_per_sample_and_its_handler_drains_it)
{
	struct selfmon_sampler_opts o = opts_for(100000);
	struct sigaction sa = { .sa_sigaction = on_overflow, .sa_flags = SA_SIGINFO };
	struct selfmon_sampler_stats st;
	int signo = SIGRTMIN + 1;

	EXACT_OR_SKIP();
	o.wakeup_events = 1;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(signo, &sa, NULL));
	seen_init(&sig_seen, 100000);
	sig_smp = selfmon_sampler__open("cycles:u", &o);
	ASSERT_NE(NULL, sig_smp) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_sampler__signal(sig_smp, signo)) TH_LOG("%s", selfmon_errmsg());
	sig_count = sig_bad = sig_busy = 0;
	ASSERT_EQ(0, selfmon_sampler__enable(sig_smp));
	run_periods(30, 100000);
	ASSERT_EQ(0, selfmon_sampler__disable(sig_smp));
	ASSERT_EQ(0, selfmon_sampler__stats(sig_smp, &st));
	TH_LOG("F_SETSIG, cycles:u every 100000: %d signals, %llu samples drained in handlers",
	       (int)sig_count, (unsigned long long)sig_seen.samples);
	EXPECT_EQ(30, sig_count);
	EXPECT_EQ(30, sig_seen.samples);
	EXPECT_EQ(30, st.samples);
	EXPECT_EQ(0, sig_seen.outside);
	EXPECT_EQ(0, sig_bad);
	EXPECT_EQ(0, sig_busy);
	EXPECT_EQ(0, selfmon_sampler__drain(sig_smp, NULL, NULL, 0));
	selfmon_sampler__close(sig_smp);
	signal(signo, SIG_DFL);
}

/*
 * The cost of reading a sample (the sampling budget): selfmon_sampler__drain()
 * with a trivial callback, parsing included, against libperf's loop alone
 * (perf_mmap__read_init, then perf_mmap__read_event and perf_mmap__consume
 * per record, perf_mmap__read_done), in user instructions counted by
 * selfmon's own instructions:u around each loop.
 *
 * Both read the same ring contents: one cycles:u event (selfmon's attr)
 * opened and mapped by libperf (lpring.h), its mapping also handed to
 * selfmon_sampler__attach(). Each round fills the ring with about n
 * samples; libperf's loop reads them, data_tail is put back where it was
 * (the reader owns data_tail, and the event is disabled, so the kernel
 * writes nothing meanwhile), and selfmon's drain reads the very same bytes,
 * as many records as libperf's. Rounds of about n and 2n samples: the
 * difference of the costs over that of the samples cancels every fixed cost
 * (the calls, read_init, the poll check, the meter's reads) and leaves the
 * cost per sample. The ring is large enough that no record wraps its end.
 * The budget, 0.65 times libperf's loop, holds what the drain's walk of
 * the ring's spans reaches, with a few instructions to spare: 39 against 67
 * on the 6.1 boots (docs/costs.md, "Reading a sample").
 */
enum { COST_PERIOD = 10000, COST_N = 100, COST_PAGES = 64 };

struct cost_ctx {
	struct lpring r;
	struct selfmon_sampler *s;
	long got;
};

static int count_record(const struct selfmon_record *rec, void *arg)
{
	(void)rec;
	((struct cost_ctx *)arg)->got++;
	return 0;
}

static __attribute__((noinline)) void libperf_loop(struct cost_ctx *c)
{
	c->got = lpring_read_all(&c->r);
}

static __attribute__((noinline)) void selfmon_loop(struct cost_ctx *c)
{
	c->got = 0;
	selfmon_sampler__drain(c->s, count_record, c, 0);
}

/* User instructions of @fn(@c), counted by @meter's inline read; -1 if a read fails. */
static __attribute__((noinline)) int64_t metered_loop(const struct perf_event_mmap_page *meter,
						      void (*fn)(struct cost_ctx *), struct cost_ctx *c)
{
	uint64_t a, b;

	if (selfmon_page__read_value(meter, &a))
		return -1;
	fn(c);
	if (selfmon_page__read_value(meter, &b))
		return -1;
	return (int64_t)(b - a);
}

/*
 * Fill the ring with about @n samples (the event keeps its countdown across
 * disable and enable, so a round may take one more); both loops read them.
 * Return: the records read, the same by both, or -1.
 */
static long cost_round(struct cost_ctx *c, const struct perf_event_mmap_page *meter, long n,
		       int64_t *lp, int64_t *sm)
{
	struct perf_event_mmap_page *pg = c->r.base;
	uint64_t tail;
	long got;

	perf_evlist__enable(c->r.evlist);
	run_periods((uint64_t)n, COST_PERIOD);
	perf_evlist__disable(c->r.evlist);
	tail = pg->data_tail;
	*lp = metered_loop(meter, libperf_loop, c);
	got = c->got;
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	*sm = metered_loop(meter, selfmon_loop, c);
	return *lp >= 0 && *sm >= 0 && c->got == got ? got : -1;
}

/*
 * Per sample, libperf's and selfmon's, times @nr: from rounds of about n
 * and 2n samples, the difference of the costs and of the samples (@nr). A
 * kernel update of the meter's page during a read retries its seqlock (a
 * few instructions more): two measurements that agree had none; up to five.
 */
static int cost_per_sample(struct cost_ctx *c, const struct perf_event_mmap_page *meter,
			   int64_t *lp, int64_t *sm, long *nr)
{
	int64_t l1, s1, l2, s2, prev_l = -1, prev_s = -1;

	for (int i = 0; i < 5; i++) {
		long n1 = cost_round(c, meter, COST_N, &l1, &s1);
		long n2 = n1 < 0 ? -1 : cost_round(c, meter, 2 * COST_N, &l2, &s2);

		if (n1 < 0 || n2 <= n1)
			return -1;
		*nr = n2 - n1;
		*lp = l2 - l1;
		*sm = s2 - s1;
		if (*lp == prev_l && *sm == prev_s)
			break;
		prev_l = *lp;
		prev_s = *sm;
	}
	return 0;
}

TEST(draining_and_parsing_a_sample_costs_at_most_0_65_times_libperfs_read_event_loop)
{
	struct selfmon_sampler_opts o = opts_for(COST_PERIOD);
	const struct perf_event_mmap_page *meter;
	struct selfmon_sampler *proto;
	struct selfmon_set *set;
	struct cost_ctx c = { 0 };
	int64_t lp = 0, sm = 0;
	long nr = 1;
	int err;

	EXACT_OR_SKIP();
	OPEN_USER(set, "instructions:u", NULL);
	meter = selfmon_set__page(set, 0);
	ASSERT_NE(NULL, meter);
	o.ring_pages = COST_PAGES;
	proto = selfmon_sampler__open("cycles:u", &o);
	ASSERT_NE(NULL, proto) TH_LOG("%s", selfmon_errmsg());
	err = lpring_open(&c.r, selfmon_sampler__attr(proto, 0), COST_PAGES);
	selfmon_sampler__close(proto);
	ASSERT_EQ(0, err) TH_LOG("libperf: cannot open and map cycles:u: %s", strerror(-err));
	c.s = selfmon_sampler__attach(c.r.base, c.r.len, &c.r.attr);
	ASSERT_NE(NULL, c.s) TH_LOG("%s", selfmon_errmsg());
	err = cost_per_sample(&c, meter, &lp, &sm, &nr);
	ASSERT_EQ(0, err) TH_LOG("selfmon's drain and libperf's loop read different records, or a "
				 "meter read fell back");
	EXPECT_EQ(0, lp % nr) TH_LOG("libperf: %lld per %ld samples", (long long)lp, nr);
	EXPECT_EQ(0, sm % nr) TH_LOG("selfmon: %lld per %ld samples", (long long)sm, nr);
	lp /= nr;
	sm /= nr;
	TH_LOG("selfmon_sampler__drain, parse included: %lld user instructions per sample", (long long)sm);
	TH_LOG("libperf perf_mmap__read_event loop: %lld user instructions per sample", (long long)lp);
	TH_LOG("selfmon / libperf: %.2f (budget 0.65)", lp ? (double)sm / (double)lp : 0.0);
	EXPECT_LT(0, lp);
	EXPECT_LE(20 * sm, 13 * lp);
	selfmon_sampler__close(c.s);
	lpring_close(&c.r);
	selfmon_set__close(set);
}

TEST_HARNESS_MAIN
