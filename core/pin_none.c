// SPDX-License-Identifier: MIT
/*
 * pin.h of a library built without CONFIG_PINNING: the thread's affinity
 * is never touched, and "none" is the only policy. Chosen instead of pin.c
 * when CONFIG_PINNING is off (core/objs.mk): the smallest image carries no
 * policy parser and no affinity holds (Kconfig, PINNING).
 */
#include <errno.h>
#include <string.h>

#include "error.h"
#include "pin.h"

int selfmon_pin__parse(const char *policy, struct selfmon_pin *pin)
{
	memset(pin, 0, sizeof(*pin));
	if (!strcmp(policy, "none"))
		return 0;
	return selfmon__err(-EOPNOTSUPP,
			    "pinning policy '%s': this selfmon was built without pinning "
			    "(CONFIG_PINNING off, as arm64_min_defconfig has it), and 'none' is "
			    "its only policy: unset SELFMON_PIN and selfmon_opts.pin, or rebuild "
			    "with CONFIG_PINNING=y",
			    policy);
}

int selfmon_pin__cpu(void)
{
	return -1;
}

/* Every policy parsed here is "none": no cluster, no CPUs. */
int selfmon_pin__resolve(const struct selfmon_pin *pin, const struct selfmon_topology *t, int cpu,
			 const struct selfmon_cluster **cl, cpu_set_t *cpus)
{
	(void)pin;
	(void)t;
	(void)cpu;
	*cl = NULL;
	CPU_ZERO(cpus);
	return 0;
}

/* Never called (no cluster is ever resolved), and refused if it were. */
int selfmon_pin__acquire(pid_t tid, const struct selfmon_cluster *cl, const cpu_set_t *cpus,
			 struct selfmon_pin_hold *hold)
{
	(void)tid;
	(void)cpus;
	(void)hold;
	return selfmon__err(-EOPNOTSUPP, "cannot pin to %s: built without pinning (CONFIG_PINNING off)",
			    cl->pmu->name);
}

/* No set holds a pin: nothing to give back. */
void selfmon_pin__release(const struct selfmon_pin_hold *hold, bool restore)
{
	(void)hold;
	(void)restore;
}
