/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_GROUP_H
#define SELFMON_CORE_GROUP_H

#include "set.h"

/* perf event groups (group.c): a leader and its members, read by one read(2). */

/* Tie the evsels of the group led by @idx into one perf group. Return: 0 or -errno. */
int selfmon_group__link(struct selfmon_set *set, int idx);
/*
 * Read the group led by @leader with one read(2) (PERF_FORMAT_GROUP): raw
 * counts of every member, in set order, into @counts[0..nr_members).
 * Return: 0, -SELFMON_ERRNO__PINNED or -errno.
 */
int selfmon_group__read(struct selfmon_set *set, int leader, struct selfmon_count *counts);
void selfmon_group__close(struct selfmon_counter *leader);

#endif
