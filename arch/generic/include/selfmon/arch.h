/* SPDX-License-Identifier: MIT */
/*
 * No user-space counter read on this architecture: read.h's page reads
 * return -EAGAIN here, and every read takes read(2).
 */
#ifndef SELFMON_ARCH_H
#define SELFMON_ARCH_H

#include <stdint.h>

#define SELFMON_ARCH_NAME "generic"
#define SELFMON_ARCH_USER_READ 0

#define selfmon_arch_fence() __asm__ __volatile__("" ::: "memory")
#define selfmon_arch_serialize() \
	do {                     \
	} while (0)

static inline uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	(void)idx;
	return 0;
}

static inline uint64_t selfmon_arch_read_timestamp(void)
{
	return 0;
}

#endif /* SELFMON_ARCH_H */
