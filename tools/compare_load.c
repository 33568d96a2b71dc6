// SPDX-License-Identifier: MIT
/*
 * selfmon compare's input: a report as <selfmon/report.h> writes it (or as
 * Google Benchmark writes it: the same layout without the schema tag). The
 * iteration objects of "benchmarks" are the repetitions; the aggregates are
 * left out, as compare recomputes what it needs from the repetitions, and a
 * repetition that failed or was skipped is counted but measured nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/report.h>
#include "compare.h"
#include "../util/json.h"

/* Members of an iteration object that are not measurements. */
static const char *const not_counters[] = {
	"family_index", "per_family_instance_index",
	"repetitions",	"repetition_index",
	"threads",	"iterations",
	"real_time",	"cpu_time",
};

struct cli_cmp_bench *cli_report_bench(const struct cli_report *r, const char *name)
{
	for (int i = 0; i < r->nr_b; i++)
		if (!strcmp(r->b[i].name, name))
			return &r->b[i];
	return NULL;
}

struct cli_series *cli_bench_series(const struct cli_cmp_bench *b, const char *name)
{
	for (int i = 0; i < b->nr_m; i++)
		if (!strcmp(b->m[i].name, name))
			return &b->m[i];
	return NULL;
}

static struct cli_cmp_bench *add_bench(struct cli_report *r, const char *name)
{
	struct cli_cmp_bench *b = cli_report_bench(r, name), *nb;

	if (b)
		return b;
	nb = realloc(r->b, (size_t)(r->nr_b + 1) * sizeof(*nb));
	if (!nb)
		return NULL;
	r->b = nb;
	b = &r->b[r->nr_b];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name)
		return NULL;
	r->nr_b++;
	return b;
}

static int add_value(struct cli_cmp_bench *b, const char *name, double v)
{
	struct cli_series *s = cli_bench_series(b, name);

	if (!s) {
		struct cli_series *m = realloc(b->m, (size_t)(b->nr_m + 1) * sizeof(*m));

		if (!m)
			return -ENOMEM;
		b->m = m;
		s = &b->m[b->nr_m];
		memset(s, 0, sizeof(*s));
		s->name = strdup(name);
		if (!s->name)
			return -ENOMEM;
		b->nr_m++;
	}
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 16;
		double *nv = realloc(s->v, (size_t)cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 0;
}

static bool counter_member(const char *key)
{
	for (size_t i = 0; i < sizeof(not_counters) / sizeof(not_counters[0]); i++)
		if (!strcmp(key, not_counters[i]))
			return false;
	return true;
}

/* Google Benchmark's time units, to ns; 0 for an unknown one. */
static double to_ns(const char *unit)
{
	return !unit || !strcmp(unit, "ns") ? 1 :
	       !strcmp(unit, "us")	    ? 1e3 :
	       !strcmp(unit, "ms")	    ? 1e6 :
	       !strcmp(unit, "s")	    ? 1e9 :
					      0;
}

/*
 * The largest magnitude of a value compare takes (ns or a count): far beyond
 * any measurement, yet small enough that a median, a difference of two, a
 * quartile's fence stay finite. Beyond it (1e300 s is 1e309 ns: infinite)
 * the arithmetic gives inf and NaN, and NaN compares as "same".
 */
#define MAX_VALUE 1e300

/* @v (@key of benchmark @bench, @raw in @unit as written) within MAX_VALUE, else bad input. */
static int check_range(double v, const char *key, const char *bench, int i, double raw,
		       const char *unit, char *err, size_t errsz)
{
	if (v >= -MAX_VALUE && v <= MAX_VALUE)
		return 0;
	snprintf(err, errsz,
		 "benchmarks[%d] (\"%.80s\"): \"%.80s\" %g%s%s is out of range (at most %g%s: "
		 "not a measurement)",
		 i, bench, key, raw, *unit ? " " : "", unit, MAX_VALUE, *unit ? " ns" : "");
	return -EINVAL;
}

static int need_number(const struct util_json *o, const char *key, const char *bench, int i,
		       double *v, char *err, size_t errsz)
{
	const struct util_json *n = util_json_get(o, key);

	if (!n || n->type != UTIL_JSON_NUMBER) {
		snprintf(err, errsz, "benchmarks[%d] (\"%.80s\"): \"%s\" %s", i, bench, key,
			 !n			  ? "is missing" :
			 n->type == UTIL_JSON_NULL ? "is null (not a finite number)" :
						    "is not a number");
		return -EINVAL;
	}
	*v = n->num;
	return 0;
}

static void note_iterations(struct cli_cmp_bench *b, const struct util_json *it)
{
	double n = it && it->type == UTIL_JSON_NUMBER ? it->num : 0;

	if (b->nr_m && b->m[0].n == 1)
		b->iterations = n;
	else if (n != b->iterations)
		b->iterations_vary = true;
}

/* A row's benchmark: its "run_name" (Google Benchmark's name of the repetitions), else its "name". */
static const char *row_name(const struct util_json *o, int i, char *err, size_t errsz)
{
	const char *name = util_json_str(o, "run_name");

	name = name ? name : util_json_str(o, "name");
	if (!name)
		snprintf(err, errsz, "benchmarks[%d]: no \"run_name\" or \"name\" string", i);
	return name;
}

enum row_kind { ROW_ITERATION, ROW_AGGREGATE, ROW_ERROR, ROW_SKIPPED };

/* Whether the flag @key of @o is true: absent is false, anything but true or false is bad input. */
static int row_flag(const struct util_json *o, const char *key, int i, bool *on, char *err,
		    size_t errsz)
{
	const struct util_json *v = util_json_get(o, key);

	*on = v && v->type == UTIL_JSON_TRUE;
	if (!v || v->type == UTIL_JSON_TRUE || v->type == UTIL_JSON_FALSE)
		return 0;
	snprintf(err, errsz, "benchmarks[%d]: \"%s\" is neither true nor false", i, key);
	return -EINVAL;
}

/*
 * What a member of "benchmarks" is. Google Benchmark's JSON reporter marks
 * a repetition that called SkipWithError() with "error_occurred": true and
 * its "error_message", one that called SkipWithMessage() with "skipped":
 * true and its "skip_message" (their times are 0: no measurement), and its
 * aggregates (mean, median, stddev, cv, BigO, RMS) with "run_type":
 * "aggregate" and "aggregate_name", as selfmon writes its own mean, median
 * and stddev. A row without "run_type" (older writers) is a repetition
 * unless it names its aggregate.
 */
static int row_kind(const struct util_json *o, int i, enum row_kind *kind, char *err, size_t errsz)
{
	const char *type = util_json_str(o, "run_type");
	bool error, skipped;

	if ((type && strcmp(type, "iteration")) || util_json_get(o, "aggregate_name")) {
		*kind = ROW_AGGREGATE;
		return 0;
	}
	if (row_flag(o, "error_occurred", i, &error, err, errsz) ||
	    row_flag(o, "skipped", i, &skipped, err, errsz))
		return -EINVAL;
	*kind = error ? ROW_ERROR : skipped ? ROW_SKIPPED : ROW_ITERATION;
	return 0;
}

/*
 * An aggregate: only a median that names its benchmark a calibration
 * baseline (SELFMON_REPORT_BASELINE_FIGURE) is kept, as a mark on it.
 */
static int load_aggregate(struct cli_report *r, const struct util_json *o, int i, char *err,
			  size_t errsz)
{
	const struct util_json *v = util_json_get(o, SELFMON_REPORT_BASELINE_FIGURE);
	const char *name;
	struct cli_cmp_bench *b;

	if (!v)
		return 0;
	name = row_name(o, i, err, errsz);
	if (!name)
		return -EINVAL;
	if (v->type != UTIL_JSON_NUMBER || !(v->num >= 1 && v->num <= 1e6)) {
		snprintf(err, errsz,
			 "benchmarks[%d] (\"%.80s\"): \"%s\" is not a count of rows (1 or more)", i,
			 name, SELFMON_REPORT_BASELINE_FIGURE);
		return -EINVAL;
	}
	b = add_bench(r, name);
	if (!b)
		return -ENOMEM;
	b->baseline_of = (int)v->num;
	return 0;
}

/* A repetition that failed or was skipped: counted on its benchmark, its first message kept. */
static int load_unmeasured(struct cli_report *r, const struct util_json *o, int i, bool error,
			   char *err, size_t errsz)
{
	const char *name = row_name(o, i, err, errsz),
		   *msg = util_json_str(o, error ? "error_message" : "skip_message");
	struct cli_cmp_bench *b;
	char **first;

	if (!name)
		return -EINVAL;
	b = add_bench(r, name);
	if (!b)
		return -ENOMEM;
	first = error ? &b->error : &b->skip;
	if (!*first) {
		*first = strdup(msg ? msg : "");
		if (!*first)
			return -ENOMEM;
	}
	*(error ? &b->nr_errors : &b->nr_skipped) += 1;
	return 0;
}

/* One iteration object: its times and counters go to its benchmark's series. */
static int load_iteration(struct cli_report *r, const struct util_json *o, int i, char *err,
			  size_t errsz)
{
	const char *name = row_name(o, i, err, errsz), *unit = util_json_str(o, "time_unit");
	double real, cpu, f = to_ns(unit);
	struct cli_cmp_bench *b;
	int rc;

	if (!name)
		return -EINVAL;
	if (!f) {
		snprintf(err, errsz,
			 "benchmarks[%d]: unknown \"time_unit\" \"%.20s\" (ns, us, ms or s)", i,
			 unit);
		return -EINVAL;
	}
	unit = unit ? unit : "ns";
	if (need_number(o, "real_time", name, i, &real, err, errsz) ||
	    need_number(o, "cpu_time", name, i, &cpu, err, errsz) ||
	    check_range(real * f, "real_time", name, i, real, unit, err, errsz) ||
	    check_range(cpu * f, "cpu_time", name, i, cpu, unit, err, errsz))
		return -EINVAL;
	b = add_bench(r, name);
	if (!b || add_value(b, "time", real * f) || add_value(b, "cpu_time", cpu * f))
		return -ENOMEM;
	note_iterations(b, util_json_get(o, "iterations"));
	for (int k = 0; k < o->nr; k++) {
		const struct util_json *m = &o->kid[k];

		if (!counter_member(m->key))
			continue;
		if (m->type == UTIL_JSON_NULL) {
			snprintf(
				err, errsz,
				"benchmarks[%d] (\"%.80s\"): counter \"%.80s\" is null (not a finite "
				"number)",
				i, name, m->key);
			return -EINVAL;
		}
		if (m->type != UTIL_JSON_NUMBER)
			continue;
		rc = check_range(m->num, m->key, name, i, m->num, "", err, errsz);
		rc = rc ? rc : add_value(b, m->key, m->num);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_schema(const struct util_json *root, char *err, size_t errsz)
{
	const struct util_json *s = util_json_get(root, "schema"),
			      *v = util_json_get(root, "schema_version");

	if (root->type != UTIL_JSON_OBJECT) {
		snprintf(err, errsz, "not a benchmark report: the top level is not an object");
		return -EINVAL;
	}
	/* No tag: Google Benchmark's own output, which has the same layout. */
	if (!s)
		return 0;
	if (s->type != UTIL_JSON_STRING || strcmp(s->str, SELFMON_REPORT_SCHEMA)) {
		snprintf(err, errsz, "not a benchmark report: \"schema\" is not \"%s\"",
			 SELFMON_REPORT_SCHEMA);
		return -EINVAL;
	}
	if (!v || v->type != UTIL_JSON_NUMBER || v->num < 1 ||
	    v->num > SELFMON_REPORT_SCHEMA_VERSION) {
		snprintf(err, errsz,
			 "\"schema_version\" is missing or newer than this selfmon reads (%d): "
			 "compare with the selfmon that wrote it",
			 SELFMON_REPORT_SCHEMA_VERSION);
		return -EINVAL;
	}
	return 0;
}

static int load_tree(struct cli_report *r, const struct util_json *root, char *err, size_t errsz)
{
	const struct util_json *bs = util_json_get(root, "benchmarks");
	int rc = check_schema(root, err, errsz), loaded = 0;

	if (rc)
		return rc;
	if (!bs || bs->type != UTIL_JSON_ARRAY) {
		snprintf(err, errsz, "not a benchmark report: no \"benchmarks\" array");
		return -EINVAL;
	}
	for (int i = 0; i < bs->nr; i++) {
		const struct util_json *o = &bs->kid[i];
		enum row_kind kind;

		if (o->type != UTIL_JSON_OBJECT) {
			snprintf(err, errsz, "benchmarks[%d] is not an object", i);
			return -EINVAL;
		}
		rc = row_kind(o, i, &kind, err, errsz);
		if (rc)
			return rc;
		rc = kind == ROW_AGGREGATE ? load_aggregate(r, o, i, err, errsz) :
		     kind == ROW_ITERATION ? load_iteration(r, o, i, err, errsz) :
					     load_unmeasured(r, o, i, kind == ROW_ERROR, err, errsz);
		if (rc)
			return rc;
		loaded += kind != ROW_AGGREGATE;
	}
	if (!loaded) {
		snprintf(
			err, errsz,
			"no benchmark repetitions (\"run_type\": \"iteration\") in \"benchmarks\"");
		return -EINVAL;
	}
	return 0;
}

int cli_report_add(const char *path, struct cli_report *r, char *err, size_t errsz)
{
	struct util_json root;
	int rc;

	rc = util_json_load(path, &root, err, errsz);
	if (rc)
		return rc;
	rc = load_tree(r, &root, err, errsz);
	if (rc == -ENOMEM)
		snprintf(err, errsz, "out of memory");
	util_json_free(&root);
	return rc;
}

int cli_report_load(const char *path, struct cli_report *r, char *err, size_t errsz)
{
	int rc;

	memset(r, 0, sizeof(*r));
	rc = cli_report_add(path, r, err, errsz);
	if (rc)
		cli_report_free(r);
	r->path = path;
	return rc;
}

void cli_report_free(struct cli_report *r)
{
	for (int i = 0; i < r->nr_b; i++) {
		for (int k = 0; k < r->b[i].nr_m; k++) {
			free(r->b[i].m[k].name);
			free(r->b[i].m[k].v);
		}
		free(r->b[i].m);
		free(r->b[i].name);
		free(r->b[i].error);
		free(r->b[i].skip);
	}
	free(r->b);
	memset(r, 0, sizeof(*r));
}
