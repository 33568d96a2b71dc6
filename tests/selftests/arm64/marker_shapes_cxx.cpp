// SPDX-License-Identifier: MIT
/*
 * The scope shapes of marker_shapes.c in C++, with SELFMON_MARKER_REGION()
 * (<selfmon/marker.hpp>), and pairs in lambdas: built by g++ and clang++ at each optimization
 * level (scripts/mk/markers.mk), -fno-exceptions and no C++ library, so
 * that the C test links it. Each region must count what the pair counts.
 */
#include <selfmon/marker.hpp>
extern "C" {
#include "marker_shapes.h"
}

#define GLUE_(a, b) a##b
#define GLUE(a, b) GLUE_(a, b)
#define NAME(shape) SHAPES_TAG "/" shape

#define R3() __asm__ __volatile__("nop\n\tnop\n\tnop")
#define R3001() \
	__asm__ __volatile__("mov x9, #1000\n1:\tnop\n\tsubs x9, x9, #1\n\tb.ne 1b" ::: "x9", "cc")

static __attribute__((noinline)) void scope3()
{
	SELFMON_MARKER_REGION(NAME("scope 3"));
	R3();
}

static __attribute__((noinline)) void scope_break3001(int n)
{
	for (int i = 0;; i++) {
		SELFMON_MARKER_REGION(NAME("scope break 3001"));
		R3001();
		if (i == n - 1)
			break;
	}
}

static __attribute__((noinline)) void scope_nested(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN(NAME("scope outer"));
		R3001();
		{
			SELFMON_MARKER_REGION(NAME("scope inner 3"));
			R3();
		}
		SELFMON_MARKER_END(NAME("scope outer"));
	}
}

/*
 * Pairs inside lambdas, called from a loop: one without captures, one that
 * counts its calls in a captured variable (outside its region). Each is a
 * member function of a class local to its function, which the compiler
 * inlines into the loop from -O1 on and calls at -O0.
 */
static __attribute__((noinline)) int lambdas(int n)
{
	int calls = 0;
	auto three = [] {
		SELFMON_MARKER_BEGIN(NAME("lambda 3"));
		R3();
		SELFMON_MARKER_END(NAME("lambda 3"));
	};
	auto counted = [&calls] {
		SELFMON_MARKER_BEGIN(NAME("lambda 3001"));
		R3001();
		SELFMON_MARKER_END(NAME("lambda 3001"));
		calls++;
	};

	for (int i = 0; i < n; i++) {
		three();
		counted();
	}
	return calls;
}

/*
 * The by-name form of a string literal in C++ is the same fixed sequence as
 * in C (<selfmon/marker.h>): in a lambda and in a loop, each region its
 * known count. A name made at run time takes the sequence of a name in a
 * register, beside it, and so does a region object by name
 * (selfmon::marker_region), 10 times each: from -O1 on each counts what a
 * literal's pair counts.
 */
static __attribute__((noinline)) void named(int n)
{
	auto three = [] {
		selfmon_marker__begin(NAME("lambda by name 3"));
		R3();
		selfmon_marker__end(NAME("lambda by name 3"));
	};
	char buf[64];

	for (int i = 0; i < n; i++) {
		three();
		selfmon_marker__begin(NAME("by name loop 3001"));
		R3001();
		selfmon_marker__end(NAME("by name loop 3001"));
	}
	__builtin_memcpy(buf, NAME("run-time name"), sizeof(NAME("run-time name")));
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(buf);
		R3();
		selfmon_marker__end(buf);
	}
	__builtin_memcpy(buf, NAME("region object by name 3001"), sizeof(NAME("region object by name 3001")));
	for (int i = 0; i < n; i++) {
		selfmon::marker_region r(buf);
		R3001();
	}
}

static void scoped()
{
	scope3();
	scope3();
	scope_break3001(2);
	scope_nested(10);
	lambdas(10);
	named(10);
}

extern "C" const struct shapes GLUE(shapes_, SHAPES_ID) = { SHAPES_TAG, nullptr, nullptr, nullptr,
							    scoped };
