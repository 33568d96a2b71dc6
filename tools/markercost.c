// SPDX-License-Identifier: MIT
/*
 * What a marker pair costs, for `selfmon bench markercost`, beside what its
 * reads cost in the same run: the bare inline reads of a pair with two
 * events (each page read at both ends), the pair in its cached and by-name
 * forms, and selfmon_set__read_all() of the same two-event group. The
 * markers count with their own events ($SELFMON_EVENTS, else the default);
 * their report goes to $SELFMON_OUTPUT, else /dev/null here.
 */
#include <errno.h>
#include <stdlib.h>

#include <selfmon/marker.h>
#include <selfmon/read.h>
#include <selfmon/selfmon.h>
#include "cli.h"
#include "../util/err.h"

struct cli_markercost {
	struct selfmon_set *set; /* {instructions:u,cycles:u}, or two software events */
	const struct perf_event_mmap_page *pg[2];
	struct selfmon_count c[2];
	uint64_t sink;
};

static void body_cached(void *arg, uint64_t n);
static void body_named(void *arg, uint64_t n);

struct cli_markercost *cli_markercost__open(void)
{
	struct cli_markercost *mc = calloc(1, sizeof(*mc));
	int err;

	if (!mc) {
		errno = ENOMEM;
		return NULL;
	}
	mc->set = selfmon_set__open("{instructions:u,cycles:u}", NULL);
	if (!mc->set)
		mc->set = selfmon_set__open("{task-clock,context-switches}", NULL);
	err = mc->set ? selfmon_set__enable(mc->set) : -errno;
	if (err) {
		cli_markercost__close(mc);
		return util_null_errno(err);
	}
	for (int i = 0; i < 2; i++)
		mc->pg[i] = selfmon_set__path(mc->set, i, NULL) == SELFMON_PATH_USER ?
				    selfmon_set__page(mc->set, i) :
				    NULL;
	setenv("SELFMON_OUTPUT", "/dev/null", 0);
	/* This thread's marker counters open at its first begin: not in a measured pair. */
	body_cached(mc, 1);
	body_named(mc, 1);
	return mc;
}

void cli_markercost__close(struct cli_markercost *mc)
{
	if (!mc)
		return;
	selfmon_set__close(mc->set);
	free(mc);
}

bool cli_markercost__inline_ok(const struct cli_markercost *mc)
{
	return mc->pg[0] && mc->pg[1];
}

static void body_empty(void *arg, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r"(arg) : "memory");
}

static void body_inline(void *arg, uint64_t n)
{
	struct cli_markercost *mc = arg;
	const struct perf_event_mmap_page *p0 = mc->pg[0], *p1 = mc->pg[1];
	/* Set: gcc (12) does not follow the read's asm goto to the a = b = 0 below. */
	uint64_t a = 0, b = 0, c = 0, d = 0, sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (selfmon_page__read_value(p0, &a) | selfmon_page__read_value(p1, &b))
			a = b = 0;
		if (selfmon_page__read_value(p0, &c) | selfmon_page__read_value(p1, &d))
			c = d = 0;
		sum += (c - a) + (d - b);
	}
	mc->sink = sum;
}

static void body_cached(void *arg, uint64_t n)
{
	(void)arg;
	for (uint64_t i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("selfmon bench markercost");
		SELFMON_MARKER_END("selfmon bench markercost");
	}
}

static void body_named(void *arg, uint64_t n)
{
	(void)arg;
	for (uint64_t i = 0; i < n; i++) {
		selfmon_marker__begin("selfmon bench markercost, by name");
		selfmon_marker__end("selfmon bench markercost, by name");
	}
}

static void body_read_all(void *arg, uint64_t n)
{
	struct cli_markercost *mc = arg;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		selfmon_set__read_all(mc->set, mc->c);
		sum += mc->c[0].value;
	}
	mc->sink = sum;
}

const struct cli_cost_row cli_markercost__rows[CLI_MARKERCOST__NR] = {
	[CLI_MARKERCOST_EMPTY] = { "markercost/loop", body_empty },
	[CLI_MARKERCOST_INLINE] = { "markercost/inline_reads", body_inline },
	[CLI_MARKERCOST_CACHED] = { "markercost/pair_cached", body_cached },
	[CLI_MARKERCOST_NAMED] = { "markercost/pair_by_name", body_named },
	[CLI_MARKERCOST_READ_ALL] = { "markercost/read_all", body_read_all },
};
