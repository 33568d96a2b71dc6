/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_SET_H
#define SELFMON_CORE_SET_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <selfmon/selfmon.h>

#include "cpulist.h"
#include "error.h"
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
	unsigned int notes; /* SELFMON_NOTE_* */
	int64_t fallbacks;
	/* Groups: the index of this counter's leader in the set; -1 for a lone event. */
	int leader;
	/* A leader: the events of its group (itself first) and their list. */
	int nr_members;
	struct perf_evlist *evlist;
	/* Its fd, for read(2) (a group's leader reads the group); -1: ask libperf. */
	int fd;
	/*
	 * It counts instructions retired (selfmon_set__counts_instructions()):
	 * told at open, while ev.pmu still says whether its PMU is a core's.
	 */
	bool counts_insns;
};

/*
 * What a read of counter i touches, in one 64-byte slot: its page (for the
 * read) and the counts subtracted from reads (selfmon_set__reset()). The
 * slots live in a MADV_WIPEONFORK mapping (madvise(2)): in a forked child the
 * page reads NULL, so the read's one test for a page also turns a child
 * away, with no pid check on the way.
 */
struct selfmon_hot {
	const struct perf_event_mmap_page *page; /* NULL: no fast read (or a child) */
	/*
	 * The small fields in the 8 bytes after the page, width first, so that
	 * selfmon_set__read() loads the page and the width (as word) with one
	 * ldp and tests the width's bit in the word (set_read.c).
	 */
	union {
		struct {
			/*
			 * 32 or 64 when the open saw this counter's page with
			 * cap_user_rdpmc and that pmc_width, where the kernel
			 * keeps both for the event's life
			 * (SELFMON_ARCH_FIXED_PAGE): selfmon_set__read() then
			 * reads it by the short read, which tests neither. 0: the
			 * general read (and in a forked child, whose slots are
			 * wiped).
			 */
			unsigned char width;
			/*
			 * 1: a member of a group, read right after its leader:
			 * its times are the leader's (the kernel schedules
			 * members with their leader), so selfmon_set__read_all()
			 * reads its value alone.
			 */
			unsigned char member;
			/* Where slot 0 has a group_width: 64 - this counter's pmc_width (0 or 32). */
			unsigned char shift;
			/* why a counter without a page is read by read(2) (an enum selfmon_reason) */
			short reason;
			/*
			 * In slot 0 alone: 32 or 64 when the set is one group (or
			 * one counter) whose pages the open saw with
			 * cap_user_rdpmc and a pmc_width of 32 or 64, where the
			 * kernel keeps both (SELFMON_ARCH_FIXED_PAGE): the
			 * leader's width, plus SELFMON_GROUP_MIXED when a member's
			 * differs (the arm64 cycle counter at 64 bits beside
			 * 32-bit event counters), each member then sign-extended
			 * by its slot's shift. selfmon_set__read_all() reads them
			 * all by the short read, with no test of their pages, as
			 * none of them changes while the set is open, and stops
			 * at the slot after the last, which the mapping holds
			 * zero (set.c maps one more). 0: not so, and in a forked
			 * child, whose slots are wiped.
			 */
			short group_width;
		};
		uint64_t word;
	};
	/*
	 * The counts subtracted from reads. Its flags and reason are not the
	 * baseline's: they hold what a read by the page stores
	 * (SELFMON_COUNT_USER, SELFMON_REASON_NONE), set when the set is opened
	 * and kept by selfmon_set__reset(), so that the short read copies the
	 * word it loads beside base.running instead of making it.
	 */
	struct selfmon_count base;
	/* Back to the set, so that a refused fast read needs nothing else to go the long way. */
	struct selfmon_set *set;
	int idx;
	/* A lone counter without a page: its fd + 1, for a bare read(2); 0: none (or a child). */
	int fd1;
};

/* Where width's bit @bit (32 or 64) is in a slot's word. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SELFMON_HOT_WIDTH_BIT(bit) ((uint64_t)(bit))
#else
#define SELFMON_HOT_WIDTH_BIT(bit) ((uint64_t)(bit) << 56)
#endif

/* In slot 0's group_width: the members' widths are not all the leader's. */
#define SELFMON_GROUP_MIXED 1

struct selfmon_set {
	/* owner.tp and nr_word adjacent: the read's checks load both with one instruction (set_read.c). */
	struct selfmon_owner owner;
	uintptr_t nr_word; /* nr, as wide as owner.tp */
	int nr;
	struct selfmon_hot *hot;
	size_t hot_size;
	bool hot_wiped; /* the slots are MADV_WIPEONFORK: they may hold pages */
	bool enabled;
	/* Pinned to one cluster: the thread's hold on it (PMU, allowed CPUs). */
	bool pinned;
	struct selfmon_pin_hold hold;
	/* All the CPUs of that PMU: off them its counters are not live. */
	cpu_set_t cluster;
	struct perf_thread_map *threads;
	struct perf_cpu_map *cpus;
	struct selfmon_counter ctr[];
};

_Static_assert(offsetof(struct selfmon_set, nr_word) ==
		       offsetof(struct selfmon_set, owner.tp) + sizeof(uintptr_t),
	       "the owner's pointer and the count of counters are one pair");

/* SELFMON_NOTE_* bits beyond the arch's (core/arch_int.h) */
#define SELFMON_NOTE_USER_ONLY (1u << 8) /* paranoid: fell back to exclude_kernel/hv */

/*
 * The checks every per-counter call makes first: @idx is a counter of @set,
 * and the caller is the owning thread of the owning process (owner.c).
 * Return: 0, or -EINVAL naming @who, or owner.c's -errno.
 */
static inline int selfmon_set__check(const struct selfmon_set *set, int idx, const char *who)
{
	if (!set || idx < 0 || idx >= set->nr)
		return selfmon__err(-EINVAL, "%s: no counter %d in this set", who, idx);
	return selfmon_owner__check(&set->owner);
}

#endif
