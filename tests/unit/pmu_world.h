/* SPDX-License-Identifier: MIT */
/*
 * The world of the tests that resolve events against PMUs (test_event.c,
 * test_event_terms.c, test_gate.c): a fresh fake sysfs root (fakeroot.h),
 * the PMUs loaded from it, and the event under test; set up and torn down
 * per test. Include after <cmocka.h>.
 */
#ifndef SELFMON_TEST_PMU_WORLD_H
#define SELFMON_TEST_PMU_WORLD_H

#include <stdlib.h>

#include "../../core/event.h"
#include "../../core/pmu.h"
#include "fakeroot.h"

struct world {
	char *root;
	struct selfmon_pmus pmus;
	struct selfmon_event ev;
	unsigned int notes;	/* SELFMON_NOTE_* of the arch's prepare(), for test_gate.c */
};

/* A world with an empty root, in *@state; NULL when out of memory. */
static inline struct world *world__new(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	if (w)
		w->root = fakeroot__new();
	*state = w;
	return w;
}

/* Load the root's PMUs. Return: 0, or -1 unless there are exactly @nr. */
static inline int world__load(struct world *w, int nr)
{
	if (selfmon_pmus__load(&w->pmus, w->root) || w->pmus.nr != nr)
		return -1;
	return 0;
}

static inline int world_teardown(void **state)
{
	struct world *w = *state;

	selfmon_pmus__free(&w->pmus);
	fakeroot__free(w->root);
	free(w);
	return 0;
}

#endif
