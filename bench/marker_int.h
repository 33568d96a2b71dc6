/* SPDX-License-Identifier: MIT */
/*
 * Markers inside the library: the regions, each thread's counts, and what
 * the report (marker_report.c) reads of them. The front end is marker.c.
 */
#ifndef SELFMON_BENCH_MARKER_INT_H
#define SELFMON_BENCH_MARKER_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <selfmon/marker.h>
#include <selfmon/metric.h>

/* Most events the markers count; most regions of one process. */
#define MK_EVENTS 8
#define MK_REGIONS 1024
#define MK_REGIONS_TEXT "1024"
_Static_assert(MK_REGIONS == 1024, "MK_REGIONS_TEXT names MK_REGIONS");

/* How a pair was begun: its empty-pair cost differs (calls, lookups). */
enum mk_form { MK_CACHED, MK_NAMED, MK_FORMS };

/*
 * A region: struct selfmon_marker. @id sits where a struct
 * selfmon_marker_site keeps -1, so that the fast path's one bounds check on
 * the id also sends a site that is not yet resolved the long way.
 */
struct selfmon_marker {
	void *tag; /* NULL: a site's first word is its own address */
	long id; /* index in the registry */
	char name[SELFMON_MARKER_NAME_MAX + 1];
	int said_unbalanced; /* said once: an end without a begin */
};

/* One region in one thread: struct selfmon_priv_marker_slot (<selfmon/marker.h>), raw differences; the report subtracts the empty pairs. */
_Static_assert(sizeof(struct selfmon_priv_marker_slot) == 512,
	       "a slot is 512 bytes: the inline path shifts");
_Static_assert(MK_EVENTS == SELFMON_MARKER_EVENTS,
	       "the public and the library's event limits agree");

/* A thread's counters and regions. */
struct mk_thread {
	/* What the inline path reads: the slots, the events' pages (nr_slots, slot, nr, pg). */
	struct selfmon_priv_marker_thread h;
	int fast;
	int inline_ok;
		/* fast, with one or two events: the inline pair serves it */ /* all_user and not timed: both ends read inline */
	int all_user; /* every counter has a page: try the inline reads */
	int pages32; /* the pages suit selfmon_page__read_value32() (<selfmon/read.h>) */
	int timed; /* the leader was multiplexed: read with times */
	int open; /* pairs still open at the last report */
	struct selfmon_set *set;
	pid_t tid;
	int exited;
	uint64_t overhead[MK_FORMS][MK_EVENTS]; /* empty pair, subtracted */
	uint64_t scope_extra[MK_EVENTS]; /* an empty scope pair over the empty pair: off each scope end */
	struct {
		const char *ptr;
		struct selfmon_marker *m;
	} cache[16]; /* by name */
	struct mk_thread *next;
};

/* The markers' shared state; marker.c owns it. */
struct mk_global {
	pthread_mutex_t lock;
	int state; /* MK_STATE_* */
	char events[256]; /* as opened */
	bool defaulted; /* SELFMON_EVENTS unset: the default, which task-clock may replace */
	char note[512]; /* said once at the first open; in the report */
	char read_path[160]; /* "inline", or "read(2): why", of the first thread */
	int nr; /* events */
	char event_name[MK_EVENTS][64];
	struct selfmon_marker *region[MK_REGIONS];
	int nr_regions;
	struct mk_thread *threads; /* every thread of this process that counted */
	struct selfmon_metrics *metrics; /* the "@name" items of SELFMON_EVENTS; NULL: none */
	/* A child forked while markers were on (@forked) and SELFMON_OUTPUT at its fork. */
	bool forked;
	char fork_output[4096];
};

enum { MK_STATE_NEW, MK_STATE_ON, MK_STATE_OFF };

extern struct mk_global mk;
/* A thread whose counters could not open: every call returns at once. */
extern struct mk_thread mk_dead;

/* marker_thread.c: the life cycle. */
/* Read SELFMON_EVENTS and register the exit, fork and thread-exit hooks, once. */
void mk_init(void);
/* The region called @name, made if new; NULL (said once) for a bad name or a full registry. */
struct selfmon_marker *mk_lookup(const char *name);
/* A region, or the region a site names (resolved and kept in the site); NULL when off. */
struct selfmon_marker *mk_resolve(struct selfmon_marker *m);
/* Room for region @id in @t's slots. Return: 0 or -ENOMEM. */
int mk_grow(struct mk_thread *t, long id);
/*
 * This thread's counters, opened at its first begin; NULL when markers are
 * off for it. *@opened is set true when this call opened them: the caller
 * (marker.c) then measures the thread's empty pairs (mk_calibrate()).
 */
struct mk_thread *mk_thread_get(bool *opened);

/* This thread's counters; NULL until its first begin. */
extern __thread struct mk_thread *mk_self;
/* No slots: what selfmon_priv_marker_self points to in a thread that does not read inline. */
extern struct selfmon_priv_marker_thread mk_none;
/* Markers off for the process (mk.state): every by-name site skips its call from now on. Caller holds mk.lock. */
void mk_set_off(void);
/* marker_module.c: the other objects' sites and by-name words (a program against libselfmon.so, a plugin). */
/* Bring them to the markers' state: with @resolve each site resolved, each word live unless off. Never under mk.lock. */
void mk_modules_apply(bool resolve);
/* Every one back to its first state, as mk_forget() does the library's own. Never under mk.lock. */
void mk_modules_reset(void);
/* Point selfmon_priv_marker_self at @t's slots if @t reads inline, else at mk_none. */
void mk_self_publish(struct mk_thread *t);
/* SELFMON_OUTPUT (secure_getenv(3)) into @to, "" if unset; cut to @size. */
void mk_copy_output(char *to, size_t size);
/* The library's own region (the empty pairs it measures): not reported. */
#define MK_EMPTY "selfmon:empty pair"
/* 1 for the library's own region. */
int mk_is_internal(const struct selfmon_marker *m);
/* Forget every region and thread (mk__reset()'s part below the hot paths). */
void mk_forget(void);

/* A begin that could not read: the depth says so, and the end drops the pair. */
#define MK_BAD (1 << 20)

/* marker.c: the hot paths, and the empty pair. */
/* Measure @t's empty pairs of each form into @t->overhead: after mk_thread_get() opened it. */
void mk_calibrate(struct mk_thread *t);
/* The region @*mp names (resolved in place), this thread's counters open, and room for it; NULL when off. */
struct mk_thread *mk_ready(struct selfmon_marker **mp);
/* marker_slow.c: the long way's reads, and the accounting. */
/* An end's figures, read inline or the long way, as mk_account() takes them. */
struct mk_end {
	uint64_t v[MK_EVENTS];
	uint64_t times[2];
	int slow; /* 1: read by read(2); -1: could not read */
};
/* The begin's read the long way into @s: a refused page, or a multiplexed set (with times). */
void mk_begin_read(struct mk_thread *t, struct selfmon_priv_marker_slot *s) __attribute__((cold));
/* An end's reads the long way into @e, first thing on that path; none where @t does not count. */
void mk_end_read(struct mk_thread *t, struct mk_end *e);
/* An end read into @e: resolve @m, check the nesting, account (after the reads: outside the region). */
void mk_end_account(struct selfmon_marker *m, struct mk_thread *t, const struct mk_end *e, int form);

/* marker_say.c: the messages. */
/* One message on stderr: "selfmon: markers: ...". */
void mk_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Once per process: code of another SELFMON_ABI_LAYOUT, @layout, takes the library's path. */
void mk_say_layout(int layout) __attribute__((cold));
/* @s quoted for a message or a table: at most @size - 1 bytes, control bytes as \xNN. */
const char *mk_quote(char *buf, size_t size, const char *s);
/* The library's last message, which may quote what the environment gave: no raw control bytes. */
const char *mk_errmsg(char *buf, size_t size);

/*
 * Forget every region and thread, and read SELFMON_EVENTS again at the next
 * marker: for a harness that runs many inputs in one process, one thread.
 * Sites resolved before keep regions that are freed: only names, not sites.
 */
void mk__reset(void);

/* marker_output.c: the report of every thread in @mk, to $SELFMON_OUTPUT in $SELFMON_FORMAT (at exit too). */
int mk_report_write(void);
/* marker_row.c: a region's figures, as the report and selfmon_marker__result() give them. */
/* One region's counts: a thread's, or the sum over threads. */
struct mk_row {
	uint64_t calls, fallbacks, enabled, running;
	/*
	 * Less the empty pair, as measured: a call that counted less than the
	 * empty pair reads below 0 (below the resolution), never floored.
	 */
	int64_t sum[MK_EVENTS], min[MK_EVENTS], max[MK_EVENTS];
	int threads;
};
/* Add @t's pairs of one region (@s) to @r, less @t's empty pair of each pair's form. Caller holds mk.lock. */
void mk_row_add(struct mk_row *r, const struct mk_thread *t, const struct selfmon_priv_marker_slot *s);
/* The totals of region @id over every thread of the process. Caller holds mk.lock. */
void mk_row_total(int id, struct mk_row *r);
/* Event @i's mean per call in @r (0 without calls). */
double mk_row_per_call(const struct mk_row *r, int i);
/* Whether a figure of @r fell below the empty pair: below the resolution. */
bool mk_row_below(const struct mk_row *r);
/* Whether thread @t counted region @id. */
bool mk_counted(const struct mk_thread *t, int id);
/*
 * Thread @t's number in region @id: 1 for the first thread (in the order
 * threads first began a region) that counted it, 2 for the next, and so on:
 * the N of the report's "region/thread:N". Caller holds mk.lock.
 */
int mk_thread_ordinal(const struct mk_thread *t, int id);
/* The thread whose number in region @id is @n; NULL: none. Caller holds mk.lock. */
const struct mk_thread *mk_thread_nth(int id, int n);
/*
 * Every row of the report, in its order: each region with calls (less the
 * library's own) as its totals (@t NULL), then each thread that counted it.
 * @fn returns nonzero to stop. Caller holds mk.lock.
 */
void mk_each_row(int (*fn)(void *ctx, int id, const struct mk_thread *t, const struct mk_row *r),
		 void *ctx);

/* marker_report.c: the report's formats. */
/* The report in @format ("table", "csv", "json") to @f; the caller holds mk.lock. */
int mk_report_to(FILE *f, const char *format);

#endif
