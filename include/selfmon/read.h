/* SPDX-License-Identifier: MIT */
/*
 * The hot path: reading a counter through its perf_event mmap page with no
 * system call, no allocation and no function call. The protocol is the one of
 * perf_event_open(2), section "MMAP layout" (cap_user_rdpmc, pmc_width,
 * time_shift/time_mult/time_offset), and include/uapi/linux/perf_event.h
 * (cap_user_time_short, time_cycles, time_mask).
 *
 * Get the page with selfmon_set__page(). These functions return -EAGAIN when
 * the page does not allow a user-space read at this moment (index = 0 or
 * cap_user_rdpmc = 0); the caller then uses selfmon_set__read_raw(), which
 * returns the same quantity (the raw count, with no selfmon_set__reset()
 * baseline) by read(2). They never return a made-up number.
 */
#ifndef SELFMON_READ_H
#define SELFMON_READ_H

#include <errno.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <selfmon/arch.h>
#include <selfmon/selfmon.h>

/**
 * Bits of perf_event_mmap_page.capabilities. The uapi names them as bitfields;
 * masks let us test one snapshot of the word instead of re-reading a volatile
 * bitfield for each bit (a unit test checks they agree with the bitfields).
 */
#define SELFMON_CAP_USER_RDPMC (1ull << 2) /**< cap_user_rdpmc: the counter reads from user space */
#define SELFMON_CAP_USER_TIME (1ull << 3) /**< cap_user_time: time_shift, time_mult, time_offset valid */
#define SELFMON_CAP_USER_TIME_ZERO (1ull << 4) /**< cap_user_time_zero: time_zero valid */
#define SELFMON_CAP_USER_TIME_SHORT (1ull << 5) /**< cap_user_time_short: time_cycles, time_mask valid */

/*
 * The hot path must not become a call: with several callers in one file gcc
 * would otherwise keep one out-of-line copy, a dozen instructions more a read.
 */
#define SELFMON_HOT static inline __attribute__((always_inline))

#ifndef selfmon_arch_read_checked
/*
 * @pmc = the counter of page index @idx, or a jump to the label @fail when
 * @idx names no counter this arch reads (0: none now, perf_event_open(2)
 * "MMAP layout", index). An arch may do the test inside its dispatch (arm64:
 * arch.h), one instruction less; this is the test in C.
 */
#define selfmon_arch_read_checked(idx, pmc, fail)                            \
	do {                                                                 \
		if (__builtin_expect((idx) - 1u >= SELFMON_ARCH_MAX_INDEX, 0)) \
			goto fail;                                           \
		(pmc) = selfmon_arch_read_counter(idx);                      \
	} while (0)
#endif

#ifndef selfmon_arch_read_checked_byte
/* As selfmon_arch_read_checked(); an arch may trade a table for the compare (arm64: arch.h). */
#define selfmon_arch_read_checked_byte(idx, pmc, fail) selfmon_arch_read_checked(idx, pmc, fail)
#endif

#ifndef SELFMON_ARCH_INDEX_GATES_READ
/*
 * 1 where a page index other than 0 implies cap_user_rdpmc and a pmc_width
 * of 32 or 64 (arch.h says why): the general read then tests the index alone.
 */
#define SELFMON_ARCH_INDEX_GATES_READ 0
#endif

/*
 * Keeps every load of the page between the two loads of 'lock', which is all
 * the kernel's update on this CPU needs (perf_event_open(2), the seqlock
 * loop). Only 'lock' and 'index' are read as volatile: the barriers already
 * force fresh loads of the rest, and a volatile u16 load costs gcc a needless
 * zero-extension on arm64, one instruction in a read of about twenty.
 */
#define selfmon_barrier() __asm__ __volatile__("" ::: "memory")

/*
 * The start of one seqlock iteration: @seq = lock, then @idx = index, each
 * loaded exactly once, as volatile, so that the index checked is the index
 * the counter read takes (a plain load could be repeated between the two,
 * and see another value). An arch may load both with one instruction (arm64:
 * ldp): they are adjacent, and an update by the kernel on this CPU lands
 * between two instructions, never inside one.
 */
#ifndef selfmon_arch_load_lock_index
#define selfmon_arch_load_lock_index(p, seq, idx) \
	do {                                      \
		(seq) = (p)->lock;                \
		selfmon_barrier();                \
		(idx) = (p)->index;               \
	} while (0)
#endif

#ifndef SELFMON_ARCH_FIXED_PAGE
/* 1 where the kernel fixes cap_user_rdpmc and pmc_width for an event's life (arch.h says why). */
#define SELFMON_ARCH_FIXED_PAGE 0
#endif

/* The shared bodies of the reads below, and the library's own: not API. */
#include <selfmon/priv/read.h>

/**
 * selfmon_page__read_value() - the cheapest read: the raw event count
 * @pc: the counter's mmap page
 * @value: the count (the same quantity read(2) returns for this event)
 * Return: 0, or -EAGAIN when the page allows no user-space read now.
 */
SELFMON_HOT int selfmon_page__read_value(const struct perf_event_mmap_page *pc, uint64_t *value)
{
	return selfmon_priv_page_read_value(pc, value, SELFMON_ARCH_INDEX_GATES_READ);
}

/**
 * selfmon_page__read_value32() - selfmon_page__read_value() of a page the
 * caller saw once with cap_user_rdpmc set and a pmc_width of 32
 * @pc: the counter's mmap page
 * @value: the count (the same quantity read(2) returns for this event)
 *
 * Where the kernel keeps both for the event's life (SELFMON_ARCH_FIXED_PAGE:
 * arm64), the seqlock loop reads the index, the offset and the counter alone,
 * and sign-extends the counter's low 32 bits as it adds them: 13
 * instructions on arm64 against 16. Elsewhere (x86, where a sysfs
 * switch takes cap_user_rdpmc away at run time) it is
 * selfmon_page__read_value(), which tests both at each read.
 * Return: 0, or -EAGAIN when the page allows no user-space read now.
 */
SELFMON_HOT int selfmon_page__read_value32(const struct perf_event_mmap_page *pc, uint64_t *value)
{
	return selfmon_priv_page_read_fixed(pc, value, 32);
}

/**
 * selfmon_page__read_value64() - selfmon_page__read_value32() of a page
 * seen once with a pmc_width of 64: the counter needs no sign extension.
 * Return: 0, or -EAGAIN when the page allows no user-space read now.
 */
SELFMON_HOT int selfmon_page__read_value64(const struct perf_event_mmap_page *pc, uint64_t *value)
{
	return selfmon_priv_page_read_fixed(pc, value, 64);
}

/**
 * selfmon_page__read_steady() - selfmon_page__read() of an event that has
 * run all the time it was enabled, the usual case: no timestamp read
 * Return: 0, -EAGAIN when the page allows no user-space read now, or 1 when
 * the event was multiplexed and its times must be brought up to now: then
 * nothing was read, and selfmon_page__read() does it. A caller that reads in
 * a loop keeps that rarer path out of line this way.
 */
SELFMON_HOT int selfmon_page__read_steady(const struct perf_event_mmap_page *pc,
					  struct selfmon_count *c)
{
	return selfmon_priv_page_read_times(pc, c, 0);
}

/**
 * selfmon_page__read() - count plus enabled and running times
 *
 * The times are those of the kernel's last update of the page, unless the
 * event has been off its counter for a while (time_enabled != time_running,
 * multiplexing) and the page offers cap_user_time: then they are brought up
 * to now from the CPU's timestamp counter, as perf_event_open(2)'s example
 * of a self-monitoring read does ("MMAP layout"), so that value, enabled and
 * running scale together. An event that has run all the time it was enabled
 * is running now too (index != 0): both times moved alike since the update,
 * their ratio is 1, and reading the timestamp would only cost instructions.
 * Return: 0, or -EAGAIN when the page allows no user-space read now.
 */
SELFMON_HOT int selfmon_page__read(const struct perf_event_mmap_page *pc, struct selfmon_count *c)
{
	int err = selfmon_page__read_steady(pc, c);

	return err == 1 ? selfmon_priv_page_read_timed(pc, c) : err;
}

#endif /* SELFMON_READ_H */
