/* SPDX-License-Identifier: MIT */
/*
 * What the sampler's selftests on the host kernel share (sample_test.c,
 * sample_signal_test.c): the sampled loop busy(), whose user-space IPs all lie
 * in its first LOOP_BYTES, run through a volatile pointer; the iterations
 * that keep this thread on a CPU a given time; the options of a sampler at a
 * period; what a thread that samples itself tells the test.
 */
#ifndef SELFMON_TESTS_SAMPLE_LOOP_H
#define SELFMON_TESTS_SAMPLE_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <selfmon/sampler.h>

#define PERIOD_NS 100000	/* cpu-clock and task-clock count nanoseconds */
#define LOOP_BYTES 1024		/* the bound on busy()'s code, sanitizers included */

static volatile uint64_t sink;

/* The sampled loop: no calls, so that every user-space IP lies in it. */
__attribute__((noinline)) static void busy(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink += i;
}

/* Through a volatile pointer: every call runs the one copy whose address we know. */
static void (*volatile busy_fn)(uint64_t) = busy;

static inline uint64_t clock_ns(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/*
 * Iterations of busy() that keep this thread on a CPU about @ms
 * milliseconds: measured in its CPU time, which cpu-clock and task-clock
 * count, so that a loaded machine does not shorten the loop.
 */
static inline uint64_t loops_for_ms(unsigned int ms)
{
	uint64_t n = 1 << 20, t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), dt;

	busy_fn(n);
	dt = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	return n * ms * 1000000ull / (dt ? dt : 1) + 1;
}

static inline struct selfmon_sampler_opts period_opts(uint64_t period, uint64_t type)
{
	return (struct selfmon_sampler_opts){ .sz = sizeof(struct selfmon_sampler_opts),
		.period = period, .sample_type = type };
}

#define ALL_IDS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* What a thread that sampled itself found: @err 0, or -errno with selfmon_errmsg() in @msg. */
struct thread_result {
	size_t samples, foreign;
	int err;
	char msg[256];
};

#endif
