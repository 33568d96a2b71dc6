// SPDX-License-Identifier: MIT
/*
 * Budgets (<selfmon/budget.h>): the per-thread measurers behind
 * SELFMON_MEASURE() and the verdicts of the test framework macros.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/budget.h>
#include "../util/err.h"
#include "../util/sort.h"

/* Events one thread measures before the oldest measurer is closed. */
#define BUDGET_CACHE 8

struct selfmon_budget {
	char event[SELFMON_EVENT_NAME_MAX];
	pid_t pid;
	struct selfmon_set *set;
	struct selfmon_pages pages;
	int reps;
	int n[2];
	double *v[2];
	unsigned int slow;
	int err;
	/* The counter's times at the last read: a region is kept only if it ran all through. */
	uint64_t enabled, running;
	int idle; /* regions in which time_running did not advance */
	int partial; /* regions in which it advanced, but less than time_enabled */
};

static __thread struct selfmon_budget *cache[BUDGET_CACHE];
/* 1: the last selfmon_budget__get() failed on the caller's input, not the machine. */
static __thread int last_bad_input;

/*
 * A thread's measurers close when it exits: a key's destructor runs then, in
 * the exiting thread (pthread_key_create(3)), so a program that starts
 * thousands of short threads does not run out of fds.
 */
static pthread_key_t budget_key;
static int budget_key_ok;
static pthread_once_t budget_key_once = PTHREAD_ONCE_INIT;

static void budget_free(struct selfmon_budget *b, int close_set)
{
	if (!b)
		return;
	/* A forked child's copy: its pages belong to the parent's events. */
	if (close_set)
		selfmon_set__close(b->set);
	free(b->v[0]);
	free(b->v[1]);
	free(b);
}

void selfmon_budget__close_all(void)
{
	for (int i = 0; i < BUDGET_CACHE; i++) {
		budget_free(cache[i], cache[i] && cache[i]->pid == getpid());
		cache[i] = NULL;
	}
}

static void budget_thread_exit(void *arg)
{
	(void)arg;
	selfmon_budget__close_all();
}

static void budget_key_create(void)
{
	budget_key_ok = !pthread_key_create(&budget_key, budget_thread_exit);
}

/* Arm the calling thread's destructor: a non-NULL value is what makes it run. */
static void budget_watch_thread(void)
{
	pthread_once(&budget_key_once, budget_key_create);
	if (budget_key_ok)
		pthread_setspecific(budget_key, cache);
}

static int budget_reps(int *reps)
{
	const char *s = secure_getenv("SELFMON_BUDGET_REPS");
	char *end;
	long v;

	*reps = SELFMON_BUDGET_REPS_DEFAULT;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > SELFMON_BUDGET_REPS_MAX)
		return selfmon_errmsg__set(
			-EINVAL,
			"SELFMON_BUDGET_REPS='%.32s': not a number of repetitions "
			"from 1 to %d; unset it for %d",
			s, SELFMON_BUDGET_REPS_MAX, SELFMON_BUDGET_REPS_DEFAULT);
	*reps = (int)v;
	return 0;
}

static struct selfmon_budget *budget_open(const char *event)
{
	struct selfmon_budget *b = calloc(1, sizeof(*b));
	int err = -ENOMEM;

	if (!b)
		goto out;
	err = budget_reps(&b->reps);
	if (err) {
		last_bad_input = 1;
		goto out;
	}
	err = -ENOMEM;
	b->v[0] = calloc((size_t)b->reps, sizeof(double));
	b->v[1] = calloc((size_t)b->reps, sizeof(double));
	if (!b->v[0] || !b->v[1])
		goto out;
	snprintf(b->event, sizeof(b->event), "%s", event);
	b->pid = getpid();
	b->set = selfmon_set__open(event, NULL);
	if (!b->set) {
		err = -errno;
		/* A typo is the test's: it fails everywhere, never skips. */
		last_bad_input = err == -SELFMON_ERRNO__SYNTAX;
		goto out;
	}
	err = selfmon_set__enable(b->set);
	if (!err)
		err = selfmon_set__pages(b->set, &b->pages, 1);
out:
	if (err)
		budget_free(b, 1);
	return err ? util_null_errno(err) : b;
}

struct selfmon_budget *selfmon_budget__get(const char *event)
{
	pid_t pid = getpid();
	int i, slot = BUDGET_CACHE - 1;

	last_bad_input = 0;
	if (!event) {
		last_bad_input = 1;
		selfmon_errmsg__set(-EINVAL, "selfmon_budget__get: no event given");
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < BUDGET_CACHE; i++) {
		struct selfmon_budget *b = cache[i];

		if (b && b->pid != pid) {
			budget_free(b, 0);
			cache[i] = b = NULL;
		}
		if (b && !strcmp(b->event, event))
			return b;
		if (!b && slot == BUDGET_CACHE - 1)
			slot = i;
	}
	/* Full: the last slot's measurer makes room. */
	if (cache[slot]) {
		budget_free(cache[slot], 1);
		cache[slot] = NULL;
	}
	cache[slot] = budget_open(event);
	if (cache[slot])
		budget_watch_thread();
	return cache[slot];
}

/*
 * The counter's times now, and whether it ran all the time since the last
 * read: time_running advanced, and as far as time_enabled
 * (perf_event_open(2), "read_format"). Disabled (PR_TASK_PERF_EVENTS_DISABLE
 * in prctl(2)), neither advances; multiplexed out, time_enabled alone does.
 * By read(2), outside the regions: the mmap page's times are those of the
 * kernel's last update (perf_event_open(2), "MMAP layout"), which a counter
 * that runs on leaves behind.
 * Return: 1 ran, 0 did not run all through (@b counts which way), or -errno.
 */
static int budget_ran(struct selfmon_budget *b)
{
	struct selfmon_count c;
	uint64_t ena, run;
	int err = selfmon_set__read_syscall(b->set, 0, &c);

	if (err)
		return err;
	ena = c.enabled - b->enabled;
	run = c.running - b->running;
	b->enabled = c.enabled;
	b->running = c.running;
	if (run && run >= ena)
		return 1;
	if (run)
		b->partial++;
	else
		b->idle++;
	return 0;
}

int selfmon_budget__start(struct selfmon_budget *b, const char *event, struct selfmon_measure *m)
{
	int err;

	memset(m, 0, sizeof(*m));
	snprintf(m->event, sizeof(m->event), "%s", event ? event : "(null)");
	if (!b) {
		m->err = errno ? -errno : -EINVAL;
		m->bad_input = last_bad_input || !event;
		snprintf(m->why, sizeof(m->why), "%s",
			 *selfmon_errmsg() ? selfmon_errmsg() : selfmon_strerror(m->err));
		return 0;
	}
	b->n[0] = b->n[1] = 0;
	b->slow = 0;
	/* The first region's times start here. */
	err = budget_ran(b);
	b->err = err < 0 ? err : 0;
	b->idle = b->partial = 0;
	m->reps = b->reps;
	return b->reps;
}

const struct selfmon_pages *selfmon_budget__pages(const struct selfmon_budget *b)
{
	return &b->pages;
}

void selfmon_budget__add(struct selfmon_budget *b, int stmt, const struct selfmon_region *r)
{
	int w = !!stmt, ran;

	b->slow |= r->slow;
	if (r->err && !b->err)
		b->err = r->err;
	/* A region the counter sat out counts nothing: never a measurement of 0. */
	ran = budget_ran(b);
	if (ran < 0 && !b->err)
		b->err = ran;
	if (ran > 0 && b->n[w] < b->reps)
		b->v[w][b->n[w]++] = (double)selfmon_region__delta(r, 0);
}

/* The minimum, or the median, of @n values (sorted in place). */
static double summarize(double *v, int n, int min)
{
	util_sort_doubles(v, (size_t)n);
	return min ? v[0] : util_quantile(v, (size_t)n, 0.5);
}

/* No region of one kind ran all through: @m says why, and that it never passes. */
static int budget_not_run(const struct selfmon_budget *b, struct selfmon_measure *m)
{
	m->err = -ENODATA;
	m->not_run = 1;
	m->dropped = b->idle + b->partial;
	if (!b->partial)
		snprintf(m->why, sizeof(m->why),
			 "the counter did not run during the measurement (time_running did not "
			 "advance over %d of its %d regions, the empty ones and the statement's)",
			 b->idle, 2 * b->reps);
	else
		snprintf(m->why, sizeof(m->why),
			 "the counter ran all through too few of its %d regions (in %d time_running "
			 "fell behind time_enabled: multiplexed out; in %d it did not advance)",
			 2 * b->reps, b->partial, b->idle);
	return m->err;
}

int selfmon_budget__finish(struct selfmon_budget *b, struct selfmon_measure *m)
{
	enum selfmon_reason why = SELFMON_REASON_NONE;
	int path;

	if (b->err) {
		m->err = b->err;
		snprintf(m->why, sizeof(m->why), "a read of %s failed: %s", m->event,
			 selfmon_strerror(m->err));
		return m->err;
	}
	if (!b->n[0] || !b->n[1])
		return budget_not_run(b, m);
	m->reps = b->n[1];
	m->dropped = b->idle + b->partial;
	/* Counts that only noise adds to: as the set resolved the event, not as it is named. */
	m->min_of_reps = selfmon_set__counts_instructions(b->set, 0) == 1;
	m->raw = summarize(b->v[1], b->n[1], m->min_of_reps);
	m->overhead = summarize(b->v[0], b->n[0], m->min_of_reps);
	m->clamped = selfmon_calib__empty(m->raw, m->overhead, 1, &m->value);
	path = selfmon_set__path(b->set, 0, &why);
	if (path == SELFMON_PATH_USER && b->slow)
		why = SELFMON_REASON_INDEX;
	m->path = b->slow ? SELFMON_PATH_SYSCALL : SELFMON_PATH_USER;
	m->reason = m->path == SELFMON_PATH_SYSCALL ? why : SELFMON_REASON_NONE;
	return 0;
}

static int expect_user_read(void)
{
	const char *s = secure_getenv("SELFMON_EXPECT_USER_READ");

	return s && !strcmp(s, "1");
}

/* Counts are integers; a median of an even number may end in .5. */
static const char *num(char *buf, size_t size, double v)
{
	int whole = fabs(v) < 1e15 && v == (double)(long long)v;

	snprintf(buf, size, whole ? "%.0f" : "%.1f", v);
	return buf;
}

/* An error, or a path SELFMON_EXPECT_USER_READ=1 forbids: the verdict, else -1. */
static int verdict_unmeasured(const struct selfmon_measure *m, char *msg, size_t size)
{
	int strict = expect_user_read();

	if (m->err && m->not_run) {
		snprintf(msg, size,
			 "%s: nothing was measured, which is no pass: %s: the task's counters are "
			 "disabled (prctl(PR_TASK_PERF_EVENTS_DISABLE); PR_TASK_PERF_EVENTS_ENABLE "
			 "turns them on) or another user holds the PMU (perf, the NMI watchdog)",
			 m->event, m->why);
		return SELFMON_VERDICT_FAIL;
	}
	if (m->err) {
		snprintf(msg, size, "%s: cannot be measured here: %s%s", m->event, m->why,
			 m->bad_input ? "" :
			 strict ? " (SELFMON_EXPECT_USER_READ=1: this machine must count it)" :
				  "");
		return m->bad_input || strict ? SELFMON_VERDICT_FAIL : SELFMON_VERDICT_SKIP;
	}
	if (strict && m->path == SELFMON_PATH_SYSCALL && m->reason != SELFMON_REASON_SOFTWARE) {
		snprintf(
			msg, size,
			"%s: read by read(2), not from user space: %s (SELFMON_EXPECT_USER_READ=1)",
			m->event, selfmon_reason__str(m->reason));
		return SELFMON_VERDICT_FAIL;
	}
	return -1;
}

static void describe(const struct selfmon_measure *m, const char *budget, char *msg, size_t size)
{
	char v[32], raw[32], ov[32], left[96] = "";

	if (m->dropped)
		snprintf(left, sizeof(left),
			 "; %d regions left out: the counter did not run all through them",
			 m->dropped);
	snprintf(
		msg, size,
		"%s: measured %s, budget %s; overhead subtracted %s (an empty measurement; %s with it)%s; "
		"read path %s%s%s; %s of %d repetitions%s",
		m->event, num(v, sizeof(v), m->value), budget, num(ov, sizeof(ov), m->overhead),
		num(raw, sizeof(raw), m->raw), m->clamped ? ", clamped to 0" : "",
		m->path == SELFMON_PATH_USER ? "user space (" SELFMON_ARCH_NAME ")" : "read(2)",
		m->path == SELFMON_PATH_USER ? "" : ": ",
		m->path == SELFMON_PATH_USER ? "" : selfmon_reason__str(m->reason),
		m->min_of_reps ? "minimum" : "median", m->reps, left);
}

int selfmon_measure__check_le(const struct selfmon_measure *m, double budget, char *msg,
			      size_t size)
{
	char b[48], n[32];
	int v = verdict_unmeasured(m, msg, size);

	if (v >= 0)
		return v;
	snprintf(b, sizeof(b), "<= %s", num(n, sizeof(n), budget));
	describe(m, b, msg, size);
	return m->value <= budget ? SELFMON_VERDICT_PASS : SELFMON_VERDICT_FAIL;
}

int selfmon_measure__check_within(const struct selfmon_measure *m, double expected, double pct,
				  char *msg, size_t size)
{
	char b[64], n[32];
	int v = verdict_unmeasured(m, msg, size);

	if (v >= 0)
		return v;
	if (!(pct >= 0)) {
		snprintf(msg, size, "%s: within %g%%: a tolerance must be 0 or more percent",
			 m->event, pct);
		return SELFMON_VERDICT_FAIL;
	}
	snprintf(b, sizeof(b), "%s within %g%%", num(n, sizeof(n), expected), pct);
	describe(m, b, msg, size);
	return fabs(m->value - expected) <= fabs(expected) * pct / 100 ? SELFMON_VERDICT_PASS :
									 SELFMON_VERDICT_FAIL;
}
