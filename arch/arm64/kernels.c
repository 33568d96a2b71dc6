// SPDX-License-Identifier: MIT
/*
 * The fixed-count bodies of `selfmon bench` (tools/kernels.c) for arm64.
 * Each asm loop is "cbz n; 1: body; subs; b.ne 1b"; the branch kernel
 * masks its index with SELFMON_KERNEL_PATTERN - 1 (4095).
 * The counts below are what one iteration retires, the loop's own
 * instructions included.
 */
#include <stdint.h>

#include "../kernels.h"

static volatile uint64_t sink;

/*
 * A test-only build (EXTRA_CFLAGS=-DSELFMON_TEST_INJECT_ADD_CHAIN, the dogfood
 * gate of `make check`) retires one more instruction per add_chain iteration:
 * the regression the gate must catch, by kernel and metric. Never in a
 * shipped build.
 */
#ifdef SELFMON_TEST_INJECT_ADD_CHAIN
#define INJECT_ADD_CHAIN "	nop\n"
#else
#define INJECT_ADD_CHAIN ""
#endif

const int selfmon_arch_kernel__insns[SELFMON_ARCH_KERNEL__NR] = {
	[SELFMON_ARCH_KERNEL__ADD_CHAIN] = 10,
	[SELFMON_ARCH_KERNEL__ADD_INDEP] = 10,
	[SELFMON_ARCH_KERNEL__LOAD_CHAIN] = 10,
	[SELFMON_ARCH_KERNEL__BRANCH] = 8,
};

/* 8 dependent adds + subs + b.ne */
void selfmon_arch_kernel__add_chain(void *arg, uint64_t n)
{
	uint64_t a = 0;

	(void)arg;
	__asm__ __volatile__("	cbz	%[n], 2f\n"
			     "1:	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n"
			     "	add	%[a], %[a], #1\n" INJECT_ADD_CHAIN
			     "	subs	%[n], %[n], #1\n"
			     "	b.ne	1b\n"
			     "2:\n"
			     : [a] "+r"(a), [n] "+r"(n)
			     :
			     : "cc");
	sink = a;
}

/* 8 adds to 8 registers + subs + b.ne */
void selfmon_arch_kernel__add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	(void)arg;
	__asm__ __volatile__("	cbz	%[n], 2f\n"
			     "1:	add	%[a], %[a], #1\n"
			     "	add	%[b], %[b], #1\n"
			     "	add	%[c], %[c], #1\n"
			     "	add	%[d], %[d], #1\n"
			     "	add	%[e], %[e], #1\n"
			     "	add	%[f], %[f], #1\n"
			     "	add	%[g], %[g], #1\n"
			     "	add	%[h], %[h], #1\n"
			     "	subs	%[n], %[n], #1\n"
			     "	b.ne	1b\n"
			     "2:\n"
			     : [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d), [e] "+r"(e),
			       [f] "+r"(f), [g] "+r"(g), [h] "+r"(h), [n] "+r"(n)
			     :
			     : "cc");
	sink = a + b + c + d + e + f + g + h;
}

/* 8 dependent loads + subs + b.ne */
void selfmon_arch_kernel__load_chain(void *ring, uint64_t n)
{
	void *p = ring;

	__asm__ __volatile__("	cbz	%[n], 2f\n"
			     "1:	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	ldr	%[p], [%[p]]\n"
			     "	subs	%[n], %[n], #1\n"
			     "	b.ne	1b\n"
			     "2:\n"
			     : [p] "+r"(p), [n] "+r"(n)
			     :
			     : "cc", "memory");
	sink = (uintptr_t)p;
}

/* ldrb, cbz, 2 on either side, index add/and, subs, b.ne: 8 whichever way it goes */
void selfmon_arch_kernel__branch(void *pattern, uint64_t n)
{
	const uint8_t *pat = pattern;
	uint64_t i = 0, x = 0, y = 0, t;

	__asm__ __volatile__("	cbz	%[n], 9f\n"
			     "1:	ldrb	%w[t], [%[pat], %[i]]\n"
			     "	cbz	%w[t], 2f\n"
			     "	add	%[x], %[x], #1\n"
			     "	b	3f\n"
			     "2:	add	%[y], %[y], #1\n"
			     "	nop\n"
			     "3:	add	%[i], %[i], #1\n"
			     "	and	%[i], %[i], #4095\n"
			     "	subs	%[n], %[n], #1\n"
			     "	b.ne	1b\n"
			     "9:\n"
			     : [i] "+r"(i), [x] "+r"(x), [y] "+r"(y), [n] "+r"(n), [t] "=&r"(t)
			     : [pat] "r"(pat)
			     : "cc", "memory");
	sink = x - y;
}
