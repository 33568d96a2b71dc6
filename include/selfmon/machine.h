/* SPDX-License-Identifier: MIT */
/*
 * A read-only view of the machine as selfmon sees it: its PMUs, its clusters
 * (one per core PMU, ranked big to little), what a pinning policy resolves
 * to, and the gates (sysctls, x86 rdpmc) that decide whether a thread may
 * read its counters from user space. `selfmon probe` prints this; a harness
 * of your own may use it to choose a cluster or explain a result.
 *
 * Everything comes from one scan of sysfs and procfs at
 * selfmon_machine__open() (under SELFMON_SYSFS_ROOT when set, as for every
 * selfmon call). Strings and info structs point into the object: valid until
 * selfmon_machine__close().
 */
#ifndef SELFMON_MACHINE_H
#define SELFMON_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The machine view. Opaque. */
struct selfmon_machine;

/** A PMU of /sys/bus/event_source/devices, as selfmon_machine__pmu() gives it. */
struct selfmon_pmu_info {
	const char *name; /**< the directory's name ("armv8_cortex_a53", "cpu") */
	uint32_t type; /**< perf_event_attr.type of its events */
	int core; /**< 1: a CPU PMU, counting what the thread executes */
	const char *cpus; /**< its CPUs as a list ("0-3"); NULL: no cpus file, every CPU */
	int rdpmc; /**< x86 sysfs 'rdpmc': 0 off, 1 mmapped events, 2 any; -1: no file */
	int nr_formats; /**< files in its format/ directory */
};

/** One file of a PMU's format/ directory: the bits a term fills. */
struct selfmon_format_info {
	const char *name; /**< the term ("event", "rdpmc", "long") */
	const char *field; /**< "config", "config1" or "config2" */
	uint64_t mask; /**< the bits of that field it fills */
};

/** A cluster: the CPUs one core PMU counts on, one core type. */
struct selfmon_cluster_info {
	int pmu; /**< index of its PMU for selfmon_machine__pmu() */
	const char *name; /**< that PMU's name */
	const char *cpus; /**< its CPUs as a list ("4-5") */
	unsigned long capacity; /**< largest cpu_capacity of its CPUs; 0: unknown */
	int rank; /**< 0: the littlest ... clusters - 1: the biggest (ties share) */
	int big; /**< 1: the one "big" pins to (a lone cluster is big and little) */
	int little; /**< 1: the one "little" pins to */
};

/**
 * selfmon_machine__open() - scan the PMUs, clusters and gates
 * @root: replaces "/" for /sys and /proc (tests, fixture trees); NULL:
 *	$SELFMON_SYSFS_ROOT, else the real ones.
 *
 * No PMU at all is not an error: the view is then empty.
 * Return: the view, or NULL with errno set (selfmon_errmsg() says why).
 */
struct selfmon_machine *selfmon_machine__open(const char *root);

/** selfmon_machine__close() - free the view. NULL is fine. */
void selfmon_machine__close(struct selfmon_machine *m);

/**
 * selfmon_machine__root() - the root the view was read from: "" for the
 * real /sys and /proc, else the fixture directory.
 */
const char *selfmon_machine__root(const struct selfmon_machine *m);

/** selfmon_machine__nr_pmus() - number of PMUs, in type order; 0 for NULL. */
int selfmon_machine__nr_pmus(const struct selfmon_machine *m);

/** selfmon_machine__nr_core_pmus() - how many of them are CPU PMUs. */
int selfmon_machine__nr_core_pmus(const struct selfmon_machine *m);

/**
 * selfmon_machine__pmu() - PMU @idx (0 .. selfmon_machine__nr_pmus() - 1)
 * Return: 0, or -EINVAL for a bad @idx or a NULL argument.
 */
int selfmon_machine__pmu(const struct selfmon_machine *m, int idx, struct selfmon_pmu_info *info);

/**
 * selfmon_machine__format() - format file @fmt of PMU @pmu
 * Return: 0, or -EINVAL for a bad index or a NULL argument.
 */
int selfmon_machine__format(const struct selfmon_machine *m, int pmu, int fmt,
			    struct selfmon_format_info *info);

/**
 * selfmon_machine__default_pmu() - the index of the CPU PMU that generic
 * hardware events ("cycles", "rNNNN") land on when opened unpinned, or -1
 * when the machine has no hardware PMU (a VM without a virtual PMU).
 */
int selfmon_machine__default_pmu(const struct selfmon_machine *m);

/** selfmon_machine__nr_clusters() - one per core PMU; 0 without one. */
int selfmon_machine__nr_clusters(const struct selfmon_machine *m);

/**
 * selfmon_machine__cluster() - cluster @idx, in PMU type order
 * Return: 0, or -EINVAL for a bad @idx or a NULL argument.
 */
int selfmon_machine__cluster(const struct selfmon_machine *m, int idx,
			     struct selfmon_cluster_info *info);

/**
 * selfmon_machine__cluster_of_cpu() - the cluster holding CPU @cpu
 * Return: its index, or -ENOENT (no cluster has it) or -EINVAL.
 */
int selfmon_machine__cluster_of_cpu(const struct selfmon_machine *m, int cpu);

/**
 * selfmon_machine__ranked_by() - how big and little were told apart:
 * "cpu_capacity", "PMU name", or NULL (one cluster, or they cannot be).
 */
const char *selfmon_machine__ranked_by(const struct selfmon_machine *m);

/**
 * selfmon_machine__resolve_pin() - what a pinning policy means here, as
 * selfmon_set__open() would apply it (see selfmon_opts.pin)
 * @policy: "none", "current", "big", "little", a core PMU's name or a CPU list
 * @cpu: the CPU the thread is taken to run on, for "current"
 * @cluster: set to the cluster's index, or -1 when the policy pins nothing
 *	("none", or no core PMU here)
 * @cpus: the CPUs it pins to, as a list ("" when it pins nothing)
 * @size: room in @cpus
 *
 * Return: 0, -EINVAL (a policy that does not parse, CPUs spanning clusters,
 * big and little not told apart, a NULL argument) or -ENOENT (no such
 * cluster); selfmon_errmsg() says which, with the clusters there are.
 */
int selfmon_machine__resolve_pin(const struct selfmon_machine *m, const char *policy, int cpu,
				 int *cluster, char *cpus, size_t size);

/**
 * selfmon_machine__paranoid() - kernel.perf_event_paranoid, as read at open
 * Return: 0 with @val set, or -ENOENT when the file is absent or unreadable
 * (not a value: -1 is a real setting, "no restrictions").
 */
int selfmon_machine__paranoid(const struct selfmon_machine *m, long *val);

/**
 * selfmon_machine__user_access() - arm64's kernel.perf_user_access, as read
 * at open. Return: 0 with @val set, or -ENOENT when the kernel has none.
 */
int selfmon_machine__user_access(const struct selfmon_machine *m, long *val);

/**
 * selfmon_events__standard() - generic event @idx of those selfmon knows by
 * name ("cycles", "instructions", "task-clock", ...), or NULL past the last.
 */
const char *selfmon_events__standard(int idx);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_MACHINE_H */
