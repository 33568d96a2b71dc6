// SPDX-License-Identifier: MIT
/*
 * The call-site shapes that tests/check_marker_window.sh single-steps on
 * x86_64, built by each compiler at each optimization level. Each function
 * holds its pairs' regions, whose own instruction count its name gives
 * ("_r<N>": N instructions of inline asm, nothing for the compiler to set
 * up); the tracer names each pair by the function its begin returns into.
 * A nested outer region ("_outer") holds, besides its own 6, one whole
 * inner pair: the tracer compares its calls with each other.
 */
#include <selfmon/marker.h>

#define R3() __asm__ __volatile__("nop\n\tnop\n\tnop")
/* mov, then 1000 times nop, dec, jnz: 3001 instructions. */
#define R3001() __asm__ __volatile__("movl $1000, %%ecx\n1:\tnop\n\tdecl %%ecx\n\tjnz 1b" ::: "ecx", "cc")

static volatile int sink;

/* No pair: what a function costs by itself, beside which the pairs' cost with markers off shows. */
static __attribute__((noinline)) void nothing(void)
{
	__asm__ __volatile__("");
}

static __attribute__((noinline)) void alone_r0(void)
{
	SELFMON_MARKER_BEGIN("alone 0");
	SELFMON_MARKER_END("alone 0");
}

static __attribute__((noinline)) void alone_r3(void)
{
	SELFMON_MARKER_BEGIN("alone 3");
	R3();
	SELFMON_MARKER_END("alone 3");
}

static __attribute__((noinline)) void alone_r3001(void)
{
	SELFMON_MARKER_BEGIN("alone 3001");
	R3001();
	SELFMON_MARKER_END("alone 3001");
}

static __attribute__((noinline)) void named_r3(void)
{
	selfmon_marker__begin("named 3");
	R3();
	selfmon_marker__end("named 3");
}

/* A name in a buffer, in a loop: in a register the calls keep, from -O1 on across the region. */
static __attribute__((noinline)) void buffer_r3(const char *name, int n)
{
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin(name);
		R3();
		selfmon_marker__end(name);
	}
}

/* A loop: the compiler may hoist what it can out of it, and keep its counter in a register. */
static __attribute__((noinline)) void loop_r3(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("loop 3");
		R3();
		SELFMON_MARKER_END("loop 3");
		sink = i;
	}
}

static __attribute__((noinline)) void two_sites_r3(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("first 3");
		R3();
		SELFMON_MARKER_END("first 3");
		SELFMON_MARKER_BEGIN("second 3");
		R3();
		SELFMON_MARKER_END("second 3");
	}
}

static __attribute__((noinline)) void named_loop_r3(int n)
{
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin("named loop 3");
		R3();
		selfmon_marker__end("named loop 3");
	}
}

/* The outer region is 6 instructions of its own and a whole inner pair; the inner's first call is the outer's first. */
static __attribute__((noinline)) void nested_outer(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("outer");
		R3();
		SELFMON_MARKER_BEGIN("inner 3");
		R3();
		SELFMON_MARKER_END("inner 3");
		R3();
		SELFMON_MARKER_END("outer");
	}
}

/* Left by the block's end: the block holds the region alone. */
static __attribute__((noinline)) void scope_r3(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_SCOPE("scope 3");
		R3();
	}
}

int main(void)
{
	char buf[16];

	__builtin_memcpy(buf, "buffer 3", sizeof("buffer 3"));
	nothing();
	alone_r0();
	alone_r3();
	alone_r3001();
	alone_r0();
	alone_r3();
	alone_r3001();
	named_r3();
	named_r3();
	loop_r3(2);
	loop_r3(1000);
	two_sites_r3(100);
	named_loop_r3(100);
	buffer_r3(buf, 10);
	nested_outer(10);
	scope_r3(10);
	return 0;
}
