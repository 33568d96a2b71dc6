/* SPDX-License-Identifier: MIT */
/*
 * The call-site shapes of marker_exact_test: tests/selftests/arm64/
 * marker_shapes.c compiled once by each compiler at each optimization level
 * (scripts/mk/markers.mk), each build a table of its own. Its regions are
 * named "<tag>/<shape>", where the tag names the build ("gcc-O2").
 */
#ifndef SELFMON_TESTS_MARKER_SHAPES_H
#define SELFMON_TESTS_MARKER_SHAPES_H

/* Known counts: the regions' own instructions (inline asm, nothing for the compiler to set up). */
enum {
	SHAPE_R3001 = 3001,	/* mov, then 1000 times nop, subs, b.ne */
	SHAPE_R3M = 3000000,	/* movz, movk, nop, then 999,999 times nop, subs, b.ne */
	SHAPE_THREADS = 8,
};

struct shapes {
	const char *tag;
	/*
	 * Every shape of one thread, once: each region alone in its function
	 * (0, 3, 3001 and 3,000,000 instructions, twice each; by name 3 and
	 * 3001), in a loop of 2 and of 1000 iterations, two sites in one loop
	 * (100 times), by name in a loop (1000 times).
	 */
	void (*run)(void);
	/* An outer region of 3001 holding an inner pair of 3, @n times. */
	void (*nested)(int n);
	/* The 3001-instruction region alone, @n times: what each of the threads runs. */
	void (*alone3001)(int n);
	/*
	 * The scope forms, once: "scope 3" twice, "scope break 3001" twice
	 * (left by its block's end, then by a break), "scope outer" 10 times,
	 * each holding a whole "scope inner 3" (C: SELFMON_MARKER_SCOPE();
	 * C++: SELFMON_MARKER_REGION()); in C++ also "lambda 3" and
	 * "lambda 3001", pairs in two lambdas, 10 times each.
	 */
	void (*scoped)(void);
};

#define SHAPES_DECLARE(id) extern const struct shapes shapes_##id __attribute__((weak))
SHAPES_DECLARE(gcc_O0);
SHAPES_DECLARE(gcc_O2);
SHAPES_DECLARE(gcc_O3);
SHAPES_DECLARE(gcc_Os);
SHAPES_DECLARE(clang_O0);
SHAPES_DECLARE(clang_O2);
SHAPES_DECLARE(clang_O3);
SHAPES_DECLARE(clang_Os);
/* gcc's, optimized at link time (-flto). */
SHAPES_DECLARE(gcclto_O2);
SHAPES_DECLARE(gcclto_O3);
/* clang's, optimized at link time by lld (-flto): marker_exact_lto_test alone. */
SHAPES_DECLARE(clanglto_O2);
SHAPES_DECLARE(clanglto_O3);
/* marker_shapes_cxx.cpp, by g++ and clang++: its run(), nested() and alone3001() are NULL. */
SHAPES_DECLARE(gxx_O0);
SHAPES_DECLARE(gxx_O2);
SHAPES_DECLARE(gxx_O3);
SHAPES_DECLARE(gxx_Os);
SHAPES_DECLARE(clangxx_O0);
SHAPES_DECLARE(clangxx_O2);
SHAPES_DECLARE(clangxx_O3);
SHAPES_DECLARE(clangxx_Os);

#endif
