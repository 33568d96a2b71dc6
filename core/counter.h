/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_COUNTER_H
#define SELFMON_CORE_COUNTER_H

#include <stdbool.h>

#include "set.h"

/* One counter of a set (counter.c): open, close, the read(2) reads. */

struct open_ctx;

/* Open counter @idx of @set (its group's leader is open already). Return: 0 or -errno. */
int selfmon_counter__open(struct selfmon_set *set, int idx, const struct open_ctx *ctx);
/* Close its fds; unmap its page only in the process that mapped it (@unmap). */
void selfmon_counter__close(struct selfmon_counter *c, bool unmap);
/* One lone counter by its own fd (c->fd >= 0): value, enabled, running. Return: 0 or -errno. */
int selfmon_counter__read_fd(const struct selfmon_counter *c, struct selfmon_count *count);
/* read(2) of one counter (or the sum of its per-PMU copies). Return: 0 or -errno. */
int selfmon_counter__read_syscall(struct selfmon_counter *c, struct selfmon_count *count);
/*
 * The fds of the set's lone counters and group leaders, which libperf
 * keeps to itself. Return: 0, or -errno when a group's leader has none.
 */
int selfmon_counter__find_fds(struct selfmon_set *set);
/* The raw count: the page if it allows, else read(2) (of the whole group). */
int selfmon_counter__read_raw(struct selfmon_set *set, int idx, struct selfmon_count *count);
/*
 * The raw count of counter @idx by the kernel: its group's one read(2) when
 * it is in a group, else its own. The one place that makes this choice.
 */
int selfmon_counter__read_kernel(struct selfmon_set *set, int idx, struct selfmon_count *count);

/* What opening a set needs beyond the set itself. */
struct open_ctx {
	const char *root;
	const struct selfmon_pmus *pmus;
	const struct selfmon_topology *topo;
	const struct selfmon_cluster *cluster; /* pinned to it; NULL: not pinned */
	bool user_read, want_long;
	bool sum; /* unpinned on a heterogeneous machine: one event per core PMU */
};

#endif
