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
 * selfmon_marker__report(); <selfmon/marker_result.h> reads a region's
 * figures inside the program. Nothing here aborts or exits: a bad event, a
 * refusing PMU, an unbalanced end or a bad name gives one message on stderr
 * and the program runs on. docs/markers.md has the environment and the costs.
 */
#ifndef SELFMON_MARKER_H
#define SELFMON_MARKER_H

#include <stdint.h>
#include <selfmon/read.h>

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
	/** -1 in a site; a region keeps its index in the same place (the inline path reads it). */
	long id;
	/** The region's name. */
	const char *name;
};

/** Longest region name, without its NUL. */
#define SELFMON_MARKER_NAME_MAX 63
/** Most events the markers count. */
#define SELFMON_MARKER_EVENTS 8

/**
 * SELFMON_ABI_LAYOUT - the layout of the structs the inline pair reads
 * (struct selfmon_priv_marker_thread, struct selfmon_priv_marker_slot, both
 * in <selfmon/priv/marker.h>, which is not API; the first two words of
 * struct selfmon_marker_site), compiled into every call site.
 * Any change to them changes it (docs/abi.md). Code built against another
 * layout than the library's takes the library's path, and the library says
 * so once on stderr: the thread variable's name carries the layout (the
 * library keeps an older one pointing at a thread with no slots, whose
 * pages refuse), and selfmon_priv_marker_prepare() is given it.
 */
#define SELFMON_ABI_LAYOUT 1

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

/**
 * selfmon_marker__begin_const() - selfmon_marker__begin() of a name that
 * never changes at its address, a string literal: after the first call the
 * lookup compares the address alone, whatever the name's length (a name in
 * a buffer is compared in full, as the buffer may hold another name later).
 * selfmon_marker__begin() of a string literal is this call.
 */
void selfmon_marker__begin_const(const char *name);

/** selfmon_marker__end_const() - selfmon_marker__end() of a string literal, as selfmon_marker__begin_const(). */
void selfmon_marker__end_const(const char *name);

/*
 * A string literal takes the _const calls. Where the arch gives a fixed
 * sequence (SELFMON_ARCH_MARKER_NAMED: arm64 and x86_64, in C and C++), a
 * literal's call is one asm statement that makes its address and calls, so
 * that the code before the end's reads is the same at every site, whatever
 * the compiler does around it, and with markers off it makes no call.
 * Otherwise the end is never a tail call: the code between the begin's read
 * and the end's read is then the same as in the empty pair the library
 * subtracts. (selfmon_marker__begin) and (selfmon_marker__end) are the
 * functions themselves.
 */
#if defined(SELFMON_ARCH_MARKER_NAMED)
/*
 * A name that is no literal: the arch's sequence with the name in a
 * register (SELFMON_ARCH_MARKER_NAMED_ANY: x86_64, which tests markers off
 * first), else the plain call, never a tail call.
 */
#ifdef SELFMON_ARCH_MARKER_NAMED_ANY
#define SELFMON_PRIV_MARKER_ANY(name, fn) \
	__extension__({ SELFMON_ARCH_MARKER_NAMED_ANY(name, fn); })
#else
#define SELFMON_PRIV_MARKER_ANY(name, fn)         \
	__extension__({                           \
		(fn)(name);                       \
		__asm__ __volatile__("");         \
	})
#endif
#endif
#if defined(SELFMON_ARCH_MARKER_NAMED) && !defined(__cplusplus)
#define SELFMON_PRIV_MARKER_NAMED_C(name, cfn, fn)                                 \
	__builtin_choose_expr(SELFMON_PRIV_MARKER_LITERAL(name),                     \
			      __extension__({ SELFMON_ARCH_MARKER_NAMED(name, cfn); }), \
			      SELFMON_PRIV_MARKER_ANY(name, fn))
#define selfmon_marker__begin(name) \
	SELFMON_PRIV_MARKER_NAMED_C(name, selfmon_marker__begin_const, selfmon_marker__begin)
#define selfmon_marker__end(name) \
	SELFMON_PRIV_MARKER_NAMED_C(name, selfmon_marker__end_const, selfmon_marker__end)
#elif defined(SELFMON_ARCH_MARKER_NAMED) && (defined(__clang__) || __GNUC__ >= 10)
/*
 * C++ (the compilers of SELFMON_PRIV_MARKER_LITERAL(), <selfmon/priv/marker.h>):
 * the same choice, made by an if on a constexpr bool, whose other branch
 * neither compiler emits (at -O0 too); the literal's sequence is handed ""
 * where @name is no literal, so that it compiles in the branch not taken.
 */
#define SELFMON_PRIV_MARKER_NAMED_CXX(name, cfn, fn)                                        \
	__extension__({                                                                     \
		static constexpr bool selfmon_priv_literal_ = SELFMON_PRIV_MARKER_LITERAL(name); \
		if (selfmon_priv_literal_) {                                                \
			SELFMON_ARCH_MARKER_NAMED(selfmon_priv_literal_ ? (name) : "", cfn); \
		} else {                                                                    \
			SELFMON_PRIV_MARKER_ANY(name, fn);                                  \
		}                                                                           \
	})
#define selfmon_marker__begin(name) \
	SELFMON_PRIV_MARKER_NAMED_CXX(name, selfmon_marker__begin_const, selfmon_marker__begin)
#define selfmon_marker__end(name) \
	SELFMON_PRIV_MARKER_NAMED_CXX(name, selfmon_marker__end_const, selfmon_marker__end)
#else
#define selfmon_marker__begin(name)                                       \
	(__builtin_constant_p(name) ? selfmon_marker__begin_const(name) : \
				      (selfmon_marker__begin)(name))
#define selfmon_marker__end(name)                        \
	do {                                             \
		if (__builtin_constant_p(name))          \
			selfmon_marker__end_const(name); \
		else                                     \
			(selfmon_marker__end)(name);     \
		__asm__ __volatile__("");                \
	} while (0)
#endif

/**
 * selfmon_marker__begin_at() - selfmon_marker__begin() of a resolved region
 * (or of a struct selfmon_marker_site, which it resolves): the cached form
 * as a function; SELFMON_MARKER_BEGIN() does the same inline.
 */
void selfmon_marker__begin_at(struct selfmon_marker *marker) __attribute__((cold));

/** selfmon_marker__end_at() - selfmon_marker__end() of a resolved region or a site. */
void selfmon_marker__end_at(struct selfmon_marker *marker);

/**
 * selfmon_marker__report() - write the report of every region now, as at
 * exit: to $SELFMON_OUTPUT (else stderr), in $SELFMON_FORMAT (table, csv,
 * json; else the file's extension; else a table). Counting goes on.
 * Return: 0, 1 when markers are off or nothing was counted, or -errno.
 */
int selfmon_marker__report(void);

/* The inline pair's own structs, functions and macros: not API. */
#include <selfmon/priv/marker.h>

/*
 * The cached form: a struct selfmon_marker_site per call site, in the
 * section "selfmon_sites", holds its region; with markers off a pair costs
 * a load and a branch at each end. The library resolves every site of the
 * sections it knows when markers start (so a site's first use inside
 * another region costs that region nothing more than any later use): its
 * own object's, and those of each program and shared object that includes
 * this header (selfmon_priv_marker_module(), called at load); a site it
 * did not see (without the fixed sequence, g++'s in an inline function:
 * <selfmon/priv/marker.h>) at its first use.
 *
 * Where the arch gives a fixed sequence (SELFMON_ARCH_MARKER_CALL: arm64,
 * x86_64), each end is one asm statement that makes its site, loads it by its label
 * and calls the library: the instructions between a pair's two counter
 * reads are the library's and the same at every site, whatever the
 * compiler does around them, and the library measures them once and
 * subtracts them. Else the pair is inline C, and the empty asm keeps every
 * site's code around it alike as far as the compiler allows.
 */
#ifdef SELFMON_ARCH_MARKER_CALL
/**
 * SELFMON_MARKER_BEGIN() - begin region @name, the cached form
 * @name: the region, a string literal (at most SELFMON_MARKER_NAME_MAX bytes)
 *
 * Each use has a site of its own that caches the region, resolved at its
 * first call: later calls go to the region without a lookup, and read its
 * events (at most SELFMON_MARKER_EVENTS) from user space where the machine
 * allows, the events of $SELFMON_EVENTS. With markers off (SELFMON_EVENTS
 * empty) a begin is a load and a branch. End the region with
 * SELFMON_MARKER_END() of the same name in the same thread; regions nest and
 * interleave, and the same name in several places adds up. The report is
 * written at exit (or by selfmon_marker__report()); docs/markers.md.
 */
#define SELFMON_MARKER_BEGIN(name) SELFMON_ARCH_MARKER_CALL(name, selfmon_priv_marker_begin_call)
/**
 * SELFMON_MARKER_END() - end region @name, the cached form
 * @name: the region, the string literal its SELFMON_MARKER_BEGIN() gave
 *
 * Adds the events counted since the matching begin to the region's figures
 * for this thread. An unbalanced end gives one message on stderr and the
 * program runs on.
 */
#define SELFMON_MARKER_END(name) SELFMON_ARCH_MARKER_CALL(name, selfmon_priv_marker_end_call)
#else
/** Begin region @name (a string constant) with the cached form. */
#define SELFMON_MARKER_BEGIN(name) SELFMON_PRIV_MARKER_AT(selfmon_priv_marker_begin_inline, name)
/** End region @name (a string constant) with the cached form. */
#define SELFMON_MARKER_END(name) SELFMON_PRIV_MARKER_AT(selfmon_priv_marker_end_inline, name)
#endif

/**
 * SELFMON_MARKER_SCOPE() - begin region @name here and end it when the
 * enclosing block is left, however it is left
 * @name: the region, a string literal
 *
 * The block's end, return, break, continue and a goto out of it each end
 * the region, as the cleanup attribute of gcc and clang runs there (and,
 * in C++ with exceptions, when an exception leaves the block). The cached
 * form, as SELFMON_MARKER_BEGIN() and SELFMON_MARKER_END() around the rest
 * of the block: from -O1 on, the region counts what the pair's counts,
 * exactly on arm64 and x86_64; the begin's store of its region costs an enclosing
 * region one instruction more than a pair (docs/markers.md, "The scope
 * forms, and C++"). A declaration: it stands among the
 * block's statements, at most one a line (its variable is named by
 * __COUNTER__), and a goto may not jump past it into its block. C++ has
 * SELFMON_MARKER_REGION() (<selfmon/marker.hpp>).
 *
 *	for (i = 0; i < n; i++) {
 *		SELFMON_MARKER_SCOPE("step");
 *		if (done(i))
 *			break;		// "step" ends here
 *		step(i);
 *	}				// and here
 */
#define SELFMON_MARKER_SCOPE(name) \
	SELFMON_PRIV_MARKER_SCOPE(name, SELFMON_PRIV_MARKER_CAT(selfmon_priv_marker_scope_, __COUNTER__))

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_MARKER_H */
