// SPDX-License-Identifier: MIT
/*
 * The library's own empty pairs, one of each form, written as a program
 * writes them: what they count is what a pair adds to a region, measured
 * when a thread opens its counters and subtracted (marker.c).
 *
 * A file of their own: a call to a function defined in the same file binds
 * there (-fno-semantic-interposition), and through libselfmon.so the
 * by-name pair would then run one instruction fewer than a program's,
 * whose calls go through its PLT. From here they are calls to another file,
 * which go through the library's PLT as a program's do (the symbols of
 * build/libselfmon.dynlist stay preemptible), and bind directly in the
 * archive, as a static program's do.
 */
#include <selfmon/marker.h>
#include "marker_int.h"

/*
 * gcc may pad a label that several paths join with nops that the hot path
 * runs (loop alignment): a program's pair is seldom padded, so neither is
 * the empty pair measured here.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define MK_UNPADDED __attribute__((optimize("align-loops=1", "align-jumps=1", "align-labels=1")))
#else
#define MK_UNPADDED
#endif

__attribute__((noinline)) MK_UNPADDED void mk_empty_cached(void)
{
	SELFMON_MARKER_BEGIN(MK_EMPTY);
	SELFMON_MARKER_END(MK_EMPTY);
}

__attribute__((noinline)) void mk_empty_named(void)
{
	selfmon_marker__begin(MK_EMPTY);
	selfmon_marker__end(MK_EMPTY);
}
