/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_ARCH_H
#define SELFMON_CORE_ARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <selfmon/selfmon.h>
#include <generated/autoconf.h>

#include "event.h"
/* The sysfs and procfs reads an arch's gates may make (under the test root). */
#include "sysfs.h"

/* Notes an arch leaves on an event while opening it (selfmon_counter.notes). */
#define SELFMON_NOTE_LONG_ASKED (1u << 0) /* 64-bit counter requested */
#define SELFMON_NOTE_LONG_REFUSED (1u << 1) /* ...refused; opened as 32-bit */

/*
 * The one interface between core/ and arch/<arch>/, and the only core header
 * arch/ includes (with what it brings: events, formats, sysfs reads):
 * everything here is plain
 * C that reads files, so every arch's gates can be unit-tested on any host.
 * The counter instructions live in arch/<arch>/include/selfmon/arch.h.
 */
struct selfmon_arch {
	const char *name;
	/*
	 * Ask for user access in @ev->attr (an event counted by a core PMU) and
	 * say whether the gates let it work: SELFMON_REASON_NONE or the gate
	 * that is closed. @want_long: ask for a 64-bit counter if there is a
	 * way to.
	 */
	enum selfmon_reason (*prepare)(const char *root, struct selfmon_event *ev, bool want_long,
				       unsigned int *notes);
	/* After open failed with @err: change @ev->attr and return true to try again. */
	bool (*retry)(struct selfmon_event *ev, int err, unsigned int *notes);
	/*
	 * Whether @attr, an event of a core PMU in that PMU's own encoding
	 * (PERF_TYPE_RAW, or the PMU's type), counts instructions retired:
	 * the event numbers are the architecture's, so only the arch knows
	 * them. The generic event (PERF_TYPE_HARDWARE) is core/'s to answer.
	 * @root: the sysfs root the event was resolved under, for what the
	 * number alone does not tell (x86: the vendor, from /proc/cpuinfo).
	 */
	bool (*raw_instructions)(const char *root, const struct perf_event_attr *attr);
#ifdef CONFIG_PMU_EVENTS
	/*
	 * The part CPU @cpu is, in the spelling of the arch's pmu-events
	 * mapfile.csv: arm64 its MIDR_EL1 ("0x00000000410fd034"), x86
	 * "GenuineIntel-6-5E-3" (vendor-family-model-stepping, CPUID leaves 0
	 * and 1 as /proc/cpuinfo gives them). Read under @root.
	 * Return: 0, or -errno (-EOPNOTSUPP: the arch has no such tables).
	 */
	int (*cpu_id)(const char *root, int cpu, char *buf, size_t size);
#endif
};

extern const struct selfmon_arch selfmon_arch__x86;
extern const struct selfmon_arch selfmon_arch__arm64;
extern const struct selfmon_arch selfmon_arch__generic;

/*
 * The retry of an arch that changes nothing after a failed open (x86
 * counters are read at full width; generic asks for no user access): false.
 */
bool selfmon_arch__no_retry(struct selfmon_event *ev, int err, unsigned int *notes);

/* The raw_instructions of an arch that knows no event numbers: false. */
bool selfmon_arch__no_raw_instructions(const char *root, const struct perf_event_attr *attr);

/*
 * Whether @ev, as resolved, counts instructions retired: the generic event
 * PERF_COUNT_HW_INSTRUCTIONS on any PMU, or an event of a core PMU that
 * @arch's raw_instructions knows by its number, under sysfs root @root.
 * Never by the name.
 */
bool selfmon_arch__counts_instructions(const struct selfmon_arch *arch, const char *root,
				       const struct selfmon_event *ev);

/* The arch this library was configured for. */
const struct selfmon_arch *selfmon_arch__host(void);

/*
 * Called when a counter page is first handed out: where a user-space read
 * can fault for a reason the page's seqlock would have caught a moment later,
 * make it survive (arm64: a thread moved to a CPU of another PMU between
 * loading the index and its mrs). Return: 0 or -errno.
 */
int selfmon_arch__guard_user_reads(void);

/*
 * arm64: is @insn an MRS of a PMU counter register an EL0 read can trap on
 * (PMEVCNTR<n>_EL0, PMCCNTR_EL0)? If so, *@rt is its destination register.
 * Portable C, so that any host tests it.
 */
bool selfmon_arm64__is_counter_mrs(uint32_t insn, int *rt);

#endif
