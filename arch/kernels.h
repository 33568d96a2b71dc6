/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_ARCH_KERNELS_H
#define SELFMON_ARCH_KERNELS_H

#include <stdint.h>

/*
 * What each arch gives `selfmon bench`: the bodies whose instruction count is
 * fixed, in arch/<arch>/kernels.c, built only for the configured arch. Each
 * loops n times and may be called with n = 0.
 *
 * The contract lives here, in arch/, so that arch/ includes nothing above it:
 * the CLI (tools/kernels.c) includes this header, never the other way round.
 * The kernels are the CLI's, not the library's: they go into the CLI's
 * internal archive, not into libselfmon.a.
 */

/* Bytes of a branch pattern: a power of two, the index is masked with it. */
#define SELFMON_KERNEL_PATTERN 4096

void selfmon_arch_kernel__add_chain(void *arg, uint64_t n); /* 8 dependent adds */
void selfmon_arch_kernel__add_indep(void *arg, uint64_t n); /* 8 independent adds */
void selfmon_arch_kernel__load_chain(void *ring, uint64_t n); /* 8 loads p = *p */
void selfmon_arch_kernel__branch(void *pattern, uint64_t n); /* a branch on pattern[i] */

enum {
	SELFMON_ARCH_KERNEL__ADD_CHAIN,
	SELFMON_ARCH_KERNEL__ADD_INDEP,
	SELFMON_ARCH_KERNEL__LOAD_CHAIN,
	SELFMON_ARCH_KERNEL__BRANCH,
	SELFMON_ARCH_KERNEL__NR,
};

/* Instructions one iteration retires, exactly; -1 where the compiler picks them. */
extern const int selfmon_arch_kernel__insns[SELFMON_ARCH_KERNEL__NR];

#endif
