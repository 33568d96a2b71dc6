// SPDX-License-Identifier: MIT
/*
 * x86 gates: rdpmc in user space is allowed when the core PMU's sysfs
 * 'rdpmc' attribute is 1 (for events the task has mmapped, CR4.PCE set
 * while it runs) or 2 (always); 0 makes rdpmc fault. The mmap page's
 * cap_user_rdpmc then says it per event.
 */
#include "../../core/arch.h"

static enum selfmon_reason x86_prepare(const char *root, struct selfmon_event *ev,
				       bool want_long, unsigned int *notes)
{
	(void)root;
	(void)want_long;	/* x86 counters are read at full width */
	(void)notes;
	if (!ev->pmu)
		return SELFMON_REASON_NO_PMU;
	if (ev->pmu->rdpmc == 0)
		return SELFMON_REASON_SYSFS_RDPMC;
	return SELFMON_REASON_NONE;
}

static bool x86_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	(void)ev;
	(void)err;
	(void)notes;
	return false;
}

const struct selfmon_arch selfmon_arch__x86 = {
	.name = "x86_64",
	.prepare = x86_prepare,
	.retry = x86_retry,
};
