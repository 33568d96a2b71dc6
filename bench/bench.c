// SPDX-License-Identifier: MIT
/*
 * The driver of selfmon bench, opened: region pages, the options, the
 * measured events and the side set. Its repetitions with calibration,
 * filtering and statistics, and the read(2) fallback of a region: bench_run.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "../util/err.h"
#include "../util/opts.h"

/*
 * The most iterations a caller may fix: a two-length repetition runs 3n, so
 * n must stay far from overflowing, and at about 1 ns an iteration this is
 * already some 50 minutes a repetition. More cannot be run: refused.
 */
#define MAX_FIXED_ITERATIONS 1000000000000ull

int selfmon_set__pages(struct selfmon_set *set, struct selfmon_pages *pages, int serialize)
{
	int nr;

	if (!pages)
		return selfmon__err(-EINVAL, "selfmon_set__pages: no pages to fill (NULL)");
	nr = selfmon_set__nr(set);
	memset(pages, 0, sizeof(*pages));
	if (!set || nr < 0)
		return selfmon__err(-EINVAL, "no set");
	if (nr > SELFMON_PAGES_MAX)
		return selfmon__err(-E2BIG, "%d counters: a region reads at most %d", nr,
				    SELFMON_PAGES_MAX);
	pages->set = set;
	pages->nr = nr;
	pages->serialize = !!serialize;
	pages->all_user = 1;
	for (int i = 0; i < nr; i++) {
		pages->pg[i] = selfmon_set__page(set, i);
		if (!pages->pg[i] || selfmon_set__path(set, i, NULL) != SELFMON_PATH_USER)
			pages->all_user = 0;
	}
	return 0;
}

/* The events that opened, as a list for the one set that counts them. */
struct kept_events {
	char *list;
	size_t len, cap;
};

/* Note @item left out; the first refusal (@why) says why, once for all. */
static void note_left_out(struct selfmon_bench *b, const char *item, char *why, size_t why_sz)
{
	size_t n = strlen(b->note);

	if (!n)
		snprintf(why, why_sz, "%s", selfmon_errmsg());
	snprintf(b->note + n, sizeof(b->note) - n, "%s%s", n ? ", " : "left out ", item);
}

/*
 * Open @list's events one by one: an event this machine cannot count is
 * left out with its reason when @optional (the default events, a metric's),
 * so that a VM without a PMU still measures time; an event the caller
 * named fails with the refusal, as a count of something else in its place
 * would be a wrong number. A name that does not parse is the caller's
 * mistake and fails either way.
 */
static int open_events(struct selfmon_bench *b, const char *list, const struct selfmon_opts *so,
		       int optional, struct kept_events *keep, char *why, size_t why_sz)
{
	char item[SELFMON_EVENT_NAME_MAX];
	const char *cursor = list;
	int err;

	/* Syntax first, for the whole list: a typo costs no syscall. */
	while ((err = selfmon_events__next(&cursor, item, sizeof(item))) > 0)
		;
	if (err < 0)
		return err;
	for (cursor = list; selfmon_events__next(&cursor, item, sizeof(item)) > 0;) {
		struct selfmon_set *one = selfmon_set__open(item, so);

		if (one) {
			selfmon_set__close(one);
			keep->len += (size_t)snprintf(keep->list + keep->len, keep->cap - keep->len,
						      "%s%s", keep->len ? "," : "", item);
			continue;
		}
		err = -errno;
		/* A name that means nothing here is the caller's mistake, not the machine's. */
		if (err == -SELFMON_ERRNO__SYNTAX || err == -SELFMON_ERRNO__NOEVENT)
			return err;
		if (!optional) {
			/* The refusal is copied: selfmon__err() writes the buffer it lives in. */
			snprintf(why, why_sz, "%s", selfmon_errmsg());
			return selfmon__err(err,
					    "%s; it was named, and nothing is counted in its place: "
					    "leave it out, or leave the events to the default to count "
					    "what this machine has",
					    why);
		}
		note_left_out(b, item, why, why_sz);
	}
	return 0;
}

/* The events named (@events), then the optional ones, opened as one set. Return: 0 or -errno. */
static int open_all_events(struct selfmon_bench *b, const char *events, const char *optional,
			   const struct selfmon_opts *so)
{
	struct kept_events keep = { 0 };
	char why[512] = "";
	int err = -ENOMEM;

	keep.cap = strlen(events ? events : SELFMON_BENCH_DEFAULT_EVENTS) +
		   strlen(optional ? optional : "") + 2;
	keep.list = calloc(1, keep.cap);
	if (!keep.list)
		goto out;
	err = open_events(b, events ? events : SELFMON_BENCH_DEFAULT_EVENTS, so, !events, &keep,
			  why, sizeof(why));
	if (!err && optional && *optional)
		err = open_events(b, optional, so, 1, &keep, why, sizeof(why));
	if (err)
		goto out;
	if (b->note[0]) {
		size_t n = strlen(b->note);

		snprintf(b->note + n, sizeof(b->note) - n, " (first refusal: %s)", why);
	}
	if (!keep.len)
		goto out;
	b->set = selfmon_set__open(keep.list, so);
	if (!b->set)
		err = -errno;
out:
	free(keep.list);
	return err;
}

/* Options that cannot run (a count that overflows, a time never reached) are refused. */
static int check_limits(const struct selfmon_bench *b)
{
	if (b->iterations > MAX_FIXED_ITERATIONS)
		return selfmon__err(-EINVAL,
				    "selfmon_bench_opts.iterations = %llu: at most %llu can run "
				    "(0 grows them to rep_time)",
				    (unsigned long long)b->iterations, MAX_FIXED_ITERATIONS);
	/* NaN fails every comparison: written so that it is refused too. */
	if (!(b->min_time >= 0 && b->min_time <= 86400))
		return selfmon__err(-EINVAL,
				    "selfmon_bench_opts.min_time = %g: seconds, from 0 to 86400",
				    b->min_time);
	if (!(b->rep_time > 0 && b->rep_time <= 3600))
		return selfmon__err(-EINVAL,
				    "selfmon_bench_opts.rep_time = %g: seconds, from 0 to 3600",
				    b->rep_time);
	if (b->repetitions > MAX_REPETITIONS)
		return selfmon__err(-EINVAL, "selfmon_bench_opts.repetitions = %d: at most %d",
				    b->repetitions, MAX_REPETITIONS);
	return 0;
}

/*
 * The caller's options into @b and @so (the sets' options), checked; the
 * machine's view opened once for every set. Return: 0 or -EINVAL.
 */
static int take_opts(struct selfmon_bench *b, const struct selfmon_bench_opts *opts,
		     struct selfmon_opts *so)
{
	int err;

	if (OPTS_HAS(opts, set_opts) && opts->set_opts.sz)
		*so = opts->set_opts;
	b->repetitions = OPTS_GET(opts, repetitions, 0) > 0 ? opts->repetitions : 10;
	b->min_time = OPTS_GET(opts, min_time, 0.0);
	b->warmup = OPTS_GET(opts, warmup, 0);
	b->iterations = OPTS_GET(opts, iterations, 0);
	b->rep_time = OPTS_GET(opts, rep_time, 0.0) > 0 ? opts->rep_time : 1e-3;
	b->calibration = OPTS_GET(opts, calibration, SELFMON_CALIB_TWO_LENGTH);
	b->keep_noisy = OPTS_GET(opts, keep_noisy, 0);
	if (b->calibration != SELFMON_CALIB_TWO_LENGTH && b->calibration != SELFMON_CALIB_EMPTY)
		return selfmon__err(-EINVAL,
				    "calibration %d: use SELFMON_CALIB_TWO_LENGTH or _EMPTY",
				    b->calibration);
	err = check_limits(b);
	if (err)
		return err;
	/* Without a view the sets scan sysfs themselves, and say what fails there. */
	/* Fields past the caller's size are not the caller's: zero them before adding one. */
	if (so->sz < sizeof(*so))
		memset((char *)so + so->sz, 0, sizeof(*so) - so->sz);
	if (!so->machine) {
		b->machine = selfmon_machine__open(
			so->sz > offsetof(struct selfmon_opts, root) ? so->root : NULL);
		so->machine = b->machine;
		so->sz = sizeof(*so);
	}
	return 0;
}

/*
 * The measured events (enabled, their pages taken) and the side set of
 * software events that filters repetitions; without the side set, a note
 * says why. Return: 0 or -errno.
 */
static int open_sets(struct selfmon_bench *b, const struct selfmon_bench_opts *opts,
		     const struct selfmon_opts *so)
{
	int serialize = OPTS_GET(opts, serialize, 0);
	int err = open_all_events(b, OPTS_GET(opts, events, NULL),
				  OPTS_GET(opts, optional_events, NULL), so);

	if (err)
		return err;
	if (b->set) {
		err = selfmon_set__pages(b->set, &b->pages, serialize);
		if (!err)
			err = selfmon_set__enable(b->set);
		if (err)
			return err;
		/* Pages are taken before enable; the index is the page's business at read time. */
		selfmon_set__pages(b->set, &b->pages, serialize);
	}
	/* Software events never refuse for want of a PMU; without them, no filtering. */
	b->side = selfmon_set__open(SIDE_EVENTS, so);
	if (b->side && selfmon_set__enable(b->side)) {
		selfmon_set__close(b->side);
		b->side = NULL;
	}
	if (!b->side) {
		size_t n = strlen(b->note);

		snprintf(b->note + n, sizeof(b->note) - n,
			 "%sno task-clock, context-switch or migration "
			 "counts (%s): repetitions are not filtered",
			 n ? "; " : "", selfmon_errmsg());
	}
	return 0;
}

struct selfmon_bench *selfmon_bench__open(const struct selfmon_bench_opts *opts)
{
	struct selfmon_opts so = { .sz = sizeof(so) };
	struct selfmon_bench *b;
	int err;

	if (!OPTS_VALID(opts)) {
		errno = EINVAL;
		selfmon__err(-EINVAL,
			     "selfmon_bench_opts.sz is %zu, or a field this library does not know "
			     "(past byte %zu) is set: set .sz to sizeof(struct selfmon_bench_opts) "
			     "and leave unknown fields zero",
			     opts->sz, sizeof(*opts));
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		errno = ENOMEM;
		return NULL;
	}
	err = take_opts(b, opts, &so);
	if (!err)
		err = open_sets(b, opts, &so);
	if (err)
		selfmon_bench__close(b);
	return err ? util_null_errno(err) : b;
}

void selfmon_bench__close(struct selfmon_bench *b)
{
	if (!b)
		return;
	selfmon_set__close(b->set);
	selfmon_set__close(b->side);
	selfmon_machine__close(b->machine);
	free(b);
}

const char *selfmon_bench__note(const struct selfmon_bench *b)
{
	return b ? b->note : "";
}

int selfmon_bench__nr_events(const struct selfmon_bench *b)
{
	return b && b->set ? b->pages.nr : 0;
}

struct selfmon_set *selfmon_bench__set(const struct selfmon_bench *b)
{
	return b ? b->set : NULL;
}
