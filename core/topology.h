/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_TOPOLOGY_H
#define SELFMON_CORE_TOPOLOGY_H

#include <stdbool.h>

#include "cpulist.h"
#include "pmu.h"

#define SELFMON_MAX_CLUSTERS 8

/* The CPUs one core PMU counts on: a cluster of one core type. */
struct selfmon_cluster {
	const struct selfmon_pmu *pmu;
	cpu_set_t cpus;
	unsigned long capacity; /* largest cpu_capacity of its CPUs; 0: unknown */
	int rank; /* 0: the littlest ... nr - 1: the biggest (ties share) */
};

struct selfmon_topology {
	int nr;
	struct selfmon_cluster cl[SELFMON_MAX_CLUSTERS];
	/* How big and little were told apart: "cpu_capacity", "PMU name", or NULL. */
	const char *ranked_by;
	/* A cluster left out and why ("" if none): selfmon_topology__notes(). */
	char notes[256];
};

/*
 * One cluster per core PMU (arm64 core PMUs and x86 cpu_core/cpu_atom name
 * their CPUs in 'cpus'; a PMU without the file, x86 'cpu', covers every online
 * CPU). Big and little come from cpu_capacity where the CPUs differ in it,
 * else from what the PMU's name says of the core (cpu_atom, icestorm,
 * cortex_a53/a55/a510/a520 are the little ones).
 * A PMU without a CPU list whose machine has no readable 'online' nor
 * 'possible' is left out with a note: software-only sets never need it.
 * Return: 0 (no core PMU gives nr == 0).
 */
int selfmon_topology__load(struct selfmon_topology *t, const struct selfmon_pmus *pmus);

/* Why a core PMU got no cluster, for probe; "" when every one did. */
const char *selfmon_topology__notes(const struct selfmon_topology *t);

const struct selfmon_cluster *selfmon_topology__of_cpu(const struct selfmon_topology *t, int cpu);
const struct selfmon_cluster *selfmon_topology__find(const struct selfmon_topology *t,
						     const char *pmu);

/* The clusters of highest / lowest rank; NULL (and -EINVAL) if two share it. */
const struct selfmon_cluster *selfmon_topology__big(const struct selfmon_topology *t);
const struct selfmon_cluster *selfmon_topology__little(const struct selfmon_topology *t);

/* "armv8_cortex_a72 (4-5), armv8_cortex_a53 (0-3)", in type order, for messages. */
void selfmon_topology__describe(const struct selfmon_topology *t, char *buf, size_t size);

#endif
