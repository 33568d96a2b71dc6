/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_PIN_H
#define SELFMON_CORE_PIN_H

#include "cpulist.h"
#include "topology.h"

/*
 * Where the thread that opens a set runs while it counts. The arm64 perf
 * document ("About heterogeneous systems"): user-space counter access works
 * only for a task pinned to a homogeneous subset of cores, with events opened
 * with that PMU's own type.
 */
enum selfmon_pin_kind {
	SELFMON_PIN_NONE,	/* leave affinity alone */
	SELFMON_PIN_CURRENT,	/* the cluster of the CPU the thread runs on now */
	SELFMON_PIN_BIG,
	SELFMON_PIN_LITTLE,
	SELFMON_PIN_PMU,	/* the cluster of a named core PMU */
	SELFMON_PIN_CPUS,	/* an explicit CPU list, within one cluster */
};

struct selfmon_pin {
	enum selfmon_pin_kind kind;
	char pmu[64];
	cpu_set_t cpus;
};

/*
 * Parse "none", "current", "big", "little", a CPU list ("2-3", "cpus:4,5")
 * or a core PMU's name. Return: 0 or -EINVAL.
 */
int selfmon_pin__parse(const char *policy, struct selfmon_pin *pin);

/*
 * The cluster and CPUs @pin means on @t, for a thread now on @cpu.
 * NONE gives *cl = NULL. Return: 0, -ENOENT (no such cluster) or -EINVAL
 * (CPUs spanning clusters, big/little not told apart); selfmon_errmsg() says which.
 */
int selfmon_pin__resolve(const struct selfmon_pin *pin, const struct selfmon_topology *t,
			 int cpu, const struct selfmon_cluster **cl, cpu_set_t *cpus);

#endif
