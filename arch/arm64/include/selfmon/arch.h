/* SPDX-License-Identifier: MIT */
/*
 * arm64 counter access with mrs. Included by <selfmon/read.h>.
 *
 * The kernel's page index for a PMUv3 event is its counter number plus one
 * (event counter n -> index n + 1, n = 0..30) and 32 for the cycle counter
 * (arch/arm64/kernel/perf_event.c, armv8pmu_user_event_idx). Each event
 * counter has its own system register PMEVCNTR<n>_EL0, so the read is a
 * switch over 31 mrs instructions plus PMCCNTR_EL0.
 */
#ifndef SELFMON_ARCH_H
#define SELFMON_ARCH_H

#include <stdint.h>

#define SELFMON_ARCH_NAME	"arm64"
#define SELFMON_ARCH_USER_READ	1
/* Largest page index this file can read: 32 = PMCCNTR_EL0. */
#define SELFMON_ARCH_MAX_INDEX	32u

/* A test may define these to see which register each index reads, on any host. */
#ifndef SELFMON_ARM64_MRS
#define SELFMON_ARM64_MRS(reg, v) __asm__ __volatile__("mrs %0, " #reg : "=r"(v))
#endif
#ifndef SELFMON_ARM64_ISB
#define SELFMON_ARM64_ISB() __asm__ __volatile__("isb" ::: "memory")
#endif

/* isb: earlier instructions complete before the counter is sampled (Arm ARM, D7 "PMU synchronization"). */
#define selfmon_arch_fence() SELFMON_ARM64_ISB()
#ifdef SELFMON_SERIALIZE_READS
#define selfmon_arch_serialize() SELFMON_ARM64_ISB()
#else
#define selfmon_arch_serialize() do { } while (0)
#endif

#define SELFMON_ARM64_EVCNTR(n) \
	case (n) + 1: SELFMON_ARM64_MRS(pmevcntr##n##_el0, v); break

/* @idx is the mmap page's index, 1..32; the caller checks the range. */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	uint64_t v;

	selfmon_arch_serialize();
	switch (idx) {
	SELFMON_ARM64_EVCNTR(0);  SELFMON_ARM64_EVCNTR(1);  SELFMON_ARM64_EVCNTR(2);
	SELFMON_ARM64_EVCNTR(3);  SELFMON_ARM64_EVCNTR(4);  SELFMON_ARM64_EVCNTR(5);
	SELFMON_ARM64_EVCNTR(6);  SELFMON_ARM64_EVCNTR(7);  SELFMON_ARM64_EVCNTR(8);
	SELFMON_ARM64_EVCNTR(9);  SELFMON_ARM64_EVCNTR(10); SELFMON_ARM64_EVCNTR(11);
	SELFMON_ARM64_EVCNTR(12); SELFMON_ARM64_EVCNTR(13); SELFMON_ARM64_EVCNTR(14);
	SELFMON_ARM64_EVCNTR(15); SELFMON_ARM64_EVCNTR(16); SELFMON_ARM64_EVCNTR(17);
	SELFMON_ARM64_EVCNTR(18); SELFMON_ARM64_EVCNTR(19); SELFMON_ARM64_EVCNTR(20);
	SELFMON_ARM64_EVCNTR(21); SELFMON_ARM64_EVCNTR(22); SELFMON_ARM64_EVCNTR(23);
	SELFMON_ARM64_EVCNTR(24); SELFMON_ARM64_EVCNTR(25); SELFMON_ARM64_EVCNTR(26);
	SELFMON_ARM64_EVCNTR(27); SELFMON_ARM64_EVCNTR(28); SELFMON_ARM64_EVCNTR(29);
	SELFMON_ARM64_EVCNTR(30);
	case 32: SELFMON_ARM64_MRS(pmccntr_el0, v); break;
	/* read.h checked 1 <= idx <= 32: no second range check in the jump table. */
	default: __builtin_unreachable();
	}
	return v;
}

/*
 * The virtual count, which the kernel's cap_user_time fields convert. isb
 * keeps it from being read ahead of the seqlock load (the kernel's own
 * __arch_counter_get_cntvct does the same).
 */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_timestamp(void)
{
	uint64_t v;

	SELFMON_ARM64_ISB();
	SELFMON_ARM64_MRS(cntvct_el0, v);
	return v;
}

#endif /* SELFMON_ARCH_H */
