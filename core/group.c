// SPDX-License-Identifier: MIT
/*
 * perf event groups: a leader and members the kernel schedules onto the PMU
 * together, all or none (perf_event_open(2), "group_fd"). libperf opens them:
 * a perf_evlist per group, whose first evsel leads (perf_evlist__set_leader).
 * The group's fallback read is selfmon's own: one read(2) of the leader in
 * PERF_FORMAT_GROUP gives every member from the same instant, while
 * libperf's perf_evsel__read() returns the leader's value alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <perf/evlist.h>
#include <perf/evsel.h>

#include <generated/autoconf.h>
#include "error.h"
#include "errtext.h"
#include "group.h"
#include "refusal.h"
#include "set.h"

int selfmon_group__link(struct selfmon_set *set, int idx)
{
	struct selfmon_counter *c = &set->ctr[idx], *l = &set->ctr[c->leader];

	if (idx == c->leader) {
		c->evlist = perf_evlist__new();
		if (!c->evlist) {
			/* Not in a list yet: nothing else would delete it. */
			perf_evsel__delete(c->evsel);
			c->evsel = NULL;
			return selfmon__err(-ENOMEM, "event '%s': out of memory", c->ev.name);
		}
	}
	perf_evlist__add(l->evlist, c->evsel);
	/* Makes the list's first evsel the leader of all, this one included. */
	perf_evlist__set_leader(l->evlist);
	return 0;
}

/* Each member's count out of the group's read(2) buffer: nr, enabled, running, {value, id}... */
static void unpack(struct selfmon_set *set, int leader, const uint64_t *buf,
		   struct selfmon_count *counts)
{
	for (int i = 0; i < set->ctr[leader].nr_members; i++) {
		struct selfmon_counter *c = &set->ctr[leader + i];
		struct selfmon_count *k = &counts[i];

		memset(k, 0, sizeof(*k));
		k->value = buf[3 + 2 * i];
		k->enabled = buf[1];
		k->running = buf[2];
		k->reason = c->reason;
		if (c->page && c->reason == SELFMON_REASON_NONE) {
			/* The gates were open but the page said no at this moment. */
			k->reason = selfmon_refusal__why(set, c);
			c->fallbacks++;
		}
	}
}

int selfmon_group__read(struct selfmon_set *set, int leader, struct selfmon_count *counts)
{
	const struct selfmon_counter *l = &set->ctr[leader];
	uint64_t buf[3 + 2 * CONFIG_MAX_EVENTS];
	size_t size = (3 + 2 * (size_t)l->nr_members) * sizeof(uint64_t);
	ssize_t n = read(l->fd, buf, size);

	if (n == 0)
		return selfmon__err(
			-SELFMON_ERRNO__PINNED,
			"group of '%s': read(2) hit end of file: "
			"the pinned group could not be put on the PMU and counts nothing "
			"(too few free counters): fewer events, or no ':D'",
			l->ev.name);
	if (n < 0)
		return selfmon__err(-errno, "group of '%s': read: %s", l->ev.name, selfmon_errtext__str(errno));
	if ((size_t)n != size || buf[0] != (uint64_t)l->nr_members)
		return selfmon__err(-EIO,
				    "group of '%s': read(2) gave %zd bytes for %llu events, "
				    "expected %d events",
				    l->ev.name, n, (unsigned long long)buf[0], l->nr_members);
	unpack(set, leader, buf, counts);
	return 0;
}

void selfmon_group__close(struct selfmon_counter *leader)
{
	/* Closes what is still open and deletes the group's evsels. */
	perf_evlist__delete(leader->evlist);
	leader->evlist = NULL;
}
