// SPDX-License-Identifier: MIT
/* A pmu-events metric evaluated on one core (metric.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "metric_int.h"
#include "metric_expr.h"
#include "fmt.h"

struct walk {
	const struct selfmon_metric_ctx *ctx;
	bool collect;
	int depth;
	const struct selfmon_pe_metric *cur; /* a metric may name an event of its own name */
};

static int eval_at(struct walk *w, const struct selfmon_pe_metric *m, double *v, char *why,
		   size_t why_size);

/*
 * perf's ways to name an event in an expression: "EVENT", "EVENT:mods",
 * "pmu@EVENT@", "pmu@EVENT\,term\=v@mods" (escapes already removed). Split
 * into the PMU ("" none), the table name, and the whole event as selfmon's
 * parser and the caller's count() take it ("EVENT,term=v:mods").
 */
static int split_id(const char *id, char *pmu, size_t pmu_size, char *base, size_t base_size,
		    char *full, size_t full_size)
{
	const char *at = strchr(id, '@'), *name = id, *end, *mods = "";
	size_t n;

	pmu[0] = '\0';
	if (at) {
		n = (size_t)(at - id);
		if (n >= pmu_size)
			return -ENAMETOOLONG;
		memcpy(pmu, id, n);
		pmu[n] = '\0';
		name = at + 1;
		end = strchr(name, '@');
		mods = end ? end + 1 : "";
	} else {
		end = strchr(name, ':');
		mods = end ? end + 1 : "";
	}
	n = end ? (size_t)(end - name) : strlen(name);
	if (n >= base_size || n + strlen(mods) + 2 >= full_size)
		return -ENAMETOOLONG;
	selfmon_fmt__print(full, full_size, "%.*s%s%s", (int)n, name, *mods ? ":" : "", mods);
	memcpy(base, name, n);
	base[strcspn(base, ",") < n ? strcspn(base, ",") : n] = '\0';
	return 0;
}

static bool core_pmu(const char *pmu)
{
	return !*pmu || !strcmp(pmu, "cpu") || !strcmp(pmu, "cpu_core") || !strcmp(pmu, "cpu_atom");
}

static int value(void *arg, const char *id, double *v, char *why, size_t why_size)
{
	struct walk *w = arg;
	const struct selfmon_metric_ctx *c = w->ctx;
	const struct selfmon_pe_metric *m = selfmon_pe__metric(c->t, c->core, id, c->pmu);
	const struct selfmon_pe_event *ev;
	char pmu[64], base[256], full[320];

	if (m && m != w->cur)
		return eval_at(w, m, v, why, why_size);
	if (split_id(id, pmu, sizeof(pmu), base, sizeof(base), full, sizeof(full))) {
		selfmon_fmt__print(why, why_size, "event '%.60s...': name too long", id);
		return -ENAMETOOLONG;
	}
	if (!core_pmu(pmu)) {
		selfmon_fmt__print(
			why, why_size,
			"'%s' names the PMU '%s': only events of the core tables and "
			"the generic names are taken (uncore, msr and raw terms on a named PMU are not)",
			id, pmu);
		return -EOPNOTSUPP;
	}
	ev = selfmon_pe__event(c->t, c->core, base, *pmu ? pmu : c->pmu);
	return c->count(c->arg, ev, full, v, why, why_size);
}

/* Literals are case-blind, as perf's expr.c has them (#SMT_on, #smt_on). */
static int literal(void *arg, const char *name, double *v, char *why, size_t why_size)
{
	struct walk *w = arg;
	char low[64];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	return w->ctx->literal(w->ctx->arg, low, v, why, why_size);
}

static int has_event(void *arg, const char *id, double *v, char *why, size_t why_size)
{
	struct walk *w = arg;
	char buf[64];

	/* Asked, not counted: whether the core's PMU has it. */
	*v = !w->ctx->count(w->ctx->arg,
			    selfmon_pe__event(w->ctx->t, w->ctx->core, id, w->ctx->pmu), id, v, buf,
			    sizeof(buf));
	(void)why;
	(void)why_size;
	return 0;
}

static int cpuid(void *arg, const char *id, double *v, char *why, size_t why_size)
{
	struct walk *w = arg;

	if (!w->ctx->cpuid || !*w->ctx->cpuid) {
		selfmon_fmt__print(why, why_size, "strcmp_cpuid_str(%s): this CPU's id is not known", id);
		return -ENOENT;
	}
	*v = selfmon_pe__cpuid_at_least(w->ctx->t, w->ctx->cpuid, id);
	return 0;
}

static int eval_at(struct walk *w, const struct selfmon_pe_metric *m, double *v, char *why,
		   size_t why_size)
{
	const struct selfmon_mexpr_env env = {
		.value = value,
		.literal = literal,
		.has_event = has_event,
		.cpuid = cpuid,
		.arg = w,
	};
	const char *name = selfmon_pe__str(w->ctx->t, m->name);
	const struct selfmon_pe_metric *outer = w->cur;
	struct selfmon_mexpr *e;
	int err;

	if (++w->depth > SELFMON_METRIC_MAX_NEST) {
		selfmon_fmt__print(why, why_size,
			 "metric '%s': metrics name each other deeper than %d (or in a circle)",
			 name, SELFMON_METRIC_MAX_NEST);
		w->depth--;
		return -ELOOP;
	}
	w->cur = m;
	err = selfmon_mexpr__parse(selfmon_pe__str(w->ctx->t, m->expr), &e, why, why_size);
	if (!err) {
		err = selfmon_mexpr__eval(e, &env, w->collect, v, why, why_size);
		selfmon_mexpr__free(e);
	}
	w->cur = outer;
	w->depth--;
	return err;
}

int selfmon_metric__eval(const struct selfmon_metric_ctx *ctx, const struct selfmon_pe_metric *m,
			 bool collect, double *v, char *why, size_t why_size)
{
	struct walk w = { .ctx = ctx, .collect = collect };

	return eval_at(&w, m, v, why, why_size);
}
