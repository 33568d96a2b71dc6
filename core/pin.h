/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_PIN_H
#define SELFMON_CORE_PIN_H

#include <stdbool.h>
#include <sys/types.h>

#include "cpulist.h"
#include "topology.h"

/*
 * Where the thread that opens a set runs while it counts. The arm64 perf
 * document ("About heterogeneous systems"): user-space counter access works
 * only for a task pinned to a homogeneous subset of cores, with events opened
 * with that PMU's own type.
 */
enum selfmon_pin_kind {
	SELFMON_PIN_NONE, /* leave affinity alone */
	SELFMON_PIN_CURRENT, /* the cluster of the CPU the thread runs on now */
	SELFMON_PIN_BIG,
	SELFMON_PIN_LITTLE,
	SELFMON_PIN_PMU, /* the cluster of a named core PMU */
	SELFMON_PIN_CPUS, /* an explicit CPU list, within one cluster */
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
int selfmon_pin__resolve(const struct selfmon_pin *pin, const struct selfmon_topology *t, int cpu,
			 const struct selfmon_cluster **cl, cpu_set_t *cpus);

/*
 * The CPU the calling thread runs on, as pinning judges it: sched_getcpu(3),
 * or -1 in a build without pinning, which never asks.
 */
int selfmon_pin__cpu(void);

/*
 * A thread has one affinity, whatever number of sets pinned it: the sets of
 * one thread share one hold on it. The first pinned set narrows the affinity
 * (within the one the thread has) and saves the old one; later sets for the
 * same cluster share the hold; a set for another cluster is refused, since
 * moving the thread would take the first set off its counters. The last
 * release gives the saved affinity back.
 */
struct selfmon_pin_hold {
	pid_t pid; /* the process of thread @tid */
	pid_t tid;
	char pmu[64]; /* the cluster's PMU */
	cpu_set_t cpus; /* where the thread may run now */
};

/*
 * Take a hold for thread @tid (the caller) on cluster @cl with @cpus, the
 * CPUs the policy resolved to. Return: 0 with @hold filled, -EBUSY (pinned
 * to another cluster by an open set), -EINVAL (no allowed CPU there) or
 * -errno of sched_{get,set}affinity; selfmon_errmsg() says which.
 */
int selfmon_pin__acquire(pid_t tid, const struct selfmon_cluster *cl, const cpu_set_t *cpus,
			 struct selfmon_pin_hold *hold);

/*
 * Drop one hold of @hold->tid; the last one restores the saved affinity
 * when @restore (false in a forked child, whose thread is not that tid).
 */
void selfmon_pin__release(const struct selfmon_pin_hold *hold, bool restore);

#endif
