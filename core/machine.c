// SPDX-License-Identifier: MIT
/*
 * <selfmon/machine.h>: the read-only view of PMUs, clusters, pinning and
 * gates, on top of the same discovery (pmu.c, topology.c, pin.c, sysfs.c)
 * that selfmon_set__open() uses, so that what probe shows is what a set gets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/machine.h>
#include <selfmon/selfmon.h>
#include "error.h"
#include "machine_int.h"
#include "event.h"
#include "pin.h"
#include "pmu.h"
#include "sysfs.h"
#include "topology.h"
#include "../util/err.h"

/* Room for any CPU list of SELFMON_NR_CPUS CPUs that a machine plausibly has. */
#define CPULIST_MAX 256

struct selfmon_machine {
	char *root;
	struct selfmon_pmus pmus;
	struct selfmon_topology topo;
	int topo_err;
	int paranoid_err, user_access_err;
	long paranoid, user_access;
	char (*pmu_cpus)[CPULIST_MAX]; /* one per PMU */
	char cl_cpus[SELFMON_MAX_CLUSTERS][CPULIST_MAX];
};

static int pmu_index(const struct selfmon_machine *m, const struct selfmon_pmu *pmu)
{
	return pmu ? (int)(pmu - m->pmus.pmu) : -1;
}

static int format_lists(struct selfmon_machine *m)
{
	m->pmu_cpus = calloc(m->pmus.nr ? (size_t)m->pmus.nr : 1, sizeof(*m->pmu_cpus));
	if (!m->pmu_cpus)
		return -ENOMEM;
	for (int i = 0; i < m->pmus.nr; i++)
		if (m->pmus.pmu[i].has_cpus)
			selfmon_cpulist__format(&m->pmus.pmu[i].cpus, m->pmu_cpus[i], CPULIST_MAX);
	for (int i = 0; i < m->topo.nr; i++)
		selfmon_cpulist__format(&m->topo.cl[i].cpus, m->cl_cpus[i], CPULIST_MAX);
	return 0;
}

struct selfmon_machine *selfmon_machine__open(const char *root)
{
	struct selfmon_machine *m = calloc(1, sizeof(*m));
	int err;

	if (!m) {
		err = selfmon__err(-ENOMEM, "selfmon_machine__open: out of memory");
		goto out;
	}
	m->root = strdup(selfmon_root__get(root));
	if (!m->root) {
		err = selfmon__err(-ENOMEM, "selfmon_machine__open: out of memory");
		goto out;
	}
	selfmon__err_clear();
	err = selfmon_pmus__load(&m->pmus, m->root);
	if (err) {
		/* Never an empty message: say what could not be read, and under which root. */
		if (!selfmon_errmsg()[0])
			selfmon__err(
				err,
				"cannot read the PMUs in %s%.64s%s/sys/bus/event_source/devices: %s",
				*m->root ? "'" : "", m->root,
				strlen(m->root) > 64 ? "...'" :
				*m->root	     ? "'" :
						       "",
				selfmon_strerror(err));
		goto out;
	}
	/* A topology that does not load leaves what it found: probe shows it. */
	m->topo_err = selfmon_topology__load(&m->topo, &m->pmus);
	m->paranoid_err = selfmon_sysfs__read_long(m->root, "/proc/sys/kernel/perf_event_paranoid",
						   &m->paranoid);
	m->user_access_err = selfmon_sysfs__read_long(m->root, "/proc/sys/kernel/perf_user_access",
						      &m->user_access);
	err = format_lists(m);
out:
	if (err)
		selfmon_machine__close(m);
	return err ? util_null_errno(err) : m;
}

void selfmon_machine__close(struct selfmon_machine *m)
{
	if (!m)
		return;
	selfmon_pmus__free(&m->pmus);
	free(m->pmu_cpus);
	free(m->root);
	free(m);
}

const char *selfmon_machine__root(const struct selfmon_machine *m)
{
	return m ? m->root : "";
}

int selfmon_machine__nr_pmus(const struct selfmon_machine *m)
{
	return m ? m->pmus.nr : 0;
}

int selfmon_machine__nr_core_pmus(const struct selfmon_machine *m)
{
	return m ? selfmon_pmus__nr_core(&m->pmus) : 0;
}

int selfmon_machine__pmu(const struct selfmon_machine *m, int idx, struct selfmon_pmu_info *info)
{
	const struct selfmon_pmu *pmu;

	if (!m || !info || idx < 0 || idx >= m->pmus.nr)
		return selfmon__err(-EINVAL, "selfmon_machine__pmu: no PMU %d (there are %d)", idx,
				    m ? m->pmus.nr : 0);
	pmu = &m->pmus.pmu[idx];
	info->name = pmu->name;
	info->type = pmu->type;
	info->core = pmu->core;
	info->cpus = pmu->has_cpus ? m->pmu_cpus[idx] : NULL;
	info->rdpmc = pmu->rdpmc;
	info->nr_formats = pmu->nr_formats;
	return 0;
}

int selfmon_machine__format(const struct selfmon_machine *m, int pmu, int fmt,
			    struct selfmon_format_info *info)
{
	static const char *const field[] = { "config", "config1", "config2" };
	const struct selfmon_format *f;

	if (!m || !info || pmu < 0 || pmu >= m->pmus.nr || fmt < 0 ||
	    fmt >= m->pmus.pmu[pmu].nr_formats)
		return selfmon__err(-EINVAL, "selfmon_machine__format: no format %d of PMU %d", fmt,
				    pmu);
	f = &m->pmus.pmu[pmu].formats[fmt];
	info->name = f->name;
	info->field = f->field >= 0 && f->field < 3 ? field[f->field] : "?";
	info->mask = selfmon_format__mask(f);
	return 0;
}

int selfmon_machine__default_pmu(const struct selfmon_machine *m)
{
	return m ? pmu_index(m, selfmon_pmus__default_core(&m->pmus)) : -1;
}

int selfmon_machine__nr_clusters(const struct selfmon_machine *m)
{
	return m ? m->topo.nr : 0;
}

int selfmon_machine__cluster(const struct selfmon_machine *m, int idx,
			     struct selfmon_cluster_info *info)
{
	const struct selfmon_cluster *c, *big, *little;

	if (!m || !info || idx < 0 || idx >= m->topo.nr)
		return selfmon__err(-EINVAL,
				    "selfmon_machine__cluster: no cluster %d (there are %d)", idx,
				    m ? m->topo.nr : 0);
	c = &m->topo.cl[idx];
	big = selfmon_topology__big(&m->topo);
	little = selfmon_topology__little(&m->topo);
	info->pmu = pmu_index(m, c->pmu);
	info->name = c->pmu->name;
	info->cpus = m->cl_cpus[idx];
	info->capacity = c->capacity;
	info->rank = c->rank;
	info->big = c == big;
	info->little = c == little;
	return 0;
}

int selfmon_machine__cluster_of_cpu(const struct selfmon_machine *m, int cpu)
{
	const struct selfmon_cluster *c;

	if (!m)
		return -EINVAL;
	c = selfmon_topology__of_cpu(&m->topo, cpu);
	return c ? (int)(c - m->topo.cl) : -ENOENT;
}

const char *selfmon_machine__ranked_by(const struct selfmon_machine *m)
{
	return m ? m->topo.ranked_by : NULL;
}

int selfmon_machine__resolve_pin(const struct selfmon_machine *m, const char *policy, int cpu,
				 int *cluster, char *cpus, size_t size)
{
	const struct selfmon_cluster *cl = NULL;
	struct selfmon_pin pin;
	cpu_set_t set;
	int err;

	if (!m || !policy || !cluster || !cpus || !size)
		return selfmon__err(-EINVAL, "selfmon_machine__resolve_pin: a NULL argument");
	*cluster = -1;
	cpus[0] = '\0';
	err = selfmon_pin__parse(policy, &pin);
	if (!err)
		err = selfmon_pin__resolve(&pin, &m->topo, cpu, &cl, &set);
	if (err || !cl)
		return err;
	*cluster = (int)(cl - m->topo.cl);
	if (selfmon_cpulist__format(&set, cpus, size))
		return selfmon__err(
			-ENOSPC, "selfmon_machine__resolve_pin: %zu bytes do not hold the CPU list",
			size);
	return 0;
}

int selfmon_machine__paranoid(const struct selfmon_machine *m, long *val)
{
	if (!m || !val || m->paranoid_err)
		return -ENOENT;
	*val = m->paranoid;
	return 0;
}

int selfmon_machine__user_access(const struct selfmon_machine *m, long *val)
{
	if (!m || !val || m->user_access_err)
		return -ENOENT;
	*val = m->user_access;
	return 0;
}

const char *selfmon_events__standard(int idx)
{
	for (int i = 0; i >= 0 && i <= idx; i++)
		if (!selfmon_event__standard[i])
			return NULL;
	return idx < 0 ? NULL : selfmon_event__standard[idx];
}

const struct selfmon_pmus *selfmon_machine__pmus_of(const struct selfmon_machine *m)
{
	return &m->pmus;
}

int selfmon_machine__topology_of(const struct selfmon_machine *m, const struct selfmon_topology **t)
{
	*t = &m->topo;
	return m->topo_err;
}
