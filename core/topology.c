// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sysfs.h"
#include "topology.h"
#include "fmt.h"

/*
 * What a core PMU's name says of its core, for machines whose CPUs all show
 * the same cpu_capacity (no capacity-dmips-mhz in the device tree, x86): 0
 * efficiency cores, 1 mid cores, 2 the rest. Order matters: first match wins.
 */
/* @part within @name. By hand: musl's strstr(3) is 1.3 KB of the smallest image. */
static bool contains(const char *name, const char *part)
{
	size_t n = strlen(part);

	for (; (name = strchr(name, *part)); name++)
		if (!strncmp(name, part, n))
			return true;
	return false;
}

static int name_score(const char *name)
{
	static const struct {
		const char *part;
		int score;
	} parts[] = {
		{ "atom", 0 }, { "icestorm", 0 }, { "blizzard", 0 }, { "a510", 0 },
		{ "a520", 0 }, { "a53", 0 },	  { "a55", 0 },	     { "a35", 0 },
		{ "a34", 0 },  { "a32", 0 },	  { "a7", 1 }, /* a72..a78, a710, a715, a720 */
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (contains(name, parts[i].part))
			return parts[i].score;
	return 2;
}

static unsigned long cluster_capacity(const char *root, const cpu_set_t *cpus)
{
	unsigned long best = 0;
	char path[96];
	long cap;

	for (int c = 0; c < SELFMON_NR_CPUS; c++) {
		if (!CPU_ISSET(c, cpus))
			continue;
		selfmon_fmt__print(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
		if (!selfmon_sysfs__read_long(root, path, &cap) && cap > 0 &&
		    (unsigned long)cap > best)
			best = (unsigned long)cap;
	}
	return best;
}

/*
 * The CPUs of a core PMU without a CPU list (x86 'cpu'): every online CPU,
 * else every possible one. Return: 0, or -ENOENT when neither file reads as a
 * CPU list (the cluster is then left out, and only hardware sets notice).
 */
static int all_cpus(const char *root, cpu_set_t *cpus)
{
	static const char *const files[] = { "/sys/devices/system/cpu/online",
					     "/sys/devices/system/cpu/possible" };
	char buf[4096];

	for (int i = 0; i < 2; i++)
		if (selfmon_sysfs__read(root, files[i], buf, sizeof(buf)) >= 0 &&
		    !selfmon_cpulist__parse(buf, cpus) && CPU_COUNT(cpus))
			return 0;
	return -ENOENT;
}

int selfmon_topology__load(struct selfmon_topology *t, const struct selfmon_pmus *pmus)
{
	bool by_capacity = false, by_name = false;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < pmus->nr && t->nr < SELFMON_MAX_CLUSTERS; i++) {
		const struct selfmon_pmu *pmu = &pmus->pmu[i];
		struct selfmon_cluster *cl = &t->cl[t->nr];

		if (!pmu->core)
			continue;
		cl->pmu = pmu;
		if (pmu->has_cpus) {
			cl->cpus = pmu->cpus;
		} else if (all_cpus(pmus->root, &cl->cpus)) {
			selfmon_fmt__print(
				t->notes, sizeof(t->notes),
				"PMU '%s' names no CPUs and "
				"/sys/devices/system/cpu/online and possible are missing or not CPU lists: "
				"its cluster is left out",
				pmu->name);
			continue;
		}
		cl->capacity = cluster_capacity(pmus->root, &cl->cpus);
		t->nr++;
	}

	/* Rank: capacity first, the name where capacities do not tell. */
	for (int i = 0; i < t->nr; i++) {
		for (int j = 0; j < t->nr; j++) {
			const struct selfmon_cluster *a = &t->cl[i], *b = &t->cl[j];
			int sa = name_score(a->pmu->name), sb = name_score(b->pmu->name);

			if (a->capacity > b->capacity) {
				t->cl[i].rank++;
				by_capacity = true;
			} else if (a->capacity == b->capacity && sa > sb) {
				t->cl[i].rank++;
				by_name = true;
			}
		}
	}
	t->ranked_by = t->nr < 2   ? NULL :
		       by_capacity ? "cpu_capacity" :
		       by_name	   ? "PMU name" :
				     NULL;
	return 0;
}

const char *selfmon_topology__notes(const struct selfmon_topology *t)
{
	return t->notes;
}

const struct selfmon_cluster *selfmon_topology__of_cpu(const struct selfmon_topology *t, int cpu)
{
	if (cpu < 0 || cpu >= SELFMON_NR_CPUS)
		return NULL;
	for (int i = 0; i < t->nr; i++)
		if (CPU_ISSET(cpu, &t->cl[i].cpus))
			return &t->cl[i];
	return NULL;
}

const struct selfmon_cluster *selfmon_topology__find(const struct selfmon_topology *t,
						     const char *pmu)
{
	for (int i = 0; i < t->nr; i++)
		if (!strcmp(t->cl[i].pmu->name, pmu))
			return &t->cl[i];
	return NULL;
}

static const struct selfmon_cluster *by_rank(const struct selfmon_topology *t, bool big)
{
	const struct selfmon_cluster *best = NULL;
	int n = 0;

	for (int i = 0; i < t->nr; i++) {
		const struct selfmon_cluster *c = &t->cl[i];

		if (!best || (big ? c->rank > best->rank : c->rank < best->rank)) {
			best = c;
			n = 1;
		} else if (c->rank == best->rank) {
			n++;
		}
	}
	if (n > 1) {
		errno = EINVAL;
		return NULL;
	}
	return best;
}

const struct selfmon_cluster *selfmon_topology__big(const struct selfmon_topology *t)
{
	return by_rank(t, true);
}

const struct selfmon_cluster *selfmon_topology__little(const struct selfmon_topology *t)
{
	return by_rank(t, false);
}

void selfmon_topology__describe(const struct selfmon_topology *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->nr && len < size; i++) {
		char cpus[256];
		int n;

		selfmon_cpulist__format(&t->cl[i].cpus, cpus, sizeof(cpus));
		n = selfmon_fmt__print(buf + len, size - len, "%s%s (%s)", i ? ", " : "", t->cl[i].pmu->name,
			     cpus);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	if (!t->nr)
		selfmon_fmt__print(buf, size, "no CPU PMU");
}
