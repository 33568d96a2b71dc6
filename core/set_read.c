// SPDX-License-Identifier: MIT
/*
 * Reading an event set: the hot read (the page in its WIPEONFORK slot, else
 * the counter's fd), the raw and read(2) reads, a group from one instant,
 * and the reset baseline. Opening and closing are in set.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <generated/autoconf.h>
#include <selfmon/read.h>
#include "arch_int.h"
#include "error.h"
#include "counter.h"
#include "group.h"
#include "set.h"

/*
 * A counter whose slot has a width (set.h) is read by the short read of that
 * width: one copy of the read, with its 32 blocks of mrs, per width and
 * function. A build for size (-Os, CONFIG_OPTIMIZE_SIZE) leaves them out:
 * every counter takes the general read.
 */
#if SELFMON_ARCH_FIXED_PAGE && !defined(__OPTIMIZE_SIZE__)
#define READ_BY_WIDTH 1
#else
#define READ_BY_WIDTH 0
#endif

/* Counts since selfmon_set__reset(): the same for both paths. */
static void rebase(const struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	const struct selfmon_count *base = &set->hot[idx].base;

	count->value -= base->value;
	count->enabled -= base->enabled;
	count->running -= base->running;
}

/* A reader of counter @idx: selfmon_counter__read_raw() or __read_kernel(). */
typedef int (*read_fn)(struct selfmon_set *set, int idx, struct selfmon_count *count);

/*
 * The long way of the per-counter reads: the checks each promises, with the
 * error naming @who, the public function the caller called; then @read,
 * taken relative to selfmon_set__reset() when @rebased. Inlined in each
 * noinline caller with its constants: a direct call of @read, and nothing
 * on the inline reads' path, which comes here only when refused.
 */
static inline __attribute__((always_inline)) int read_long_way(struct selfmon_set *set, int idx,
							       struct selfmon_count *count,
							       const char *who, read_fn read,
							       bool rebased)
{
	int err = selfmon_set__check(set, idx, who);

	if (err)
		return err;
	if (!count)
		return selfmon__err(-EINVAL, "%s: count is NULL", who);
	err = read(set, idx, count);
	if (!err && rebased)
		rebase(set, idx, count);
	return err;
}

/* Why a read was refused, or, if nothing refuses it after all, the read. */
static __attribute__((noinline, cold)) int read_checked(struct selfmon_set *set, int idx,
							struct selfmon_count *count)
{
	return read_long_way(set, idx, count, "selfmon_set__read", selfmon_counter__read_raw,
			     true);
}

/*
 * The fast read found no page: a counter without one (a software event, read
 * by a bare read(2) of its own fd), a refused or multiplexed read, or a
 * forked child, whose slots were wiped. The owner is checked in full here.
 */
static __attribute__((noinline)) int read_slow(struct selfmon_set *set, int idx,
					       struct selfmon_count *count)
{
	const struct selfmon_counter *c = &set->ctr[idx];
	int err;

	if (c->page || c->fd < 0 || c->leader >= 0)
		return read_checked(set, idx, count);
	err = selfmon_owner__check(&set->owner);
	if (!err)
		err = selfmon_counter__read_fd(c, count);
	if (!err)
		rebase(set, idx, count);
	return err;
}

/*
 * The path a loop of reads takes is kept short: owner and bounds checked
 * inline, the page read inline; anything else (a refusal, read(2), an
 * error) goes through read_checked().
 */
_Static_assert(offsetof(struct selfmon_count, reason) == offsetof(struct selfmon_count, flags) + 4,
	       "flags and reason are one 64-bit word");

/* flags = SELFMON_COUNT_USER, reason = NONE: one store of an immediate, not two. */
static inline void store_user_flags(struct selfmon_count *count)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t word = SELFMON_COUNT_USER | (uint64_t)SELFMON_REASON_NONE << 32;

	memcpy(&count->flags, &word, sizeof(word));
#else
	count->flags = SELFMON_COUNT_USER;
	count->reason = SELFMON_REASON_NONE;
#endif
}

/*
 * The long way from a hot slot: the set and index it names. A slot that
 * names no set was wiped by fork(): the caller is a child of the process
 * that opened the set (MADV_WIPEONFORK, madvise(2)).
 */
static __attribute__((noinline)) int read_from_slot(const struct selfmon_hot *h,
						    struct selfmon_count *count)
{
	if (!h->set)
		return selfmon__err(
			-SELFMON_ERRNO__FORKED,
			"this event set was opened by the parent "
			"process; its mmap pages are not mapped after fork(): open a new "
			"set in the child");
	return h->page ? read_checked(h->set, h->idx, count) : read_slow(h->set, h->idx, count);
}

/*
 * A counter without a page (a software event) by a bare read(2) of its fd:
 * its read_format, value, enabled, running and id. Anything but a whole
 * answer goes the long way, which names the cause.
 */
static __attribute__((noinline)) int read_fd_slot(const struct selfmon_hot *h,
						  struct selfmon_count *count)
{
	uint64_t buf[4];

	if (read(h->fd1 - 1, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
		return read_from_slot(h, count);
	count->value = buf[0] - h->base.value;
	count->enabled = buf[1] - h->base.enabled;
	count->running = buf[2] - h->base.running;
	count->flags = 0;
	count->reason = (uint32_t)h->reason;
	return 0;
}

/*
 * A slot whose page the open saw fixed (set.h: width), by the short read of
 * constant @width: the index, the offset, the counter and the times, with
 * no test of cap_user_rdpmc or pmc_width. A refusal (index 0) or a
 * multiplexed event (its times must be brought up to now) goes the long
 * way, from what the slot names, as the general read does.
 */
static inline __attribute__((always_inline)) int
read_fixed_slot(const struct selfmon_hot *h, const struct perf_event_mmap_page *page,
		struct selfmon_count *count, const unsigned int width)
{
	/* Before the read: its barriers would load them again. */
	uint64_t value = h->base.value, enabled = h->base.enabled, running = h->base.running;
	uint64_t flags;
	struct selfmon_count now;

	/* The flags word the slot holds (set.h: base), loaded with running by one ldp. */
	memcpy(&flags, &h->base.flags, sizeof(flags));
	if (__builtin_expect(selfmon_priv_page_read_fixed_times(page, &now, width), 0))
		return read_from_slot(h, count);
	/*
	 * Pairs of 64-bit registers, not a vector: gcc would otherwise move
	 * the three differences through a vector register, four instructions
	 * more than the two stp below. Which one is held back is the one that
	 * costs gcc (12) no register move at that width.
	 */
	value = now.value - value;
	enabled = now.enabled - enabled;
	if (width == 64)
		__asm__("" : "+r"(value));
	else
		__asm__("" : "+r"(enabled));
	count->value = value;
	count->enabled = enabled;
	count->running = now.running - running;
	memcpy(&count->flags, &flags, sizeof(flags));
	return 0;
}

/*
 * The checks a read makes, each one the API promises: a set and a count, an
 * index of the set, and the calling thread its owner (the process is checked
 * by the slot, wiped in a child). Non-zero when one fails. The thread by its
 * pointer, one register (core/owner.c: an exited owner's is cleared), and
 * the second test has no short circuit: the owner's pointer and nr_word,
 * adjacent (set.h), load by one ldp and the compiler chains the two
 * compares into one branch (ccmp). A failed test takes the full check.
 */
static inline __attribute__((always_inline)) int read_refused(const struct selfmon_set *set,
							      int idx,
							      const struct selfmon_count *count)
{
	if (__builtin_expect(!set || !count, 0))
		return 1;
	return ((unsigned int)idx >= (unsigned int)set->nr_word) |
	       (selfmon_owner__self() != set->owner.tp);
}

int selfmon_set__read(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	const struct perf_event_mmap_page *page;
	const struct selfmon_hot *h;
	struct selfmon_count now;
	uint64_t word;

	if (__builtin_expect(read_refused(set, idx, count), 0))
		return read_checked(set, idx, count);
	h = &set->hot[(unsigned int)idx];
	/*
	 * A width implies a page: a child's wiped slot has neither. One bit
	 * test each, in the word loaded beside the page (set.h). The empty
	 * asms have gcc address both from the slot and load them before the
	 * first test: one ldp.
	 */
	__asm__("" : "+r"(h));
	page = h->page;
	word = h->word;
	__asm__("" : "+r"(page), "+r"(word));
	if (READ_BY_WIDTH && (word & SELFMON_HOT_WIDTH_BIT(64)))
		return read_fixed_slot(h, page, count, 64);
	if (READ_BY_WIDTH && (word & SELFMON_HOT_WIDTH_BIT(32)))
		return read_fixed_slot(h, page, count, 32);
	if (__builtin_expect(!page, 0))
		return h->fd1 ? read_fd_slot(h, count) : read_from_slot(h, count);
	/* A refusal or a multiplexed event: the long way, from what the slot names. */
	if (__builtin_expect(selfmon_page__read_steady(page, &now), 0))
		return read_from_slot(h, count);
	/* Rebased in registers: one store of each field. */
	count->value = now.value - h->base.value;
	count->enabled = now.enabled - h->base.enabled;
	count->running = now.running - h->base.running;
	store_user_flags(count);
	return 0;
}

static __attribute__((noinline)) int read_raw_checked(struct selfmon_set *set, int idx,
						      struct selfmon_count *count)
{
	return read_long_way(set, idx, count, "selfmon_set__read_raw", selfmon_counter__read_raw,
			     false);
}

static inline __attribute__((always_inline)) int read_raw_fixed(struct selfmon_set *set, int idx,
								const struct selfmon_hot *h,
								struct selfmon_count *count,
								const unsigned int width)
{
	if (__builtin_expect(selfmon_priv_page_read_fixed_times(h->page, count, width), 0))
		return read_raw_checked(set, idx, count);
	store_user_flags(count);
	return 0;
}

/* As selfmon_set__read(), less the baseline: the same checks, the same inline page read. */
int selfmon_set__read_raw(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	const struct selfmon_hot *h;

	if (__builtin_expect(read_refused(set, idx, count), 0))
		return read_raw_checked(set, idx, count);
	h = &set->hot[(unsigned int)idx];
	/* As selfmon_set__read(): a fixed page by the short read of its width. */
	if (READ_BY_WIDTH && (h->width & 64))
		return read_raw_fixed(set, idx, h, count, 64);
	if (READ_BY_WIDTH && (h->width & 32))
		return read_raw_fixed(set, idx, h, count, 32);
	if (__builtin_expect(!h->page || selfmon_page__read_steady(h->page, count), 0))
		return read_raw_checked(set, idx, count);
	return 0;
}

int selfmon_set__read_syscall(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	return read_long_way(set, idx, count, __func__, selfmon_counter__read_kernel, true);
}

int selfmon_set__read_group(struct selfmon_set *set, int idx, struct selfmon_count *counts)
{
	struct selfmon_counter *l;
	int err;

	err = selfmon_set__check(set, idx, __func__);
	if (err)
		return err;
	if (!counts)
		return selfmon__err(-EINVAL, "selfmon_set__read_group: counts is NULL");
	if (set->ctr[idx].leader < 0)
		return selfmon__err(-EINVAL,
				    "selfmon_set__read_group: counter %d ('%s') is in no group",
				    idx, set->ctr[idx].ev.name);
	l = &set->ctr[set->ctr[idx].leader];
	err = selfmon_group__read(set, set->ctr[idx].leader, counts);
	for (int i = 0; i < l->nr_members && !err; i++)
		rebase(set, set->ctr[idx].leader + i, &counts[i]);
	return err;
}

/*
 * Every member of the group led by @leader from one instant: all by their
 * pages, or, if one page refuses, all by the group's read(2). A group read
 * never mixes members on counters with members off them.
 */
static int read_group_raw(struct selfmon_set *set, int leader, struct selfmon_count *counts)
{
	const struct selfmon_counter *l = &set->ctr[leader];
	int i;

	for (i = 0; i < l->nr_members; i++) {
		const struct selfmon_counter *c = &set->ctr[leader + i];

		if (!c->page || selfmon_page__read(c->page, &counts[i]))
			break;
	}
	if (i < l->nr_members)
		return selfmon_group__read(set, leader, counts);
	/* The kernel schedules members with their leader: its times are theirs. */
	for (i = 1; i < l->nr_members; i++) {
		counts[i].enabled = counts[0].enabled;
		counts[i].running = counts[0].running;
	}
	return 0;
}

/* Raw counts of every counter of @set, each group from one instant. */
static int read_all_raw(struct selfmon_set *set, struct selfmon_count *counts)
{
	int err = 0;

	for (int i = 0; i < set->nr && !err; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		if (c->leader < 0)
			err = selfmon_counter__read_raw(set, i, &counts[i]);
		else if (c->leader == i)
			err = read_group_raw(set, i, &counts[i]);
	}
	return err;
}

int selfmon_set__read_raw_all(struct selfmon_set *set, struct selfmon_count *counts)
{
	int err;

	if (!set || !counts)
		return selfmon__err(-EINVAL, "selfmon_set__read_raw_all: %s is NULL",
				    set ? "counts" : "set");
	err = selfmon_owner__check(&set->owner);
	return err ? err : read_all_raw(set, counts);
}

/* Every counter the long way: a page that refuses, read(2), a child, another thread, an error. */
static __attribute__((noinline)) int read_all_checked(struct selfmon_set *set,
						      struct selfmon_count *counts)
{
	int err;

	if (!set || !counts)
		return selfmon__err(-EINVAL, "selfmon_set__read_all: %s is NULL",
				    set ? "counts" : "set");
	err = selfmon_owner__check(&set->owner);
	if (!err)
		err = read_all_raw(set, counts);
	for (int i = 0; i < set->nr && !err; i++)
		rebase(set, i, &counts[i]);
	return err;
}

/*
 * The members of read_group_fixed(), each by its value alone with the
 * leader's times: at the constant @width, or, at a @width of 0, by each
 * slot's shift. Pointers alone: the slot after the last has no page (set.c
 * maps one more, zero), which ends the loop with the test a page needs.
 */
static inline __attribute__((always_inline)) int
read_members_fixed(struct selfmon_set *set, const struct selfmon_hot *h,
		   struct selfmon_count *counts, uint64_t enabled, uint64_t running,
		   const unsigned int width)
{
	const struct perf_event_mmap_page *page;
	struct selfmon_count *c = counts;

	while ((page = (++h)->page)) {
		/* Before the read: its barriers would load them again. */
		uint64_t v, base = h->base.value;
		unsigned int shift = h->shift;
		int err;

		err = width ? selfmon_priv_page_read_fixed(page, &v, width) :
			      selfmon_priv_page_read_shifted(page, &v, shift);
		if (__builtin_expect(err, 0))
			return read_all_checked(set, counts);
		c++;
		c->value = v - base;
		c->enabled = enabled;
		c->running = running;
		store_user_flags(c);
	}
	return 0;
}

/*
 * selfmon_set__read_all() of a set that is one group read by the short read
 * (slot 0's group_width @gw: set.h): the leader with its times at the
 * constant @width, then each member by its value alone, at that width too
 * or, in a group of mixed widths, at its own; with no test of which is which
 * nor of the pages, all there while the set is open (a forked child, whose
 * slots are wiped, reads a width of 0 and goes the long way). A refusal
 * reads them all the long way, as below.
 */
static inline __attribute__((always_inline)) int
read_group_fixed(struct selfmon_set *set, const struct selfmon_hot *hot,
		 struct selfmon_count *counts, unsigned int gw, const unsigned int width)
{
	uint64_t enabled, running;
	struct selfmon_count now;

	if (__builtin_expect(selfmon_priv_page_read_fixed_times(hot->page, &now, width), 0))
		return read_all_checked(set, counts);
	enabled = now.enabled - hot->base.enabled;
	running = now.running - hot->base.running;
	counts->value = now.value - hot->base.value;
	counts->enabled = enabled;
	counts->running = running;
	store_user_flags(counts);
	/* A group of one counter pays no test of the widths, a group of one width one. */
	if (!hot[1].page)
		return 0;
	if (gw & SELFMON_GROUP_MIXED)
		return read_members_fixed(set, hot, counts, enabled, running, 0);
	return read_members_fixed(set, hot, counts, enabled, running, width);
}

/*
 * Inline, every counter by its page: a lone counter or a leader with its
 * times, a group member by its value alone with its leader's times (as
 * read_group_raw() gives them). One refusal reads them all the long way, so
 * that a group never mixes members on counters with members off them.
 */
int selfmon_set__read_all(struct selfmon_set *set, struct selfmon_count *counts)
{
	uint64_t enabled = 0, running = 0;
	const struct selfmon_hot *hot;
	struct selfmon_count now;
	unsigned int nr, gw;

	if (__builtin_expect(!set || !counts || selfmon_owner__self() != set->owner.tp, 0))
		return read_all_checked(set, counts);
	/* In locals: the page reads' barriers would load them again for each counter. */
	hot = set->hot;
	/* One test on the general path's way; the width (32 or 64) only on the short one's. */
	gw = (unsigned int)hot->group_width;
	if (gw)
		return (gw & 64) ? read_group_fixed(set, hot, counts, gw, 64) :
				   read_group_fixed(set, hot, counts, gw, 32);
	nr = (unsigned int)set->nr;
	for (unsigned int i = 0; i < nr; i++) {
		const struct selfmon_hot *h = &hot[i];

		if (__builtin_expect(!h->page, 0))
			return read_all_checked(set, counts);
		if (h->member) {
			/*
			 * The read that tests cap_user_rdpmc and pmc_width too: with the
			 * index-only one, gcc allocates this function's registers so
			 * that the short path above costs 2 to 3 instructions more.
			 */
			if (__builtin_expect(selfmon_priv_page_read_value(h->page, &now.value, 0), 0))
				return read_all_checked(set, counts);
		} else {
			if (__builtin_expect(selfmon_page__read_steady(h->page, &now), 0))
				return read_all_checked(set, counts);
			enabled = now.enabled - h->base.enabled;
			running = now.running - h->base.running;
		}
		counts[i].value = now.value - h->base.value;
		counts[i].enabled = enabled;
		counts[i].running = running;
		store_user_flags(&counts[i]);
	}
	return 0;
}

int selfmon_set__reset(struct selfmon_set *set)
{
	struct selfmon_count base[CONFIG_MAX_EVENTS];
	int64_t fallbacks[CONFIG_MAX_EVENTS];
	int err;

	if (!set)
		return selfmon__err(-EINVAL, "no set");
	err = selfmon_owner__check(&set->owner);
	for (int i = 0; i < set->nr; i++)
		fallbacks[i] = set->ctr[i].fallbacks;
	if (!err)
		err = read_all_raw(set, base);
	for (int i = 0; i < set->nr; i++) {
		if (!err) {
			set->hot[i].base.value = base[i].value;
			set->hot[i].base.enabled = base[i].enabled;
			set->hot[i].base.running = base[i].running;
		}
		/* A baseline is not a measurement: its path does not count. */
		set->ctr[i].fallbacks = fallbacks[i];
	}
	return err;
}
