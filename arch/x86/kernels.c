// SPDX-License-Identifier: MIT
/*
 * The fixed-count bodies of `selfmon bench` (tools/kernels.c) for x86_64.
 * Each asm loop is "test/jz; 1: body; dec; jnz 1b"; the branch kernel
 * masks its index with SELFMON_KERNEL_PATTERN - 1 (4095).
 * The counts below are what one iteration retires, the loop's own
 * instructions included.
 */
#include <stdint.h>

#include "../kernels.h"

static volatile uint64_t sink;

const int selfmon_arch_kernel__insns[SELFMON_ARCH_KERNEL__NR] = {
	[SELFMON_ARCH_KERNEL__ADD_CHAIN] = 10,
	[SELFMON_ARCH_KERNEL__ADD_INDEP] = 10,
	[SELFMON_ARCH_KERNEL__LOAD_CHAIN] = 10,
	[SELFMON_ARCH_KERNEL__BRANCH] = 9,
};

/* 8 dependent adds + dec + jnz (a fused pair retires as two instructions) */
void selfmon_arch_kernel__add_chain(void *arg, uint64_t n)
{
	uint64_t a = 0;

	(void)arg;
	__asm__ __volatile__("	test	%[n], %[n]\n"
			     "	jz	2f\n"
			     "1:	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	add	$1, %[a]\n"
			     "	dec	%[n]\n"
			     "	jnz	1b\n"
			     "2:\n"
			     : [a] "+r"(a), [n] "+r"(n)
			     :
			     : "cc");
	sink = a;
}

/* 8 adds to 8 registers + dec + jnz */
void selfmon_arch_kernel__add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	(void)arg;
	__asm__ __volatile__("	test	%[n], %[n]\n"
			     "	jz	2f\n"
			     "1:	add	$1, %[a]\n"
			     "	add	$1, %[b]\n"
			     "	add	$1, %[c]\n"
			     "	add	$1, %[d]\n"
			     "	add	$1, %[e]\n"
			     "	add	$1, %[f]\n"
			     "	add	$1, %[g]\n"
			     "	add	$1, %[h]\n"
			     "	dec	%[n]\n"
			     "	jnz	1b\n"
			     "2:\n"
			     : [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d), [e] "+r"(e),
			       [f] "+r"(f), [g] "+r"(g), [h] "+r"(h), [n] "+r"(n)
			     :
			     : "cc");
	sink = a + b + c + d + e + f + g + h;
}

/* 8 dependent loads + dec + jnz */
void selfmon_arch_kernel__load_chain(void *ring, uint64_t n)
{
	void *p = ring;

	__asm__ __volatile__("	test	%[n], %[n]\n"
			     "	jz	2f\n"
			     "1:	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	mov	(%[p]), %[p]\n"
			     "	dec	%[n]\n"
			     "	jnz	1b\n"
			     "2:\n"
			     : [p] "+r"(p), [n] "+r"(n)
			     :
			     : "cc", "memory");
	sink = (uintptr_t)p;
}

/* movzbl, test, 3 on either side (jz included), index add/and, dec, jnz: 9 */
void selfmon_arch_kernel__branch(void *pattern, uint64_t n)
{
	const uint8_t *pat = pattern;
	uint64_t i = 0, x = 0, y = 0, t;

	__asm__ __volatile__("	test	%[n], %[n]\n"
			     "	jz	9f\n"
			     "1:	movzbl	(%[pat],%[i]), %k[t]\n"
			     "	test	%k[t], %k[t]\n"
			     "	jz	2f\n"
			     "	add	$1, %[x]\n"
			     "	jmp	3f\n"
			     "2:	add	$1, %[y]\n"
			     "	nop\n"
			     "3:	add	$1, %[i]\n"
			     "	and	$4095, %[i]\n"
			     "	dec	%[n]\n"
			     "	jnz	1b\n"
			     "9:\n"
			     : [i] "+r"(i), [x] "+r"(x), [y] "+r"(y), [n] "+r"(n), [t] "=&r"(t)
			     : [pat] "r"(pat)
			     : "cc", "memory");
	sink = x - y;
}
