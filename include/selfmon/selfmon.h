/* SPDX-License-Identifier: MIT */
/*
 * selfmon: a thread reads its own hardware performance counters from user
 * space (rdpmc on x86_64, mrs on arm64) through the perf_event mmap page,
 * with read(2) as the fallback.
 *
 * Naming: selfmon_<object>__<verb>(), as in libperf. Integer functions return
 * 0 or a negative errno (or -SELFMON_ERRNO__*); constructors return NULL and
 * set errno. selfmon_errmsg() then says what went wrong and how to fix it.
 */
#ifndef SELFMON_SELFMON_H
#define SELFMON_SELFMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_event_mmap_page;
struct perf_event_attr;
struct selfmon_machine;

/** An event set: counters opened together for the calling thread. Opaque. */
struct selfmon_set;

/** Errors of selfmon's own, beyond errno; negated like errno values. */
enum {
	SELFMON_ERRNO__START = 4000,
	/** The set was opened in the parent process: perf mmap pages are not inherited by fork(). */
	SELFMON_ERRNO__FORKED = SELFMON_ERRNO__START,
	/** The set was used from a thread other than the one that opened it. */
	SELFMON_ERRNO__THREAD,
	/** The event string does not parse. */
	SELFMON_ERRNO__SYNTAX,
	/**
	 * The event string parses but names nothing here: an unknown generic
	 * name, a PMU that is not in sysfs, or a term or alias the PMU lacks.
	 * (A kernel that refuses a well-named event gives its own errno.)
	 */
	SELFMON_ERRNO__NOEVENT,
	/**
	 * A pinned event or group (":D") could not be put on the PMU: the kernel
	 * keeps it in error state and it counts nothing until it is disabled and
	 * enabled again (perf_event_open(2), "pinned").
	 */
	SELFMON_ERRNO__PINNED,
	SELFMON_ERRNO__END,
};

/** How a counter is read. */
enum selfmon_path {
	SELFMON_PATH_USER = 1, /**< rdpmc / mrs through the mmap page */
	SELFMON_PATH_SYSCALL = 2, /**< read(2) on the event's fd */
};

/** Why a counter is read with read(2) and not from user space. */
enum selfmon_reason {
	SELFMON_REASON_NONE = 0, /**< not read(2): the user-space read works */
	SELFMON_REASON_ARCH, /**< this build's architecture has no user-space read */
	SELFMON_REASON_CONFIG, /**< turned off: CONFIG_USER_READ=n, SELFMON_NO_USER_READ or an option */
	SELFMON_REASON_SOFTWARE, /**< a software event: the kernel counts it, no register holds it */
	SELFMON_REASON_NO_PMU, /**< no hardware PMU serves the event */
	SELFMON_REASON_NOT_CPU_PMU, /**< the event's PMU is not a CPU PMU (uncore, msr, ...) */
	SELFMON_REASON_NO_FORMAT, /**< the PMU's sysfs format/ has no 'rdpmc' bit */
	SELFMON_REASON_SYSCTL, /**< arm64: /proc/sys/kernel/perf_user_access is 0 */
	SELFMON_REASON_NO_SYSCTL, /**< arm64: kernel has no perf_user_access (before 5.17) */
	SELFMON_REASON_SYSFS_RDPMC, /**< x86: the PMU's sysfs 'rdpmc' file is 0 */
	SELFMON_REASON_CAP, /**< the mmap page says cap_user_rdpmc = 0 */
	SELFMON_REASON_INDEX, /**< the mmap page says index = 0 (not on a counter now) */
	SELFMON_REASON_MMAP, /**< mmap of the event failed */
	SELFMON_REASON_HETEROGENEOUS, /**< unpinned on big.LITTLE/hybrid: counted on every core PMU, summed */
	SELFMON_REASON_OFF_CLUSTER, /**< the thread runs outside the cluster its counters belong to */
	SELFMON_REASON__MAX,
};

/** SELFMON_COUNT_* bits of selfmon_count.flags */
#define SELFMON_COUNT_USER (1u << 0) /**< this value came from rdpmc / mrs */
#define SELFMON_COUNT_SCALED (1u << 1) /**< selfmon_count__scale() extrapolated it */

/** One reading of a counter. Times are in nanoseconds. */
struct selfmon_count {
	uint64_t value; /**< events counted (not scaled) */
	uint64_t enabled; /**< time the event was enabled */
	uint64_t running; /**< time it was on a hardware counter */
	uint32_t flags; /**< SELFMON_COUNT_* */
	uint32_t reason; /**< enum selfmon_reason: why not user space */
};

/** Options for selfmon_set__open(); zero-fill, set .sz = sizeof. NULL means defaults. */
struct selfmon_opts {
	size_t sz;
	/** Replaces "/" for /sys and /proc (tests); NULL: $SELFMON_SYSFS_ROOT or "/". */
	const char *root;
	/** 1: never read from user space (read(2) only). */
	int no_user_read;
	/** 1: do not ask arm64 PMUs for 64-bit counters. */
	int no_long;
	/**
	 * Where to pin the thread: "none", "current", "big", "little", a core
	 * PMU's name or a CPU list; NULL: $SELFMON_PIN, else CONFIG_PIN_POLICY.
	 */
	const char *pin;
	/**
	 * A machine view (<selfmon/machine.h>) to open on, instead of reading
	 * the PMUs and clusters from sysfs again: a caller that opens many sets
	 * loads it once. Its root replaces @root. NULL: read sysfs.
	 */
	const struct selfmon_machine *machine;
};

/**
 * selfmon_set__open() - open events for the calling thread
 * @events: comma-separated events: generic names ("cycles", "instructions",
 *	"task-clock", ...), raw "rNNNN", or PMU terms "pmu/alias/" and
 *	"pmu/term=value,.../"; each may end in ":ukhHG" modifiers, and ":D"
 *	(pinned) or ":e" (exclusive). Braces make a group, as perf writes it:
 *	"{cycles:u,instructions:u}", with modifiers for every member after the
 *	brace ("{cycles,instructions}:u"; D and e go to the whole group).
 *	A library built without groups (CONFIG_GROUPS=n, as the smallest
 *	image's) refuses braces with -EOPNOTSUPP.
 * @opts: NULL or options.
 *
 * Counters start disabled: call selfmon_set__enable().
 * Return: the set, or NULL with errno set; selfmon_errmsg() says why.
 */
struct selfmon_set *selfmon_set__open(const char *events, const struct selfmon_opts *opts);

/**
 * selfmon_events__next() - the next item of an event list, as
 * selfmon_set__open() reads it: one event, or one whole group "{...}:mods"
 * @cursor: in: where to start (the list itself at first); out: past the item
 * @item: the item, blanks trimmed, for example to open it alone
 * @size: room in @item (SELFMON_EVENT_NAME_MAX fits any event)
 *
 * Return: 1 with an item, 0 at the end of the list, or -SELFMON_ERRNO__SYNTAX
 * (unbalanced '/' or braces, a nested group, an empty item), -ENAMETOOLONG
 * or -EINVAL (a NULL argument). It does not look the events up: that is
 * selfmon_set__open()'s part.
 */
int selfmon_events__next(const char **cursor, char *item, size_t size);

/** Longest event (or group) string selfmon_set__open() takes in one piece, with its NUL. */
#define SELFMON_EVENT_NAME_MAX 128

/** selfmon_set__close() - close the counters and free the set. NULL is fine. */
void selfmon_set__close(struct selfmon_set *set);

/** selfmon_set__enable() - start counting. Return: 0 or -errno. */
int selfmon_set__enable(struct selfmon_set *set);

/** selfmon_set__disable() - stop counting. Return: 0 or -errno. */
int selfmon_set__disable(struct selfmon_set *set);

/**
 * selfmon_set__reset() - make later reads count from now. Values, enabled and
 * running times are all taken relative to this point. Return: 0 or -errno.
 */
int selfmon_set__reset(struct selfmon_set *set);

/** selfmon_set__nr() - number of counters in the set. */
int selfmon_set__nr(const struct selfmon_set *set);

/** selfmon_set__name() - the event string of counter @idx as given, or NULL. */
const char *selfmon_set__name(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__read() - read counter @idx into @count
 *
 * Reads from user space when the mmap page allows it, else with read(2);
 * @count->flags and @count->reason say which and why. Both give the same
 * quantity: events since the last selfmon_set__reset() (or open).
 * Return: 0 or -errno (-EINVAL for a NULL @set or @count, or a bad @idx).
 */
int selfmon_set__read(struct selfmon_set *set, int idx, struct selfmon_count *count);

/**
 * selfmon_set__read_raw() - read counter @idx as the inline read does
 *
 * The raw event count, with no baseline: the same quantity
 * selfmon_page__read_value() gives, so that a region may be read inline at
 * one end and by this function at the other (after -EAGAIN). Like
 * selfmon_set__read() it reads from user space when the page allows it, else
 * with read(2), and @count->flags and @count->reason say which.
 * selfmon_set__reset() does not change what it returns.
 * Return: 0 or -errno (-EINVAL for a NULL @set or @count, or a bad @idx).
 */
int selfmon_set__read_raw(struct selfmon_set *set, int idx, struct selfmon_count *count);

/**
 * selfmon_set__read_syscall() - read counter @idx with read(2) on its fd,
 * whatever the page allows: the reference the user-space read must match.
 * Return: 0 or -errno (-EINVAL for a NULL @set or @count, or a bad @idx).
 */
int selfmon_set__read_syscall(struct selfmon_set *set, int idx, struct selfmon_count *count);

/**
 * selfmon_set__read_raw_all() - every counter as selfmon_set__read_raw()
 * reads one, each group from one instant (all by their pages, or all by the
 * group's one read(2)), as selfmon_set__read_all() does: the fallback of a
 * region read inline. @counts has selfmon_set__nr() entries.
 * Return: 0 or -errno.
 */
int selfmon_set__read_raw_all(struct selfmon_set *set, struct selfmon_count *counts);

/**
 * selfmon_set__attr() - the perf_event_attr counter @idx was opened with
 * (PMU type, config, format bits, modifiers), as libperf's perf_evsel__attr()
 * gives it: to open the same event elsewhere. NULL for a bad @idx.
 */
const struct perf_event_attr *selfmon_set__attr(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__counts_instructions() - whether counter @idx counts
 * instructions retired, as told by the perf_event_attr it was opened with
 * (selfmon_set__attr()), never by its name: the generic "instructions", or
 * a core PMU's own event of that number ("r08", "armv8_pmuv3_0/inst_retired/"
 * on arm64; "r00c0", "cpu/event=0xc0/" on x86_64, and on Intel fixed counter
 * 0's "INST_RETIRED.ANY", event 0 umask 1). Such a count only grows
 * with noise (an interrupt, a page fault), so its least repetition is the
 * truest.
 * Return: 1 it does, 0 it does not, -EINVAL for a NULL @set or a bad @idx.
 */
int selfmon_set__counts_instructions(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__group() - the group of counter @idx: the index of its leader
 * (itself for a leader), or -1 for a lone event; -EINVAL for a bad @idx.
 * A group "{a,b,...}" is opened as one perf group: its members are
 * scheduled on the PMU together, enabled, disabled and reset as one, and
 * selfmon_set__read_all() reads them from one instant: all from user space,
 * or, when one page refuses, all with one read(2) (PERF_FORMAT_GROUP).
 */
int selfmon_set__group(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__read_group() - read the whole group of counter @idx with one
 * read(2) (PERF_FORMAT_GROUP): every member from one instant, whatever the
 * pages allow; the reference a group's user-space reads must match.
 * @counts: selfmon_set__group()'s leader first, one entry per member, in set
 *	order; counts since selfmon_set__reset(), as selfmon_set__read() gives.
 * Return: 0, -EINVAL (@idx is in no group), -SELFMON_ERRNO__PINNED (a
 * pinned group the PMU could not schedule) or -errno.
 */
int selfmon_set__read_group(struct selfmon_set *set, int idx, struct selfmon_count *counts);

/**
 * selfmon_set__read_all() - read every counter; @counts has selfmon_set__nr() entries.
 * Return: 0 or -errno (-EINVAL for a NULL @set or @counts).
 */
int selfmon_set__read_all(struct selfmon_set *set, struct selfmon_count *counts);

/**
 * selfmon_set__path() - which read path counter @idx takes now
 * @why: if not NULL, set to the reason for SELFMON_PATH_SYSCALL.
 *
 * Before selfmon_set__enable() this is the path the gates allow; after it,
 * the page's current index counts too.
 * Return: SELFMON_PATH_USER, SELFMON_PATH_SYSCALL, or -errno.
 */
int selfmon_set__path(const struct selfmon_set *set, int idx, enum selfmon_reason *why);

/**
 * selfmon_set__pmc_width() - bit width of counter @idx's register as the
 * kernel reports it (pmc_width), or 0 when it has none.
 */
int selfmon_set__pmc_width(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__pmu() - the core PMU whose CPUs the set's thread is pinned to
 * (and whose type its hardware events were opened with), or NULL if unpinned.
 */
const char *selfmon_set__pmu(const struct selfmon_set *set);

/**
 * selfmon_set__note() - what selfmon changed while opening counter @idx and
 * why (e.g. a 64-bit counter the PMU refused, opened as 32-bit), or NULL.
 */
const char *selfmon_set__note(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__page() - the mmap page of counter @idx, for the inline reads
 * of <selfmon/read.h>; NULL when this counter has no user-space read.
 * Valid until selfmon_set__close(), in the opening thread only.
 * The inline reads (selfmon_page__read_value(), selfmon_page__read()) are the
 * hot path and check nothing: a NULL page or result pointer is undefined
 * behaviour there. Check this function's result once, outside the region;
 * the selfmon_set__read*() functions check every argument (-EINVAL).
 */
const struct perf_event_mmap_page *selfmon_set__page(const struct selfmon_set *set, int idx);

/**
 * selfmon_set__fallbacks() - how many reads of counter @idx fell back to
 * read(2) because the page said index = 0 at that moment (multiplexing,
 * migration). Return: the number, or -errno.
 */
int64_t selfmon_set__fallbacks(const struct selfmon_set *set, int idx);

/**
 * selfmon_count__scale() - estimate the full count of a multiplexed counter
 * @scaled: value * enabled / running
 * Return: 0 if @count ran all the time it was enabled (@scaled = value),
 * 1 if it was scaled, -ENODATA if it never ran (@scaled = 0), -EOVERFLOW if
 * the estimate exceeds 64 bits (@scaled = UINT64_MAX, saturated: never a
 * wrapped value), -EINVAL if either argument is NULL (@scaled untouched).
 */
int selfmon_count__scale(const struct selfmon_count *count, uint64_t *scaled);

/** selfmon_reason__str() - one line saying what @reason means. */
const char *selfmon_reason__str(enum selfmon_reason reason);

/**
 * selfmon_reason__fix() - the command that removes @reason (for example
 * "sysctl -w kernel.perf_user_access=1"), or NULL if no command does.
 */
const char *selfmon_reason__fix(enum selfmon_reason reason);

/**
 * selfmon_strerror() - text for a negative or positive errno or SELFMON_ERRNO__*;
 * "unknown error" for INT_MIN, whose negation is no int. An errno's text
 * is strerror(3)'s, or in a build without CONFIG_ERRNO_TEXT (Kconfig) its
 * name ("EACCES") or "errno N"; valid until this thread's next call.
 */
const char *selfmon_strerror(int err);

/**
 * selfmon_errmsg() - the detailed message of the last failed selfmon call in
 * this thread: the cause and the fix. Empty string if none.
 */
const char *selfmon_errmsg(void);

/**
 * selfmon_errmsg__set() - leave the message selfmon_errmsg() returns next in
 * this thread, as selfmon's own calls do on failure
 * @err: returned unchanged, so that "return selfmon_errmsg__set(-EINVAL, ...)"
 *	fails and explains in one step
 * @fmt: printf format of the message: the cause and the fix
 *
 * For code built on selfmon (the bench driver of <selfmon/bench.h>, a
 * harness of your own) whose callers read one place for every failure.
 * Return: @err.
 */
int selfmon_errmsg__set(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** selfmon_version() - "MAJOR.MINOR.PATCH" of the library. */
const char *selfmon_version(void);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_SELFMON_H */
