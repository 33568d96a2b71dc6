/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_LIST_H
#define SELFMON_CORE_LIST_H

#include <stdbool.h>

#include "event.h"

/* Modifiers one group may carry after its '}'. */
#define SELFMON_GROUP_MODS_MAX 16

/*
 * One event of a list, as written, and the group it belongs to. perf's
 * syntax: "a,b" are lone events, "{a,b}" is a group (a the leader), and
 * "{a,b}:u" gives every member the modifiers u; D (pinned) and e (exclusive)
 * after a group belong to its leader alone, which is where the kernel takes
 * them (perf_event_open(2), "pinned", "exclusive").
 */
struct selfmon_spec {
	char name[SELFMON_EVENT_NAME_MAX];
	/* The group's modifiers for this member, D and e left out. */
	char mods[SELFMON_GROUP_MODS_MAX];
	int group; /* -1: a lone event; else its group's number, from 0 */
	bool leader; /* the first event of its group */
	bool pinned, exclusive; /* the group's :D and :e, on its leader */
};

/*
 * Split @list into events: commas between a PMU's slashes separate terms,
 * not events, and braces make groups. Groups do not nest, and a group holds
 * at least one event. Return: the number of events, or -E2BIG,
 * -ENAMETOOLONG or -SELFMON_ERRNO__SYNTAX; selfmon_errmsg() says where.
 */
int selfmon_list__split(const char *list, struct selfmon_spec *out, int max);

#endif
