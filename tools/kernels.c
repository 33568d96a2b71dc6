// SPDX-License-Identifier: MIT
/*
 * The built-in kernels of `selfmon bench`: bodies whose counts a person can
 * check. The fixed-count ones are the arch's own (arch/<arch>/kernels.c,
 * asm on arm64 and x86_64) and say how many instructions an iteration
 * retires, so that the output shows measured against expected.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../arch/kernels.h"
#include "cli.h"

#define PATTERN SELFMON_KERNEL_PATTERN
#define RING 512 /* pointers in the load chain: 4 KiB, L1-resident everywhere */
#define BUF 65536 /* the largest memcpy / memset */

static uint8_t pattern_alt[PATTERN], pattern_rnd[PATTERN];
static void *ring[RING];
static uint8_t buf_src[BUF] __attribute__((aligned(64))), buf_dst[BUF] __attribute__((aligned(64)));

void cli_kernels__init(void)
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

int cli_kernel_filter__init(struct cli_kernel_filter *f, const char *regex, char *err, size_t errsz)
{
	char why[256];
	int rc;

	f->has_re = false;
	if (!regex)
		return 0;
	rc = regcomp(&f->re, regex, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		regerror(rc, &f->re, why, sizeof(why));
		snprintf(err, errsz, "--filter '%s': %s", regex, why);
		return -EINVAL;
	}
	f->has_re = true;
	return 0;
}

bool cli_kernel_filter__match(const struct cli_kernel_filter *f, const char *name)
{
	return !f->has_re || !regexec(&f->re, name, 0, NULL, 0);
}

void cli_kernel_filter__fini(struct cli_kernel_filter *f)
{
	if (f->has_re)
		regfree(&f->re);
	f->has_re = false;
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

static const int not_fixed = -1, nothing;
#define INSNS(k) (&selfmon_arch_kernel__insns[SELFMON_ARCH_KERNEL__##k])

const struct cli_kernel cli_kernels[] = {
	{ "add_chain", "8 dependent adds: latency-bound, ~1 cycle per add",
	  selfmon_arch_kernel__add_chain, NULL, INSNS(ADD_CHAIN) },
	{ "add_indep", "8 independent adds: throughput-bound", selfmon_arch_kernel__add_indep, NULL,
	  INSNS(ADD_INDEP) },
	{ "load_chain", "8 dependent loads through a 4 KiB pointer ring (L1)",
	  selfmon_arch_kernel__load_chain, ring, INSNS(LOAD_CHAIN) },
	{ "branch_predictable", "a branch on an alternating pattern", selfmon_arch_kernel__branch,
	  pattern_alt, INSNS(BRANCH) },
	{ "branch_random", "a branch on a random pattern (~50% mispredicted)",
	  selfmon_arch_kernel__branch, pattern_rnd, INSNS(BRANCH) },
	{ "memcpy_64", "memcpy of 64 bytes", k_memcpy, SIZE(64), &not_fixed },
	{ "memcpy_4k", "memcpy of 4 KiB", k_memcpy, SIZE(4096), &not_fixed },
	{ "memcpy_64k", "memcpy of 64 KiB", k_memcpy, SIZE(BUF), &not_fixed },
	{ "memset_64", "memset of 64 bytes", k_memset, SIZE(64), &not_fixed },
	{ "memset_4k", "memset of 4 KiB", k_memset, SIZE(4096), &not_fixed },
	{ "memset_64k", "memset of 64 KiB", k_memset, SIZE(BUF), &not_fixed },
	{ "empty", "an empty body: calibration must leave 0", k_empty, NULL, &nothing },
};
const int cli_kernels_nr = sizeof(cli_kernels) / sizeof(cli_kernels[0]);
