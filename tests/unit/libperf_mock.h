/* SPDX-License-Identifier: MIT */
/*
 * libperf's evsel calls and the arch's host hook, mocked for the unit tests
 * that open sets with no kernel behind them: each program lists
 * perf_evsel__open, __mmap, __mmap_base, __read, __enable, __disable and
 * selfmon_arch__host in its test_X.wrap (ld --wrap). What the mocks were
 * asked and what they answer is in lp; the counter's page is sim_page.
 * Include after <cmocka.h>, in one file per test program.
 */
#ifndef SELFMON_TEST_LIBPERF_MOCK_H
#define SELFMON_TEST_LIBPERF_MOCK_H

#include <errno.h>
#include <string.h>
#include <perf/evsel.h>
#include <linux/perf_event.h>
#include "../../core/arch_int.h"

#define MOCK_OPENS 8

static struct {
	int opens;
	int open_err[MOCK_OPENS];			/* what the n-th open returns */
	struct perf_event_attr attr[MOCK_OPENS];	/* what it was asked */
	struct perf_evsel *evsel[MOCK_OPENS];
	struct perf_counts_values counts[MOCK_OPENS];	/* what read(2) of the n-th open says */
	int mmaps, mmap_err;
	int reads, enables, disables;
	const struct selfmon_arch *arch;		/* NULL: x86's gates, on every build */
} lp;

/* The counter's mmap page, as the kernel would map it. */
static struct perf_event_mmap_page sim_page __attribute__((aligned(4096)));

/* Nothing asked, nothing to answer; a zero page. */
static inline void libperf_mock__reset(void)
{
	memset(&lp, 0, sizeof(lp));
	memset(&sim_page, 0, sizeof(sim_page));
}

/* Every open's read(2) says @v. */
static inline void libperf_mock__counts(struct perf_counts_values v)
{
	for (int n = 0; n < MOCK_OPENS; n++)
		lp.counts[n] = v;
}

int __wrap_perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
			    struct perf_thread_map *threads);
int __wrap_perf_evsel__mmap(struct perf_evsel *evsel, int pages);
void *__wrap_perf_evsel__mmap_base(struct perf_evsel *evsel, int cpu_map_idx, int thread);
int __wrap_perf_evsel__read(struct perf_evsel *evsel, int cpu_map_idx, int thread,
			    struct perf_counts_values *count);
int __wrap_perf_evsel__enable(struct perf_evsel *evsel);
int __wrap_perf_evsel__disable(struct perf_evsel *evsel);
const struct selfmon_arch *__wrap_selfmon_arch__host(void);

int __wrap_perf_evsel__open(struct perf_evsel *evsel, struct perf_cpu_map *cpus,
			    struct perf_thread_map *threads)
{
	int n = lp.opens++;

	(void)cpus;
	assert_non_null(threads);
	assert_true(n < MOCK_OPENS);
	lp.attr[n] = *perf_evsel__attr(evsel);
	lp.evsel[n] = evsel;
	return lp.open_err[n];
}

int __wrap_perf_evsel__mmap(struct perf_evsel *evsel, int pages)
{
	(void)evsel;
	(void)pages;
	lp.mmaps++;
	return lp.mmap_err;
}

void *__wrap_perf_evsel__mmap_base(struct perf_evsel *evsel, int cpu_map_idx, int thread)
{
	(void)evsel;
	assert_int_equal(cpu_map_idx, 0);
	assert_int_equal(thread, 0);
	return &sim_page;
}

/* The counts of the evsel's last successful open. */
int __wrap_perf_evsel__read(struct perf_evsel *evsel, int cpu_map_idx, int thread,
			    struct perf_counts_values *count)
{
	(void)cpu_map_idx;
	(void)thread;
	lp.reads++;
	for (int n = lp.opens - 1; n >= 0; n--) {
		if (lp.evsel[n] == evsel && !lp.open_err[n]) {
			*count = lp.counts[n];
			return 0;
		}
	}
	fail_msg("perf_evsel__read of an evsel that was never opened");
	return -EBADF;
}

int __wrap_perf_evsel__enable(struct perf_evsel *evsel)
{
	(void)evsel;
	lp.enables++;
	return 0;
}

int __wrap_perf_evsel__disable(struct perf_evsel *evsel)
{
	(void)evsel;
	lp.disables++;
	return 0;
}

/*
 * The decisions are specified against the x86 gates on every build, so the
 * same tests hold on an arm64 board; a test that needs arm64's (an arm64
 * fixture board) sets lp.arch. arm64's own gates are test_gate.c's, and its
 * real path is proven on a real kernel by the arm64 selftests.
 */
const struct selfmon_arch *__wrap_selfmon_arch__host(void)
{
	return lp.arch ? lp.arch : &selfmon_arch__x86;
}

#endif
