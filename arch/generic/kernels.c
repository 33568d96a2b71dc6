// SPDX-License-Identifier: MIT
/*
 * The bodies of `selfmon bench` (tools/kernels.c) for any other
 * architecture: the same kernels in C, with no stated count (the compiler
 * picks the instructions).
 */
#include <stdint.h>

#include "../kernels.h"

static volatile uint64_t sink;

const int selfmon_arch_kernel__insns[SELFMON_ARCH_KERNEL__NR] = {
	[SELFMON_ARCH_KERNEL__ADD_CHAIN] = -1,
	[SELFMON_ARCH_KERNEL__ADD_INDEP] = -1,
	[SELFMON_ARCH_KERNEL__LOAD_CHAIN] = -1,
	[SELFMON_ARCH_KERNEL__BRANCH] = -1,
};

/* The empty asm keeps each add (its register) from being folded away. */
#define KEEP(x) __asm__ __volatile__("" : "+r"(x))

void selfmon_arch_kernel__add_chain(void *arg, uint64_t n)
{
	uint64_t a = 0;

	(void)arg;
	for (uint64_t k = 0; k < n; k++)
		for (int j = 0; j < 8; j++) {
			a += 1;
			KEEP(a);
		}
	sink = a;
}

void selfmon_arch_kernel__add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	(void)arg;
	for (uint64_t k = 0; k < n; k++) {
		a++;
		b++;
		c++;
		d++;
		KEEP(a);
		KEEP(b);
		KEEP(c);
		KEEP(d);
	}
	sink = a + b + c + d;
}

void selfmon_arch_kernel__load_chain(void *ring, uint64_t n)
{
	void **p = ring;

	for (uint64_t k = 0; k < n * 8; k++)
		p = *p;
	sink = (uintptr_t)p;
}

void selfmon_arch_kernel__branch(void *pattern, uint64_t n)
{
	const uint8_t *pat = pattern;
	uint64_t x = 0, y = 0;

	for (uint64_t k = 0; k < n; k++) {
		if (pat[k & (SELFMON_KERNEL_PATTERN - 1)])
			x++;
		else
			y++;
		KEEP(x);
	}
	sink = x - y;
}
