// SPDX-License-Identifier: MIT
/*
 * The sampler's signals on the host's kernel, with a software event: the
 * overflow signal goes to the thread that samples, whose handler drains the
 * ring; attr.sigtrap's SIGTRAP interrupts the sampled loop at each overflow
 * with the cookie; a signal caught during a drain's wait ends the wait, not
 * the drain (the samples and records themselves: sample_test.c).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>
#include "kselftest_harness.h"
#include "sample_loop.h"

/* The overflow signal's handler: what it saw, all async-signal-safe. */
static struct selfmon_sampler *sig_smp;
static volatile sig_atomic_t sig_count, sig_wrong_tid, sig_bad_info, sig_samples, sig_foreign;
static volatile pid_t sig_owner;

static int count_own_samples(const struct selfmon_record *r, void *arg)
{
	(void)arg;
	if (r->type == PERF_RECORD_SAMPLE) {
		sig_samples++;
		sig_foreign += (pid_t)r->sample.tid != sig_owner;
	}
	return 0;
}

static void on_overflow(int signo, siginfo_t *si, void *uc)
{
	int saved = errno;

	(void)signo;
	(void)uc;
	sig_count++;
	sig_wrong_tid += (pid_t)syscall(SYS_gettid) != sig_owner;
	sig_bad_info += si->si_code != POLL_IN || !selfmon_sampler__owns_fd(sig_smp, si->si_fd);
	selfmon_sampler__drain_signal_safe(sig_smp, count_own_samples, NULL);
	errno = saved;
}

static void *signalled_thread(void *arg)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	struct thread_result *res = arg;

	o.wakeup_events = 1;
	sig_owner = (pid_t)syscall(SYS_gettid);
	sig_smp = selfmon_sampler__open("cpu-clock:u", &o);
	res->err = sig_smp ? selfmon_sampler__signal(sig_smp, SIGRTMIN + 1) : -errno;
	if (res->err) {
		snprintf(res->msg, sizeof(res->msg), "%s", selfmon_errmsg());
		return NULL;
	}
	selfmon_sampler__enable(sig_smp);
	busy_fn(loops_for_ms(30));
	selfmon_sampler__disable(sig_smp);
	return NULL;
}

/*
 * F_SETOWN_EX with F_OWNER_TID: the signal goes to the sampling thread
 * alone, even while another thread of the process is running and could
 * take a process-wide signal; the handler drains the ring itself.
 */
TEST(the_overflow_signal_reaches_the_owning_thread_whose_handler_drains)
{
	struct sigaction sa = { .sa_sigaction = on_overflow, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct thread_result res = { 0 };
	struct selfmon_sampler_stats st;
	pthread_t t;

	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGRTMIN + 1, &sa, NULL));
	ASSERT_EQ(0, pthread_create(&t, NULL, signalled_thread, &res));
	busy_fn(loops_for_ms(40));	/* this thread runs too: a candidate for a stray signal */
	pthread_join(t, NULL);
	ASSERT_EQ(0, res.err) TH_LOG("%s", res.msg);
	/* the opening thread alone may redirect the signal */
	EXPECT_EQ(-SELFMON_ERRNO__THREAD, selfmon_sampler__signal(sig_smp, SIGRTMIN + 1));
	ASSERT_EQ(0, selfmon_sampler__stats(sig_smp, &st));
	EXPECT_LT(0, sig_count);
	EXPECT_EQ(0, sig_wrong_tid);
	EXPECT_EQ(0, sig_bad_info);
	EXPECT_LT(0, sig_samples) TH_LOG("%d signals, %d samples drained in the handler",
					 (int)sig_count, (int)sig_samples);
	EXPECT_EQ(0, sig_foreign);
	EXPECT_EQ((uint64_t)sig_samples, st.samples);
	selfmon_sampler__close(sig_smp);
	signal(SIGRTMIN + 1, SIG_DFL);
}

/* asm-generic/siginfo.h; glibc 2.36 does not name it. */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define COOKIE 0x5e1f5a3dul

static volatile sig_atomic_t trap_count, trap_bad_info, trap_wrong_tid, trap_outside;
static volatile pid_t trap_owner;

/* The interrupted PC, from the handler's ucontext. */
static uintptr_t interrupted_pc(const void *uc)
{
	const ucontext_t *u = uc;

#if defined(__x86_64__)
	return (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)u->uc_mcontext.pc;
#else
	(void)u;
	return (uintptr_t)busy;
#endif
}

static void on_sigtrap(int signo, siginfo_t *si, void *uc)
{
	uintptr_t pc = interrupted_pc(uc), lo = (uintptr_t)busy;

	(void)signo;
	trap_count++;
	trap_bad_info += si->si_code != TRAP_PERF || selfmon_sigtrap__data(si) != COOKIE;
	trap_wrong_tid += (pid_t)syscall(SYS_gettid) != trap_owner;
	trap_outside += pc < lo || pc >= lo + LOOP_BYTES;
}

/*
 * attr.sigtrap (Linux 5.13): a synchronous SIGTRAP at each overflow, to the
 * sampled thread, carrying the cookie; the handler's PC is the interrupted
 * one, in the loop (but for the few instructions around enable/disable).
 */
TEST(sigtrap_interrupts_the_loop_at_each_overflow_with_the_cookie)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, ALL_IDS);
	struct sigaction sa = { .sa_sigaction = on_sigtrap, .sa_flags = SA_SIGINFO | SA_RESTART };
	struct selfmon_sampler_stats st;
	struct selfmon_sampler *smp;

	o.sigtrap = 1;
	o.sig_data = COOKIE;
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	trap_owner = (pid_t)syscall(SYS_gettid);
	smp = selfmon_sampler__open("cpu-clock:u", &o);
	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_sampler__enable(smp));
	busy_fn(loops_for_ms(30));
	ASSERT_EQ(0, selfmon_sampler__disable(smp));
	ASSERT_LE(0, selfmon_sampler__drain(smp, NULL, NULL, 0));
	ASSERT_EQ(0, selfmon_sampler__stats(smp, &st));
	EXPECT_LT(0, trap_count);
	EXPECT_EQ(0, trap_bad_info);
	EXPECT_EQ(0, trap_wrong_tid);
	EXPECT_GE(1, trap_outside) TH_LOG("%d of %d SIGTRAPs outside busy()", (int)trap_outside,
					  (int)trap_count);
	/*
	 * One SIGTRAP per overflow, one sample per overflow; but the kernel
	 * keeps one pending SIGTRAP per event, so on a loaded host two
	 * overflows before the thread returns to user space make one signal,
	 * and the last may still be pending when the event is disabled.
	 */
	EXPECT_GE(st.samples, (uint64_t)trap_count);
	EXPECT_LE(st.samples * 9 / 10, (uint64_t)trap_count) TH_LOG("%llu samples, %d SIGTRAPs",
								     (unsigned long long)st.samples,
								     (int)trap_count);
	selfmon_sampler__close(smp);
	signal(SIGTRAP, SIG_DFL);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int signo)
{
	(void)signo;
	alarms++;
}

/*
 * A signal caught during the wait is not an error: the drain reads what is
 * there. The wait asked for is ten minutes, far past the harness's timeout:
 * a drain that went back to waiting after the signal fails by that timeout,
 * with no clock read against another (a loaded host stretches wall time).
 */
TEST(a_signal_during_the_wait_ends_it_early_without_an_error)
{
	struct selfmon_sampler_opts o = period_opts(PERIOD_NS, 0);
	struct selfmon_sampler *smp = selfmon_sampler__open("cpu-clock:u", &o);
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	struct itimerval it = { .it_value = { .tv_usec = 20000 } };

	ASSERT_NE(NULL, smp) TH_LOG("%s", selfmon_errmsg());
	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	EXPECT_EQ(0, selfmon_sampler__drain(smp, NULL, NULL, 600000)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(1, alarms);
	signal(SIGALRM, SIG_DFL);
	selfmon_sampler__close(smp);
}

TEST_HARNESS_MAIN
