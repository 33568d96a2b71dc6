/* SPDX-License-Identifier: MIT */
/* x86_64 counter access: rdpmc and rdtsc. Included by <selfmon/read.h>. */
#ifndef SELFMON_ARCH_H
#define SELFMON_ARCH_H

#include <stdint.h>

#define SELFMON_ARCH_NAME "x86_64"
#define SELFMON_ARCH_USER_READ 1
/* Fixed counters have bit 30 set in the index: every non-zero index is readable. */
#define SELFMON_ARCH_MAX_INDEX 0xffffffffu

/* lfence waits for earlier instructions to complete before the read (SDM, RDPMC). */
#define selfmon_arch_fence() __asm__ __volatile__("lfence" ::: "memory")
#ifdef SELFMON_SERIALIZE_READS
#define selfmon_arch_serialize() selfmon_arch_fence()
#else
#define selfmon_arch_serialize() \
	do {                     \
	} while (0)
#endif

/* @idx is the mmap page's index: the counter is rdpmc's ECX = index - 1. */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	uint32_t lo, hi;

	selfmon_arch_serialize();
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
	return (uint64_t)hi << 32 | lo;
}

static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_timestamp(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

#endif /* SELFMON_ARCH_H */
