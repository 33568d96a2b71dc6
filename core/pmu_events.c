// SPDX-License-Identifier: MIT
/*
 * The pmu-events tables (pmu_events.h): which core a CPU is, through the
 * rules of the kernel tree's mapfile.csv, and the events and metrics of a
 * core by name. Built with CONFIG_PMU_EVENTS only: without it, the library
 * carries neither tables nor this code.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "closest.h"
#include "pmu_events.h"
#include "pmu_events_find.h"
#include "fmt.h"

const char *selfmon_pe__str(const struct selfmon_pe_table *t, uint32_t off)
{
	return t->pool + off;
}

const char *selfmon_pe__desc(const struct selfmon_pe_table *t, uint32_t off)
{
	return t->dpool + off;
}

static bool arm64(const struct selfmon_pe_table *t)
{
	return !strcmp(t->arch, "arm64");
}

/* Which of these two the table names decides: an arm64 program links no regcomp. */
/*
 * arm64: mapfile.csv's MIDR has variant [23:20] and revision [3:0] zero, and
 * any variant and revision of the part matches it (perf's arm64 header.c).
 */
bool selfmon_pe__midr_matches(const char *rule, const char *id)
{
	unsigned long long r = strtoull(rule, NULL, 16), m = strtoull(id, NULL, 16);

	return (m & ~0xf0000full) == (r & ~0xf0000full);
}

/*
 * x86: the rule is a POSIX extended regex that must match the whole id,
 * "GenuineIntel-6-55-4", or the whole of it without the stepping (most rules
 * name family and model only).
 */
bool selfmon_pe__cpuid_matches(const char *rule, const char *id)
{
	char pat[256], bare[64];
	const char *dash = strrchr(id, '-');
	regex_t re;
	bool hit;

	if (selfmon_fmt__print(pat, sizeof(pat), "^(%s)$", rule) >= (int)sizeof(pat) ||
	    regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
		return false;
	hit = !regexec(&re, id, 0, NULL, 0);
	if (!hit && dash && (size_t)(dash - id) < sizeof(bare)) {
		memcpy(bare, id, (size_t)(dash - id));
		bare[dash - id] = '\0';
		hit = !regexec(&re, bare, 0, NULL, 0);
	}
	regfree(&re);
	return hit;
}

int selfmon_pe__match(const struct selfmon_pe_table *t, const char *id)
{
	for (int i = 0; i < t->nr_maps; i++) {
		const char *rule = selfmon_pe__str(t, t->maps[i].match);

		if (t->matches(rule, id))
			return (int)t->maps[i].core;
	}
	return -ENOENT;
}

int selfmon_pe__core_of_cpu(const struct selfmon_pe_table *t, const struct selfmon_arch *arch,
			    const char *root, int cpu, struct selfmon_pe_ident *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	out->core = -1;
	if (!arch->cpu_id)
		return -EOPNOTSUPP;
	err = arch->cpu_id(root, cpu, out->id, sizeof(out->id));
	if (err)
		return err;
	out->core = selfmon_pe__match(t, out->id);
	if (out->core < 0) {
		out->core = t->common;
		out->fallback = true;
	}
	return out->core < 0 ? -ENOENT : 0;
}

/*
 * Is the table entry of strings @name_at and @pmu_at the one asked for: its
 * name @name (in any case, as perf's), on @pmu (NULL: any; an entry of no
 * PMU serves every one)?
 */
static bool entry_is(const struct selfmon_pe_table *t, uint32_t name_at, uint32_t pmu_at,
		     const char *name, const char *pmu)
{
	const char *p = selfmon_pe__str(t, pmu_at);

	return !strcasecmp(selfmon_pe__str(t, name_at), name) && (!*p || !pmu || !strcmp(p, pmu));
}

const struct selfmon_pe_event *selfmon_pe__event(const struct selfmon_pe_table *t, int core,
						 const char *name, const char *pmu)
{
	for (int pass = 0; pass < 2 && core >= 0; pass++, core = t->common) {
		const struct selfmon_pe_core *c = &t->cores[core];

		for (uint32_t i = 0; i < c->nr_ev; i++) {
			const struct selfmon_pe_event *e = &t->events[t->ev_idx[c->ev_first + i]];

			if (entry_is(t, e->name, e->pmu, name, pmu))
				return e;
		}
		/* arm64: a core's own files leave out some of the standard events it has. */
		if (!arm64(t) || core == t->common)
			break;
	}
	return NULL;
}

void selfmon_pe__offer_events(const struct selfmon_pe_table *t, int core,
			      struct selfmon_closest *near)
{
	for (int pass = 0; pass < 2 && core >= 0; pass++, core = t->common) {
		const struct selfmon_pe_core *c = &t->cores[core];

		for (uint32_t i = 0; i < c->nr_ev; i++)
			selfmon_closest__offer(
				near, selfmon_pe__str(t, t->events[t->ev_idx[c->ev_first + i]].name));
		if (!arm64(t) || core == t->common)
			break;
	}
}

static const struct selfmon_pe_metric *core_metric(const struct selfmon_pe_table *t, int core,
						   const char *name, const char *pmu)
{
	const struct selfmon_pe_core *c = &t->cores[core];

	for (uint32_t i = 0; i < c->nr_m; i++) {
		const struct selfmon_pe_metric *m = &t->metrics[t->m_idx[c->m_first + i]];

		if (entry_is(t, m->name, m->pmu, name, pmu))
			return m;
	}
	return NULL;
}

/*
 * The common set's metrics serve every core that does not define them
 * itself: on arm64 the standard ones (Cortex-A53 and A72 have no
 * metrics.json; their PMUv3 counts INST_RETIRED and CPU_CYCLES all the
 * same), on both architectures the generic set over the kernel's generic
 * events (ipc, cpi, the miss ratios). A core's own metric of the same name
 * wins: its formula is the one the core's maintainers wrote for it. A metric
 * whose events a core lacks then fails to open, and says so.
 */
const struct selfmon_pe_metric *selfmon_pe__metric(const struct selfmon_pe_table *t, int core,
						   const char *name, const char *pmu)
{
	const struct selfmon_pe_metric *m = core_metric(t, core, name, pmu);

	if (!m && t->common >= 0 && core != t->common)
		m = core_metric(t, t->common, name, pmu);
	return m;
}

const struct selfmon_pe_metric *selfmon_pe__metric_at(const struct selfmon_pe_table *t, int core,
						      int idx)
{
	const struct selfmon_pe_core *c = &t->cores[core], *common;

	if (idx < 0)
		return NULL;
	if ((uint32_t)idx < c->nr_m)
		return &t->metrics[t->m_idx[c->m_first + (uint32_t)idx]];
	idx -= (int)c->nr_m;
	if (t->common < 0 || core == t->common)
		return NULL;
	common = &t->cores[t->common];
	for (uint32_t i = 0; i < common->nr_m; i++) {
		const struct selfmon_pe_metric *m = &t->metrics[t->m_idx[common->m_first + i]];

		if (core_metric(t, core, selfmon_pe__str(t, m->name), NULL))
			continue; /* the core's own replaces it */
		if (!idx--)
			return m;
	}
	return NULL;
}

bool selfmon_pe__in_group(const struct selfmon_pe_table *t, const struct selfmon_pe_metric *m,
			  const char *group)
{
	const char *g = selfmon_pe__str(t, m->groups);
	size_t n = strlen(group);

	while (*g) {
		size_t len = strcspn(g, ";");

		if (len == n && !strncasecmp(g, group, n))
			return true;
		g += len + (g[len] == ';');
	}
	return false;
}

/*
 * strcmp_cpuid_str(@want) of a metric: 1 if this CPU (@id) is the part
 * @want names, at its variant and revision or later (arm64); the id matches
 * @want as a mapfile rule (x86). perf's arm64 header.c and expr.y give these
 * meanings.
 */
int selfmon_pe__cpuid_at_least(const struct selfmon_pe_table *t, const char *id, const char *want)
{
	return t->at_least(id, want);
}

int selfmon_pe__cpuid_at_least_x86(const char *id, const char *want)
{
	return selfmon_pe__cpuid_matches(want, id);
}

int selfmon_pe__midr_at_least(const char *id, const char *want)
{
	unsigned long long m = strtoull(id, NULL, 16), w = strtoull(want, NULL, 16);

	if ((m & ~0xf0000full) != (w & ~0xf0000full))
		return 0;
	/* Variant, then revision. */
	return ((m >> 16) & 0xf0) + (m & 0xf) >= ((w >> 16) & 0xf0) + (w & 0xf);
}
