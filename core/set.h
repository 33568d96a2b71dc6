/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_SET_H
#define SELFMON_CORE_SET_H

#include <stdbool.h>
#include <stdint.h>
#include <selfmon/selfmon.h>

#include "cpulist.h"
#include "event.h"
#include "owner.h"
#include "pin.h"
#include "topology.h"

struct perf_cpu_map;
struct perf_evlist;
struct perf_evsel;
struct perf_thread_map;

struct selfmon_counter {
	struct selfmon_event ev;
	struct perf_evsel *evsel;
	/*
	 * Unpinned on a heterogeneous machine: the same event on each other core
	 * PMU, summed into this counter (a thread counts on whichever core type
	 * it runs), all by read(2).
	 */
	struct perf_evsel *more[SELFMON_MAX_CLUSTERS - 1];
	int nr_more;
	/* The page, when user reads are wanted and the arch has them. */
	const struct perf_event_mmap_page *page;
	/* Why reads take read(2) whatever the page says; NONE if the page decides. */
	enum selfmon_reason reason;
	unsigned int notes;		/* SELFMON_NOTE_* */
	int64_t fallbacks;
	/* Groups: the index of this counter's leader in the set; -1 for a lone event. */
	int leader;
	/* A leader: the events of its group (itself first) and their list. */
	int nr_members;
	struct perf_evlist *evlist;
	/* Its fd, for read(2) (a group's leader reads the group); -1: ask libperf. */
	int fd;
};

/*
 * What a read of counter i touches, in one 64-byte slot: its page (for the
 * read) and the counts subtracted from reads (selfmon_set__reset()). The
 * slots live in a MADV_WIPEONFORK mapping (madvise(2)): in a forked child the
 * page reads NULL, so the read's one test for a page also turns a child
 * away, with no pid check on the way.
 */
struct selfmon_hot {
	const struct perf_event_mmap_page *page;	/* NULL: no fast read (or a child) */
	struct selfmon_count base;
	/* Back to the set, so that a refused fast read needs nothing else to go the long way. */
	struct selfmon_set *set;
	int idx;
	/* A lone counter without a page: its fd + 1, for a bare read(2); 0: none (or a child). */
	int fd1;
	int reason;		/* why such a counter is read by read(2) */
	/*
	 * 1: a member of a group, read right after its leader: its times are
	 * the leader's (the kernel schedules members with their leader), so
	 * selfmon_set__read_all() reads its value alone.
	 */
	int member;
};

struct selfmon_set {
	int nr;
	struct selfmon_hot *hot;
	size_t hot_size;
	bool hot_wiped;		/* the slots are MADV_WIPEONFORK: they may hold pages */
	bool enabled;
	struct selfmon_owner owner;
	/* Pinned to one cluster: the thread's hold on it (PMU, allowed CPUs). */
	bool pinned;
	struct selfmon_pin_hold hold;
	/* All the CPUs of that PMU: off them its counters are not live. */
	cpu_set_t cluster;
	struct perf_thread_map *threads;
	struct perf_cpu_map *cpus;
	struct selfmon_counter ctr[];
};

/* SELFMON_NOTE_* bits beyond the arch's (core/arch.h) */
#define SELFMON_NOTE_USER_ONLY		(1u << 8)	/* paranoid: fell back to exclude_kernel/hv */

/* ---- counter.c: one counter ---- */

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
/* Why the page said no, when the gates were open at open time. */
enum selfmon_reason selfmon_counter__refusal(const struct selfmon_set *set,
					     const struct selfmon_counter *c);
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
	const struct selfmon_cluster *cluster;	/* pinned to it; NULL: not pinned */
	bool user_read, want_long;
	bool sum;	/* unpinned on a heterogeneous machine: one event per core PMU */
};

/* ---- group.c: perf event groups ---- */

/* Tie the evsels of the group led by @idx into one perf group. Return: 0 or -errno. */
int selfmon_group__link(struct selfmon_set *set, int idx);
/*
 * Read the group led by @leader with one read(2) (PERF_FORMAT_GROUP): raw
 * counts of every member, in set order, into @counts[0..nr_members).
 * Return: 0, -SELFMON_ERRNO__PINNED or -errno.
 */
int selfmon_group__read(struct selfmon_set *set, int leader, struct selfmon_count *counts);
void selfmon_group__close(struct selfmon_counter *leader);

/*
 * The checks every per-counter call makes first: a counter of @set, and the
 * owning thread of the owning process (owner.c). Returns from the caller.
 */
#define CHECK_SET(set, idx)							\
	do {									\
		int __err;							\
		if (!(set) || (idx) < 0 || (idx) >= (set)->nr)			\
			return selfmon__err(-EINVAL, "%s: no counter %d in this set", \
					    __func__, (int)(idx));		\
		__err = selfmon_owner__check(&(set)->owner);			\
		if (__err)							\
			return __err;						\
	} while (0)

#endif
