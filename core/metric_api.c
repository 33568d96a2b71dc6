// SPDX-License-Identifier: MIT
/*
 * <selfmon/metric.h>: metrics of a core resolved, their events, their
 * columns (built with CONFIG_PMU_EVENTS: core/objs.mk). The tables listed:
 * metric_list.c; a list split into events and metrics: metric_split.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <selfmon/metric.h>
#include "error.h"
#include "errtext.h"
#include "event.h"
#include "closest.h"
#include "metric_int.h"
#include "metric_api.h"
#include "sysfs.h"
#include "fmt.h"

/* The CPU's core PMU: the one whose CPUs hold it, else the default. */
static const struct selfmon_pmu *pmu_of_cpu(const struct selfmon_pmus *pmus, int cpu)
{
	for (int i = 0; i < pmus->nr; i++)
		if (pmus->pmu[i].core && pmus->pmu[i].has_cpus &&
		    CPU_ISSET(cpu, &pmus->pmu[i].cpus))
			return &pmus->pmu[i];
	return selfmon_pmus__default_core(pmus);
}

/* What a self-monitoring thread knows of the literals perf's metrics use. */
static int literal(void *arg, const char *name, double *v, char *why, size_t why_size)
{
	struct selfmon_metrics *m = arg;
	char path[160];
	long n = -1;

	if (!strcmp(name, "slots") && m->pmu) {
		selfmon_fmt__print(path, sizeof(path), "/sys/bus/event_source/devices/%s/caps/slots",
			 m->pmu->name);
		if (!selfmon_sysfs__read_long(m->pmus.root, path, &n) && n > 0)
			return *v = (double)n, 0;
		selfmon_fmt__print(why, why_size,
			 "#slots: the '%s' PMU has no caps/slots (kernel 6.4 or later, "
			 "PMMIR_EL1.SLOTS)",
			 m->pmu->name);
		return -ENOENT;
	}
	if (!strcmp(name, "smt_on") || !strcmp(name, "core_wide")) {
		if (selfmon_sysfs__read_long(m->pmus.root, "/sys/devices/system/cpu/smt/active",
					     &n))
			n = 0;
		/* core_wide: counting the whole core, which a thread counting itself does only without SMT. */
		return *v = !strcmp(name, "smt_on") ? (double)(n == 1) : (double)(n != 1), 0;
	}
	if (!strcmp(name, "num_cpus") || !strcmp(name, "num_cpus_online"))
		return *v = (double)sysconf(name[8] ? _SC_NPROCESSORS_ONLN : _SC_NPROCESSORS_CONF),
		       0;
	selfmon_fmt__print(why, why_size, "literal '#%s' is not known to a self-monitoring thread", name);
	return -EOPNOTSUPP;
}

/* Collecting: note each event a metric needs, as selfmon's parser will open it. */
static int collect(void *arg, const struct selfmon_pe_event *ev, const char *name, double *v,
		   char *why, size_t why_size)
{
	struct selfmon_metrics *m = arg;
	struct one *o = (struct one *)m->cur;
	struct selfmon_event probe;

	*v = 1;
	if (!strcmp(name, "duration_time"))
		return 0;
	if (!ev && selfmon_event__parse(name, &m->pmus, &probe)) {
		selfmon_fmt__print(why, why_size, "event '%s' is in neither this core's tables nor the PMU's",
			 name);
		return -ENOENT;
	}
	for (int i = 0; i < o->nr_ev; i++)
		if (!strncasecmp(o->ev[i], name, strlen(name)) &&
		    o->ev[i][strlen(name)] == (*m->mods ? ':' : '\0'))
			return 0;
	if (o->nr_ev == MAX_MEVENTS) {
		selfmon_fmt__print(why, why_size, "more than %d events: too many for one group", MAX_MEVENTS);
		return -E2BIG;
	}
	if (*m->mods && strchr(name, ':')) {
		selfmon_fmt__print(why, why_size, "event '%s' brings modifiers of its own", name);
		return -EOPNOTSUPP;
	}
	selfmon_fmt__print(o->ev[o->nr_ev++], SELFMON_EVENT_NAME_MAX, "%s%s%s", name, *m->mods ? ":" : "",
		 m->mods);
	return 0;
}

/*
 * No core PMU in /sys/bus/event_source/devices (a VM without a virtual PMU):
 * a metric over hardware events resolves, and says it cannot open here.
 */
static bool needs_absent_pmu(struct selfmon_metrics *m, struct one *o)
{
	struct selfmon_event ev;

	if (m->pmu)
		return false;
	for (int i = 0; i < o->nr_ev; i++)
		if (selfmon_event__parse(o->ev[i], &m->pmus, &ev) || ev.hardware) {
			selfmon_fmt__print(o->why, sizeof(o->why),
				 "cannot open: no PMU (no core PMU driver in "
				 "/sys/bus/event_source/devices: a VM without a virtual PMU?); "
				 "only software events count here");
			return true;
		}
	return false;
}

/* The evaluator's view of @m's machine, its events counted by @count. */
static struct selfmon_metric_ctx ctx_of(struct selfmon_metrics *m,
					int (*count)(void *, const struct selfmon_pe_event *,
						     const char *, double *, char *, size_t))
{
	return (struct selfmon_metric_ctx){
		.t = m->t,
		.core = m->id.core,
		.cpuid = m->id.id,
		.count = count,
		.literal = literal,
		.arg = m,
	};
}

static int add_metric(struct selfmon_metrics *m, const struct selfmon_pe_metric *pm)
{
	struct selfmon_metric_ctx ctx = ctx_of(m, collect);
	struct one *o;
	double v;

	for (int i = 0; i < m->nr; i++)
		if (m->m[i].pm == pm)
			return 0;
	if (m->nr == MAX_METRICS)
		return selfmon__err(-E2BIG, "more than %d metrics", MAX_METRICS);
	o = &m->m[m->nr++];
	memset(o, 0, sizeof(*o));
	o->pm = pm;
	m->cur = o;
	if (m->pmu && m->pmu->core && strcmp(m->pmu->name, "cpu") &&
	    !strncmp(m->pmu->name, "cpu_", 4))
		ctx.pmu = m->pmu->name;
	if (selfmon_metric__eval(&ctx, pm, true, &v, o->why, sizeof(o->why)) ||
	    needs_absent_pmu(m, o))
		o->nr_ev = 0;
	else if (!o->nr_ev)
		selfmon_fmt__print(o->why, sizeof(o->why), "it counts no event");
	return 0;
}

/* The metrics and the groups of this core closest to @name, for the error that refuses it. */
static int unknown(struct selfmon_metrics *m, const char *name)
{
	const struct selfmon_pe_core *c = &m->t->cores[m->id.core];
	const struct selfmon_pe_metric *pm;
	struct selfmon_closest near;
	char list[SELFMON_CLOSEST_MAX * (SELFMON_CLOSEST_NAME + 4)];

	selfmon_closest__init(&near, name);
	for (int i = 0; (pm = selfmon_pe__metric_at(m->t, m->id.core, i)); i++) {
		const char *g = selfmon_pe__str(m->t, pm->groups);
		char group[SELFMON_CLOSEST_NAME];

		selfmon_closest__offer(&near, selfmon_pe__str(m->t, pm->name));
		for (size_t len; *g; g += len + (g[len] == ';')) {
			len = strcspn(g, ";");
			selfmon_fmt__print(group, sizeof(group), "%.*s", (int)len, g);
			selfmon_closest__offer(&near, group);
		}
	}
	selfmon_closest__format(&near, list, sizeof(list));
	return selfmon__err(
		-ENOENT,
		"no metric or metric group '%s' on this core (%s)%s%s: selfmon list shows them",
		name, selfmon_pe__str(m->t, c->name), *list ? "; close: " : "", list);
}

/*
 * A group some cores' tables spell otherwise: AMD's Zen tables call
 * top-down level 1 PipelineL1 (frontend_bound, bad_speculation,
 * backend_bound, retiring), Intel's and Arm's TopdownL1.
 */
static const char *const group_alias[][2] = { { "TopdownL1", "PipelineL1" } };

/* The metrics of group @group. Return: how many, or -errno. */
static int add_group(struct selfmon_metrics *m, const char *group)
{
	const struct selfmon_pe_metric *pm;
	int found = 0, err;

	for (int i = 0; (pm = selfmon_pe__metric_at(m->t, m->id.core, i)); i++) {
		if (selfmon_pe__in_group(m->t, pm, group)) {
			err = add_metric(m, pm);
			if (err)
				return err;
			found++;
		}
	}
	return found;
}

/* One name of the list: a metric, else a metric group (or its other spelling). */
static int add_name(struct selfmon_metrics *m, const char *name)
{
	const struct selfmon_pe_metric *pm = selfmon_pe__metric(m->t, m->id.core, name, NULL);
	int found;

	if (pm)
		return add_metric(m, pm);
	found = add_group(m, name);
	for (size_t i = 0; !found && i < sizeof(group_alias) / sizeof(group_alias[0]); i++)
		if (!strcasecmp(name, group_alias[i][0]))
			found = add_group(m, group_alias[i][1]);
	return found < 0 ? found : found ? 0 : unknown(m, name);
}

/*
 * Whether @p's group counts every event of @o (by name, modifiers
 * included): if so, @o rides on it, one instant for all its events and no
 * counter taken twice. Return: true if it does.
 */
static bool ride_on(struct one *o, const struct one *p, int ride)
{
	for (int e = 0; e < o->nr_ev; e++) {
		int k = 0;

		while (k < p->nr_ev && strcasecmp(o->ev[e], p->ev[k]))
			k++;
		if (k == p->nr_ev)
			return false;
		o->ride_at[e] = k;
	}
	o->ride = ride;
	return true;
}

/* Each metric not shared whose events an earlier metric's own group counts rides on that group. */
static void plan_rides(struct selfmon_metrics *m)
{
	for (int i = 0; i < m->nr; i++) {
		struct one *o = &m->m[i];

		o->ride = 0;
		for (int j = 0; !o->shared && o->nr_ev && j < i; j++) {
			const struct one *p = &m->m[j];

			if (p->nr_ev && !p->shared && !p->ride && ride_on(o, p, j + 1))
				break;
		}
	}
}

void selfmon_metrics__list_events(struct selfmon_metrics *m)
{
	size_t len = 0;

	plan_rides(m);
	m->events[0] = '\0';
	for (int i = 0; i < m->nr; i++) {
		const struct one *o = &m->m[i];

		for (int e = 0; !o->shared && !o->ride && e < o->nr_ev &&
				len + SELFMON_EVENT_NAME_MAX + 4 < sizeof(m->events);
		     e++)
			len += (size_t)selfmon_fmt__print(m->events + len, sizeof(m->events) - len,
						"%s%s%s%s", !e && len ? "," : "", !e ? "{" : ",",
						o->ev[e], e == o->nr_ev - 1 ? "}" : "");
	}
}

static int identify(struct selfmon_metrics *m, int cpu)
{
	const char *root = selfmon_root__get(NULL);
	int err;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0)
		cpu = 0;
	m->t = &selfmon_pe__table;
	err = selfmon_pmus__load(&m->pmus, root);
	if (err)
		return selfmon__err(
			err, "metrics: cannot read the PMUs under '%s/sys/bus/event_source'", root);
	m->pmu = pmu_of_cpu(&m->pmus, cpu);
	err = selfmon_pe__core_of_cpu(m->t, selfmon_arch__host(), root, cpu, &m->id);
	if (err)
		return selfmon__err(
			err,
			"metrics: CPU %d's core cannot be told (%s), and these tables have no "
			"common set for it",
			cpu, selfmon_errtext__str(-err));
	return 0;
}

struct selfmon_metrics *selfmon_metrics__new(const char *names, int cpu, const char *mods)
{
	struct selfmon_metrics *m = calloc(1, sizeof(*m));
	char *list = names ? strdup(names) : NULL, *save = NULL, *tok;
	int err = m && list ? 0 : -ENOMEM;

	if (!err && (!mods ? 0 : strlen(mods) >= sizeof(m->mods)))
		err = selfmon__err(-EINVAL, "metrics: modifiers '%s' too long", mods);
	if (!err) {
		selfmon_fmt__print(m->mods, sizeof(m->mods), "%s", mods ? mods : "");
		err = identify(m, cpu);
	}
	for (tok = err ? NULL : strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok += strspn(tok, " @");
		err = *tok ? add_name(m, tok) :
			     selfmon__err(-EINVAL, "metrics '%s': an empty name", names);
		if (err)
			break;
	}
	if (!err && !m->nr)
		err = selfmon__err(-EINVAL, "metrics: no name given");
	free(list);
	if (err) {
		selfmon_metrics__delete(m);
		errno = -err;
		return NULL;
	}
	selfmon_metrics__list_events(m);
	return m;
}

void selfmon_metrics__delete(struct selfmon_metrics *m)
{
	if (!m)
		return;
	selfmon_pmus__free(&m->pmus);
	free(m);
}

const char *selfmon_metrics__core(const struct selfmon_metrics *m, int *fallback)
{
	if (fallback)
		*fallback = m->id.fallback;
	return selfmon_pe__str(m->t, m->t->cores[m->id.core].name);
}

const char *selfmon_metrics__events(const struct selfmon_metrics *m)
{
	return m->events;
}

int selfmon_metrics__nr(const struct selfmon_metrics *m)
{
	return m->nr;
}

const char *selfmon_metrics__name(const struct selfmon_metrics *m, int i)
{
	return i < 0 || i >= m->nr ? NULL : selfmon_pe__str(m->t, m->m[i].pm->name);
}

const char *selfmon_metrics__unit(const struct selfmon_metrics *m, int i)
{
	return i < 0 || i >= m->nr ? NULL : selfmon_pe__str(m->t, m->m[i].pm->unit);
}

const char *selfmon_metrics__why(const struct selfmon_metrics *m, int i)
{
	return i < 0 || i >= m->nr ? NULL : m->m[i].why;
}

/* A repetition's count of one event of the metric (m->col), or the region's time. */
static int column_count(void *arg, const struct selfmon_pe_event *ev, const char *name, double *v,
			char *why, size_t why_size)
{
	struct selfmon_metrics *m = arg;
	const struct selfmon_bench_result *res = m->res;
	size_t n = strlen(name);

	(void)ev;
	if (!strcmp(name, "duration_time") && !strcmp(res->col[0].name, "time"))
		return *v = res->samples[(size_t)m->rep] * 1e-9, 0; /* ns per iteration */
	for (int e = 0; e < m->cur->nr_ev; e++)
		if (!strncasecmp(m->cur->ev[e], name, n) &&
		    (m->cur->ev[e][n] == ':' || !m->cur->ev[e][n]))
			return *v = res->samples[(size_t)m->col[e] * (size_t)res->kept +
						 (size_t)m->rep],
			       0;
	selfmon_fmt__print(why, why_size, "event '%s' was not counted", name);
	return -ENOENT;
}

static bool same_events(const struct one *a, const struct one *b)
{
	if (a->nr_ev != b->nr_ev)
		return false;
	for (int e = 0; e < a->nr_ev; e++)
		if (strcasecmp(a->ev[e], b->ev[e]))
			return false;
	return true;
}

/*
 * The first column of @o's group: the run of columns named as its events,
 * the k-th such run when k earlier metrics opened the same events (each
 * metric has a group of its own, in the order of selfmon_metrics__events()).
 * -1: none.
 */
static int find_group(const struct selfmon_metrics *m, const struct selfmon_bench_result *res,
		      const struct one *o)
{
	int skip = 0;

	for (const struct one *p = m->m; p < o; p++)
		skip += p->nr_ev && !p->shared && !p->ride && same_events(p, o);
	for (int c = 0; c + o->nr_ev <= res->nr_cols; c++) {
		int e = 0;

		while (e < o->nr_ev && !strcasecmp(res->col[c + e].name, o->ev[e]))
			e++;
		if (e == o->nr_ev && !skip--)
			return c;
	}
	return -1;
}

/* A group the kernel never scheduled reads zero by read(2) in every repetition. */
static bool never_ran(const struct selfmon_bench_result *res, const int *cols, int n)
{
	for (int i = 0, c; i < n && (c = cols[i]) >= 0; i++)
		if (res->col[c].path == SELFMON_PATH_USER || res->col[c].st.max != 0 ||
		    res->col[c].st.min != 0)
			return false;
	return true;
}

/* The columns of shared metric @o's events in @res, into m->col. Return: 0, or -ENOENT (why set). */
static int shared_cols(struct selfmon_metrics *m, const struct selfmon_bench_result *res,
		       struct one *o)
{
	for (int e = 0; e < o->nr_ev; e++) {
		m->col[e] = -1;
		for (int c = 0; c < res->nr_cols && m->col[e] < 0; c++)
			if (!strcmp(res->col[c].name, o->col[e]))
				m->col[e] = c;
		if (m->col[e] < 0) {
			selfmon_fmt__print(o->why, sizeof(o->why),
				 "it reads '%s' of the events counted, which was left out "
				 "(see the driver's note)",
				 o->col[e]);
			return -ENOENT;
		}
	}
	return 0;
}

static int add_column(struct selfmon_metrics *m, struct selfmon_bench_result *res, struct one *o,
		      double *v)
{
	struct selfmon_metric_ctx ctx = ctx_of(m, column_count);
	struct selfmon_bench_col *col = &res->col[res->nr_cols];
	int err = 0, first;

	m->cur = o;
	first = o->shared ? 0 : find_group(m, res, o->ride ? &m->m[o->ride - 1] : o);
	if (o->shared) {
		if (shared_cols(m, res, o))
			return 0;
	} else if (first >= 0) {
		for (int e = 0; e < o->nr_ev; e++)
			m->col[e] = first + (o->ride ? o->ride_at[e] : e);
	} else {
		selfmon_fmt__print(o->why, sizeof(o->why),
			 "its group of %d events did not open together (more events "
			 "than the PMU has counters, or one it lacks: see the driver's note)",
			 o->nr_ev);
		return 0;
	}
	for (m->rep = 0; !err && m->rep < res->kept; m->rep++)
		err = selfmon_metric__eval(&ctx, o->pm, false, &v[m->rep], o->why, sizeof(o->why));
	if (err && never_ran(res, m->col, o->nr_ev))
		selfmon_fmt__print(
			o->why, sizeof(o->why),
			"its group of %d events counted nothing: beside the other events "
			"it did not fit the PMU's counters and never ran (count fewer events with it)",
			o->nr_ev);
	memset(col, 0, sizeof(*col));
	if (err || selfmon_stats__compute(v, (size_t)res->kept, &col->st))
		return 0;
	selfmon_fmt__print(col->name, sizeof(col->name), "%s", selfmon_pe__str(m->t, o->pm->name));
	col->unit = selfmon_pe__str(m->t, o->pm->unit);
	col->path = res->col[m->col[0]].path;
	col->reason = res->col[m->col[0]].reason;
	memcpy(&res->samples[(size_t)res->nr_cols * (size_t)res->kept], v,
	       (size_t)res->kept * sizeof(*v));
	res->nr_cols++;
	return 1;
}

int selfmon_metrics__add_columns(struct selfmon_metrics *m, struct selfmon_bench_result *res)
{
	double *v, *grown;
	int added = 0;

	if (!m || !res)
		return selfmon__err(-EINVAL, "metrics: no result to add columns to");
	if (res->kept <= 0)
		return 0; /* nothing measured, nothing to compute */
	v = malloc((size_t)res->kept * sizeof(*v));
	grown = realloc(res->samples,
			(size_t)(res->nr_cols + m->nr) * (size_t)res->kept * sizeof(*v));
	if (!v || !grown) {
		free(v);
		if (grown)
			res->samples = grown;
		return -ENOMEM;
	}
	res->samples = grown;
	m->res = res;
	for (int i = 0; i < m->nr; i++) {
		if (!m->m[i].nr_ev)
			continue;
		if (res->nr_cols == SELFMON_BENCH_MAX_COLS) {
			selfmon_fmt__print(m->m[i].why, sizeof(m->m[i].why),
				 "no room for its column (%d at most)", SELFMON_BENCH_MAX_COLS);
			continue;
		}
		added += add_column(m, res, &m->m[i], v);
	}
	free(v);
	return added;
}
