// SPDX-License-Identifier: MIT
/*
 * arm64 gates (kernel document arm64/perf.rst, "Perf Userspace PMU Hardware
 * Counter Access"): the sysctl kernel.perf_user_access must be 1, and the
 * event must be opened with the PMU's 'rdpmc' format bit (config1:1 today)
 * set; the 'long' bit (config1:0) asks for a 64-bit counter, which the
 * open refuses with EOPNOTSUPP where the hardware has none. The bit
 * positions are read from sysfs, not assumed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <generated/autoconf.h>
#include "../../core/arch_int.h"
#include "../../core/fmt.h"

static enum selfmon_reason arm64_prepare(const char *root, struct selfmon_event *ev, bool want_long,
					 unsigned int *notes)
{
	const struct selfmon_format *rdpmc, *lng;
	long on;

	if (!ev->pmu)
		return SELFMON_REASON_NO_PMU;
	rdpmc = selfmon_pmu__format(ev->pmu, "rdpmc");
	if (!rdpmc)
		return SELFMON_REASON_NO_FORMAT;
	selfmon_format__apply(rdpmc, 1, &ev->attr);

	lng = selfmon_pmu__format(ev->pmu, "long");
	if (want_long && lng) {
		selfmon_format__apply(lng, 1, &ev->attr);
		*notes |= SELFMON_NOTE_LONG_ASKED;
	}

	/*
	 * The bit is set even when the sysctl is 0: the kernel checks the
	 * sysctl each time it publishes the index, so turning it on later
	 * opens the user path of an event already open.
	 */
	if (selfmon_sysfs__read_long(root, "/proc/sys/kernel/perf_user_access", &on))
		return SELFMON_REASON_NO_SYSCTL;
	return on ? SELFMON_REASON_NONE : SELFMON_REASON_SYSCTL;
}

static bool arm64_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	const struct selfmon_format *lng;

	if (err != -EOPNOTSUPP || !(*notes & SELFMON_NOTE_LONG_ASKED) || !ev->pmu)
		return false;
	lng = selfmon_pmu__format(ev->pmu, "long");
	if (!lng)
		return false;
	selfmon_format__clear(lng, &ev->attr);
	*notes = (*notes & ~SELFMON_NOTE_LONG_ASKED) | SELFMON_NOTE_LONG_REFUSED;
	return true;
}

/*
 * INST_RETIRED, common event number 0x0008 (Arm ARM, "PMU events and event
 * numbers", the common architectural events): the event field is
 * config:0-15 (the PMU's format/event), the rest of config unused.
 */
static bool arm64_raw_instructions(const char *root, const struct perf_event_attr *attr)
{
	(void)root;
	return attr->config == 0x0008;
}

#ifdef CONFIG_PMU_EVENTS
/* The kernel's arm64 cpu-feature-registers document, "regs/identification". */
static int arm64_cpu_id(const char *root, int cpu, char *buf, size_t size)
{
	char path[96], text[64], *end;
	unsigned long long midr;
	int len;

	selfmon_fmt__print(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	len = selfmon_sysfs__read(root, path, text, sizeof(text));
	if (len < 0)
		return len;
	errno = 0;
	midr = strtoull(text, &end, 16);
	if (errno || end == text || *end)
		return -EINVAL;
	return selfmon_fmt__print(buf, size, "0x%016llx", midr) < (int)size ? 0 : -ENAMETOOLONG;
}
#endif

const struct selfmon_arch selfmon_arch__arm64 = {
	.name = "arm64",
	.prepare = arm64_prepare,
	.retry = arm64_retry,
	.raw_instructions = arm64_raw_instructions,
#ifdef CONFIG_PMU_EVENTS
	.cpu_id = arm64_cpu_id,
#endif
};

/*
 * MRS Xt, <sysreg> (Arm ARM, "System instructions"): 1101 0101 0011 op0[0]
 * op1 CRn CRm op2 Rt, with op0 = 3 for the EL0 PMU registers.
 * PMEVCNTR<n>_EL0: op1 3, CRn 14, CRm 0b10:n[4:3], op2 n[2:0];
 * PMCCNTR_EL0: op1 3, CRn 9, CRm 13, op2 0.
 */
bool selfmon_arm64__is_counter_mrs(uint32_t insn, int *rt)
{
	uint32_t op1 = (insn >> 16) & 7, crn = (insn >> 12) & 15, crm = (insn >> 8) & 15;
	uint32_t op2 = (insn >> 5) & 7;

	if ((insn & 0xfff80000u) != 0xd5380000u || op1 != 3)
		return false;
	if (!(crn == 14 && (crm & 0xc) == 8) && !(crn == 9 && crm == 13 && op2 == 0))
		return false;
	*rt = (int)(insn & 31);
	return true;
}
