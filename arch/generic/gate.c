// SPDX-License-Identifier: MIT
/* No counter instruction: every event is read with read(2). */
#include <errno.h>

#include <generated/autoconf.h>
#include "../../core/arch_int.h"

static enum selfmon_reason generic_prepare(const char *root, struct selfmon_event *ev,
					   bool want_long, unsigned int *notes)
{
	(void)root;
	(void)ev;
	(void)want_long;
	(void)notes;
	return SELFMON_REASON_ARCH;
}

#ifdef CONFIG_PMU_EVENTS
static int generic_cpu_id(const char *root, int cpu, char *buf, size_t size)
{
	(void)root, (void)cpu, (void)buf, (void)size;
	return -EOPNOTSUPP; /* no pmu-events tables for other architectures */
}
#endif

const struct selfmon_arch selfmon_arch__generic = {
	.name = "generic",
	.prepare = generic_prepare,
	.retry = selfmon_arch__no_retry,
	.raw_instructions = selfmon_arch__no_raw_instructions,
#ifdef CONFIG_PMU_EVENTS
	.cpu_id = generic_cpu_id,
#endif
};
