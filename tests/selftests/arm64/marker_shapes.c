// SPDX-License-Identifier: MIT
/*
 * Markers at every call-site shape a program gives them, for
 * marker_exact_test: built once per compiler and optimization level, with
 * SHAPES_ID naming the table and SHAPES_TAG its regions. Each region's own
 * instructions are inline asm, so that the known count does not depend on
 * the compiler; everything around the pairs (the loops, the calls, the
 * registers) is the compiler's, as in a program.
 */
#include <selfmon/marker.h>
#include "marker_shapes.h"

#define GLUE_(a, b) a##b
#define GLUE(a, b) GLUE_(a, b)
#define NAME(shape) SHAPES_TAG "/" shape

#define R3() __asm__ __volatile__("nop\n\tnop\n\tnop")
#define R3001() \
	__asm__ __volatile__("mov x9, #1000\n1:\tnop\n\tsubs x9, x9, #1\n\tb.ne 1b" ::: "x9", "cc")
#define R3M()                                                                         \
	__asm__ __volatile__("movz x9, #0x423f\n\tmovk x9, #0xf, lsl #16\n\tnop\n"    \
			     "1:\tnop\n\tsubs x9, x9, #1\n\tb.ne 1b" ::: "x9", "cc")

#define ALONE(fn, shape, body)                             \
	static __attribute__((noinline)) void fn(void)     \
	{                                                  \
		SELFMON_MARKER_BEGIN(NAME(shape));         \
		body;                                      \
		SELFMON_MARKER_END(NAME(shape));           \
	}

ALONE(alone0, "alone 0", )
ALONE(alone3, "alone 3", R3())
ALONE(alone3001_once, "alone 3001", R3001())
ALONE(alone3m, "alone 3000000", R3M())

static __attribute__((noinline)) void named3(void)
{
	selfmon_marker__begin(NAME("by name 3"));
	R3();
	selfmon_marker__end(NAME("by name 3"));
}

static __attribute__((noinline)) void named3001(void)
{
	selfmon_marker__begin(NAME("by name 3001"));
	R3001();
	selfmon_marker__end(NAME("by name 3001"));
}

/*
 * A name in a buffer, in a loop: the name in a register the calls keep,
 * from -O1 on across the whole region; at -O0 gcc's asm reads it from its
 * stack slot, and clang loads it into that register inside the region.
 */
static __attribute__((noinline)) void buffer3001(const char *name, int n)
{
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(name);
		R3001();
		selfmon_marker__end(name);
	}
}

static __attribute__((noinline)) void loop3(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("loop 3"));
		R3();
		SELFMON_MARKER_END(NAME("loop 3"));
	}
}

static __attribute__((noinline)) void loop0(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("loop 0"));
		SELFMON_MARKER_END(NAME("loop 0"));
	}
}

static __attribute__((noinline)) void loop3001(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("loop 3001"));
		R3001();
		SELFMON_MARKER_END(NAME("loop 3001"));
	}
}

static __attribute__((noinline)) void named_loop3(int n)
{
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(NAME("by name loop 3"));
		R3();
		selfmon_marker__end(NAME("by name loop 3"));
	}
}

static __attribute__((noinline)) void two_sites(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("two 3"));
		R3();
		SELFMON_MARKER_END(NAME("two 3"));
		SELFMON_MARKER_BEGIN(NAME("two 3001"));
		R3001();
		SELFMON_MARKER_END(NAME("two 3001"));
	}
}

static __attribute__((noinline)) void nested(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("outer"));
		R3001();
		SELFMON_MARKER_BEGIN(NAME("inner 3"));
		R3();
		SELFMON_MARKER_END(NAME("inner 3"));
		SELFMON_MARKER_END(NAME("outer"));
	}
}

static __attribute__((noinline)) void alone3001(int n)
{
	for (int i = 0; i < n; i++)
		alone3001_once();
}

/* The scope form: alone, left by a break, and inside an outer pair (its whole cost in the outer). */
static __attribute__((noinline)) void scope3(void)
{
	SELFMON_MARKER_SCOPE(NAME("scope 3"));
	R3();
}

/*
 * Left by a break alone: a conditional break's test and branch are the
 * block's own instructions, inside the region (docs/markers.md, "The
 * scope forms, and C++").
 */
static __attribute__((noinline)) void scope_break3001(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_SCOPE(NAME("scope break 3001"));
		R3001();
		break;
	}
}

static __attribute__((noinline)) void scope_nested(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("scope outer"));
		R3001();
		{
			SELFMON_MARKER_SCOPE(NAME("scope inner 3"));
			R3();
		}
		SELFMON_MARKER_END(NAME("scope outer"));
	}
}

static void scoped(void)
{
	scope3();
	scope3();
	scope_break3001(1);
	scope_break3001(1);
	scope_nested(10);
}

static void run(void)
{
	char buf[64];

	__builtin_memcpy(buf, NAME("buffer 3001"), sizeof(NAME("buffer 3001")));
	buffer3001(buf, 1);
	buffer3001(buf, 10);
	for (int i = 0; i < 2; i++) {
		alone0();
		alone3();
		alone3001_once();
		alone3m();
		named3();
		named3001();
	}
	loop3(2);
	loop3(1000);
	loop0(1000);
	loop3001(2);
	named_loop3(1000);
	two_sites(100);
}

const struct shapes GLUE(shapes_, SHAPES_ID) = { SHAPES_TAG, run, nested, alone3001, scoped };
