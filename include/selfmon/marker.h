/* SPDX-License-Identifier: MIT */
/*
 * Markers: count named regions of any program, with the events of
 * $SELFMON_EVENTS, and get a report of every region at exit.
 *
 *	#include <selfmon/marker.h>
 *
 *	SELFMON_MARKER_BEGIN("solve");
 *	solve();
 *	SELFMON_MARKER_END("solve");
 *
 * Each thread opens its own counters at its first begin. Regions nest and
 * interleave; the same name in several places adds up. The report (table,
 * CSV or JSON, to stderr or $SELFMON_OUTPUT) is written at exit, or by
 * selfmon_marker__report(). Nothing here aborts or exits: a bad event, a
 * refusing PMU, an unbalanced end or a bad name gives one message on stderr
 * and the program runs on. docs/markers.md has the environment and the costs.
 */
#ifndef SELFMON_MARKER_H
#define SELFMON_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

/** A region, as the cached form resolves it. Opaque. */
struct selfmon_marker;

/**
 * One call site's cache of its region, for SELFMON_MARKER_BEGIN() and
 * SELFMON_MARKER_END(): a value the macros keep in a static; use the macros.
 */
struct selfmon_marker_site {
	/** The region; the site itself until its first use; NULL when markers are off. */
	struct selfmon_marker *marker;
	/** -1: tells a site apart from a region. */
	long unresolved;
	/** The region's name. */
	const char *name;
};

/** Longest region name, without its NUL. */
#define SELFMON_MARKER_NAME_MAX 63

/**
 * selfmon_marker__begin() - start counting region @name in this thread
 * @name: the region (at most SELFMON_MARKER_NAME_MAX bytes): the same name
 *	in several places is one region
 *
 * The by-name form: a lookup of @name at each call. Hot code uses
 * SELFMON_MARKER_BEGIN(), which looks it up once per call site.
 */
void selfmon_marker__begin(const char *name);

/** selfmon_marker__end() - end region @name in this thread, as begun by selfmon_marker__begin(). */
void selfmon_marker__end(const char *name);
/*
 * Never a tail call (see SELFMON_MARKER__AT below): the code between the
 * begin's read and this read is then the same as in the empty pair the
 * library subtracts. (selfmon_marker__end) is the function itself.
 */
#define selfmon_marker__end(name) do { (selfmon_marker__end)(name); __asm__ __volatile__(""); } while (0)

/**
 * selfmon_marker__begin_at() - selfmon_marker__begin() of a resolved region
 * (or of a struct selfmon_marker_site, which it resolves): the cached form
 * that SELFMON_MARKER_BEGIN() calls.
 */
void selfmon_marker__begin_at(struct selfmon_marker *marker);

/** selfmon_marker__end_at() - selfmon_marker__end() of a resolved region or a site. */
void selfmon_marker__end_at(struct selfmon_marker *marker);

/**
 * selfmon_marker__report() - write the report of every region now, as at
 * exit: to $SELFMON_OUTPUT (else stderr), in $SELFMON_FORMAT (table, csv,
 * json; else the file's extension; else a table). Counting goes on.
 * Return: 0, 1 when markers are off or nothing was counted, or -errno.
 */
int selfmon_marker__report(void);

/*
 * The cached form: a static per call site holds its region; with markers
 * off a pair costs a load and a branch at each end. The first use resolves
 * the site (and stores NULL when markers are off). The empty asm keeps the
 * call out of tail position, so that the code between a begin's read and
 * its end's read is the same at every site as in the empty pair the
 * library measures and subtracts.
 */
#define SELFMON_MARKER__AT(fn, name)							\
	do {										\
		static struct selfmon_marker_site selfmon_marker__site_ = {		\
			(struct selfmon_marker *)&selfmon_marker__site_, -1, (name) };	\
		struct selfmon_marker *selfmon_marker__m_ =				\
			__atomic_load_n(&selfmon_marker__site_.marker, __ATOMIC_RELAXED);	\
		if (__builtin_expect(selfmon_marker__m_ != 0, 1))			\
			fn(selfmon_marker__m_);						\
		/* Never a tail call: every site's code around the calls alike. */	\
		__asm__ __volatile__("");						\
	} while (0)

/** Begin region @name (a string constant) with the cached form. */
#define SELFMON_MARKER_BEGIN(name) SELFMON_MARKER__AT(selfmon_marker__begin_at, name)
/** End region @name (a string constant) with the cached form. */
#define SELFMON_MARKER_END(name) SELFMON_MARKER__AT(selfmon_marker__end_at, name)

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_MARKER_H */
