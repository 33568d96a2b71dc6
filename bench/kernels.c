// SPDX-License-Identifier: MIT
/*
 * The built-in kernels of `selfmon bench`: bodies whose counts a person can
 * check. The asm ones retire a fixed number of instructions per iteration,
 * stated in the table below for arm64 and x86_64, so that the output shows
 * measured against expected. Every asm loop is
 *	skip if n == 0; 1: <body>; n -= 1; branch to 1 if n != 0
 * and the per-iteration count includes the last two. Any other architecture
 * gets the same kernels in C, with no stated count (the compiler picks the
 * instructions).
 */
#include <stdint.h>
#include <string.h>

#include <generated/autoconf.h>
#include "internal.h"

#define PATTERN	4096	/* bytes of a branch pattern; the asm masks the index with 4095 */
#define RING	512	/* pointers in the load chain: 4 KiB, L1-resident everywhere */
#define BUF	65536	/* the largest memcpy / memset */

static uint8_t pattern_alt[PATTERN], pattern_rnd[PATTERN];
static void *ring[RING];
static uint8_t buf_src[BUF] __attribute__((aligned(64))), buf_dst[BUF] __attribute__((aligned(64)));
static volatile uint64_t sink;

void selfmon_kernels__init(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < PATTERN; i++) {
		pattern_alt[i] = i & 1;
		/* xorshift64: a pattern no predictor learns within 4096 branches. */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pattern_rnd[i] = x >> 63;
	}
	/* Step 9 (coprime with 512): one cycle through every slot, not sequential. */
	for (int i = 0; i < RING; i++)
		ring[i] = &ring[(i + 9) % RING];
	memset(buf_src, 0x5a, sizeof(buf_src));
}

#if defined(CONFIG_ARCH_ARM64)

#define ADD_CHAIN_INSNS		10
#define ADD_INDEP_INSNS		10
#define LOAD_CHAIN_INSNS	10
#define BRANCH_INSNS		8

/* 8 dependent adds + subs + b.ne */
static void k_add_chain(void *arg, uint64_t n)
{
	uint64_t a = 0;

	(void)arg;
	__asm__ __volatile__(
		"	cbz	%[n], 2f\n"
		"1:	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	add	%[a], %[a], #1\n"
		"	subs	%[n], %[n], #1\n"
		"	b.ne	1b\n"
		"2:\n"
		: [a] "+r"(a), [n] "+r"(n) : : "cc");
	sink = a;
}

/* 8 adds to 8 registers + subs + b.ne */
static void k_add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	(void)arg;
	__asm__ __volatile__(
		"	cbz	%[n], 2f\n"
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
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d), [e] "+r"(e), [f] "+r"(f),
		  [g] "+r"(g), [h] "+r"(h), [n] "+r"(n) : : "cc");
	sink = a + b + c + d + e + f + g + h;
}

/* 8 dependent loads + subs + b.ne */
static void k_load_chain(void *arg, uint64_t n)
{
	void *p = ring;

	(void)arg;
	__asm__ __volatile__(
		"	cbz	%[n], 2f\n"
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
		: [p] "+r"(p), [n] "+r"(n) : : "cc", "memory");
	sink = (uintptr_t)p;
}

/* ldrb, cbz, 2 on either side, index add/and, subs, b.ne: 8 whichever way it goes */
static void branch_loop(const uint8_t *pat, uint64_t n)
{
	uint64_t i = 0, x = 0, y = 0, t;

	__asm__ __volatile__(
		"	cbz	%[n], 9f\n"
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
		: [pat] "r"(pat) : "cc", "memory");
	sink = x - y;
}

#elif defined(CONFIG_ARCH_X86_64)

#define ADD_CHAIN_INSNS		10
#define ADD_INDEP_INSNS		10
#define LOAD_CHAIN_INSNS	10
#define BRANCH_INSNS		9

/* 8 dependent adds + dec + jnz (a fused pair retires as two instructions) */
static void k_add_chain(void *arg, uint64_t n)
{
	uint64_t a = 0;

	(void)arg;
	__asm__ __volatile__(
		"	test	%[n], %[n]\n"
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
		: [a] "+r"(a), [n] "+r"(n) : : "cc");
	sink = a;
}

/* 8 adds to 8 registers + dec + jnz */
static void k_add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0;

	(void)arg;
	__asm__ __volatile__(
		"	test	%[n], %[n]\n"
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
		: [a] "+r"(a), [b] "+r"(b), [c] "+r"(c), [d] "+r"(d), [e] "+r"(e), [f] "+r"(f),
		  [g] "+r"(g), [h] "+r"(h), [n] "+r"(n) : : "cc");
	sink = a + b + c + d + e + f + g + h;
}

/* 8 dependent loads + dec + jnz */
static void k_load_chain(void *arg, uint64_t n)
{
	void *p = ring;

	(void)arg;
	__asm__ __volatile__(
		"	test	%[n], %[n]\n"
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
		: [p] "+r"(p), [n] "+r"(n) : : "cc", "memory");
	sink = (uintptr_t)p;
}

/* movzbl, test, 3 on either side (jz included), index add/and, dec, jnz: 9 */
static void branch_loop(const uint8_t *pat, uint64_t n)
{
	uint64_t i = 0, x = 0, y = 0, t;

	__asm__ __volatile__(
		"	test	%[n], %[n]\n"
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
		: [pat] "r"(pat) : "cc", "memory");
	sink = x - y;
}

#else /* generic: C, no stated count */

#define ADD_CHAIN_INSNS		-1
#define ADD_INDEP_INSNS		-1
#define LOAD_CHAIN_INSNS	-1
#define BRANCH_INSNS		-1

/* The empty asm keeps each add (its register) from being folded away. */
#define KEEP(x) __asm__ __volatile__("" : "+r"(x))

static void k_add_chain(void *arg, uint64_t n)
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

static void k_add_indep(void *arg, uint64_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;

	(void)arg;
	for (uint64_t k = 0; k < n; k++) {
		a++, b++, c++, d++;
		KEEP(a), KEEP(b), KEEP(c), KEEP(d);
	}
	sink = a + b + c + d;
}

static void k_load_chain(void *arg, uint64_t n)
{
	void **p = ring;

	(void)arg;
	for (uint64_t k = 0; k < n * 8; k++)
		p = *p;
	sink = (uintptr_t)p;
}

static void branch_loop(const uint8_t *pat, uint64_t n)
{
	uint64_t x = 0, y = 0;

	for (uint64_t k = 0; k < n; k++) {
		if (pat[k & (PATTERN - 1)])
			x++;
		else
			y++;
		KEEP(x);
	}
	sink = x - y;
}

#endif

static void k_branch_alt(void *arg, uint64_t n)
{
	(void)arg;
	branch_loop(pattern_alt, n);
}

static void k_branch_rnd(void *arg, uint64_t n)
{
	(void)arg;
	branch_loop(pattern_rnd, n);
}

/* The empty asm makes the stores visible, so the copy is not dropped. */
static void k_memcpy(void *arg, uint64_t n)
{
	size_t size = (size_t)(uintptr_t)arg;

	for (uint64_t k = 0; k < n; k++) {
		memcpy(buf_dst, buf_src, size);
		__asm__ __volatile__("" : : "r"(buf_dst) : "memory");
	}
}

static void k_memset(void *arg, uint64_t n)
{
	size_t size = (size_t)(uintptr_t)arg;

	for (uint64_t k = 0; k < n; k++) {
		memset(buf_dst, (int)k, size);
		__asm__ __volatile__("" : : "r"(buf_dst) : "memory");
	}
}

/* Nothing per iteration: what calibration leaves of a body that does nothing. */
static void k_empty(void *arg, uint64_t n)
{
	(void)arg;
	(void)n;
}

#define SIZE(s) ((void *)(uintptr_t)(s))

const struct selfmon_kernel selfmon_kernels[] = {
	{ "add_chain", "8 dependent adds: latency-bound, ~1 cycle per add", k_add_chain, NULL, ADD_CHAIN_INSNS },
	{ "add_indep", "8 independent adds: throughput-bound", k_add_indep, NULL, ADD_INDEP_INSNS },
	{ "load_chain", "8 dependent loads through a 4 KiB pointer ring (L1)", k_load_chain, NULL, LOAD_CHAIN_INSNS },
	{ "branch_predictable", "a branch on an alternating pattern", k_branch_alt, NULL, BRANCH_INSNS },
	{ "branch_random", "a branch on a random pattern (~50% mispredicted)", k_branch_rnd, NULL, BRANCH_INSNS },
	{ "memcpy_64", "memcpy of 64 bytes", k_memcpy, SIZE(64), -1 },
	{ "memcpy_4k", "memcpy of 4 KiB", k_memcpy, SIZE(4096), -1 },
	{ "memcpy_64k", "memcpy of 64 KiB", k_memcpy, SIZE(BUF), -1 },
	{ "memset_64", "memset of 64 bytes", k_memset, SIZE(64), -1 },
	{ "memset_4k", "memset of 4 KiB", k_memset, SIZE(4096), -1 },
	{ "memset_64k", "memset of 64 KiB", k_memset, SIZE(BUF), -1 },
	{ "empty", "an empty body: calibration must leave 0", k_empty, NULL, 0 },
};
const int selfmon_kernels_nr = sizeof(selfmon_kernels) / sizeof(selfmon_kernels[0]);
