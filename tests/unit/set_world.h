/* SPDX-License-Identifier: MIT */
/*
 * The world an event-set test starts from (test_set.c, test_set_errors.c,
 * test_group_none.c):
 * libperf's system calls mocked (libperf_mock.h, each program's .wrap), a
 * fake sysfs root with one x86 CPU, perf_event_paranoid as the test asks,
 * no pinning (pinning has its own tests, test_pin_*.c), and the set the
 * test opens, closed at teardown. Include after <cmocka.h>.
 */
#ifndef SELFMON_TEST_SET_WORLD_H
#define SELFMON_TEST_SET_WORLD_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "fakeroot.h"
#include "libperf_mock.h"

struct world {
	char *root;
	struct selfmon_opts opts;
	struct selfmon_set *set;
};

/*
 * The set's messages differ for root: the tests speak of an ordinary user
 * unless they set this (programs whose .wrap lists geteuid).
 */
static uid_t set_world__euid = 1000;
uid_t __wrap_geteuid(void);
uid_t __wrap_geteuid(void)
{
	return set_world__euid;
}

/* A new world in *@state, perf_event_paranoid @paranoid ("2"). Return: 0 or -1. */
static inline int set_world__setup(void **state, const char *paranoid)
{
	struct world *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	libperf_mock__reset();
	unsetenv("SELFMON_SYSFS_ROOT");
	w->root = fakeroot__new();
	fakeroot__x86_cpu(w->root, 1);
	fakeroot__write(w->root, "/proc/sys/kernel/perf_event_paranoid", "%s\n", paranoid);
	w->opts.sz = sizeof(w->opts);
	w->opts.root = w->root;
	w->opts.pin = "none";
	*state = w;
	return 0;
}

/* @events opened in @w as its set, or the test failed with the message. */
static inline struct selfmon_set *set_world__open(struct world *w, const char *events)
{
	w->set = selfmon_set__open(events, &w->opts);
	if (!w->set)
		fail_msg("open '%s': %s (%s)", events, strerror(errno), selfmon_errmsg());
	/* Open reads each event once for its id (to find its fd): not a measurement. */
	lp.reads = 0;
	return w->set;
}

/* The world's set closed and its root removed. Return: 0. */
static inline int set_world__teardown(void **state)
{
	struct world *w = *state;

	selfmon_set__close(w->set);
	fakeroot__free(w->root);
	free(w);
	return 0;
}

#endif
