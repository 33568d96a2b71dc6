// SPDX-License-Identifier: MIT
/*
 * The report writers' common part and JSON and CSV (report_table.c has the
 * table). The JSON is Google Benchmark's --benchmark_format=json layout
 * (context + benchmarks, one "iteration" object per repetition and
 * "aggregate" objects for mean, median and stddev), so that its
 * tools/compare.py reads it, with the schema tag and the rules that
 * <selfmon/report.h> states for `selfmon compare`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/report.h>
#include "../util/text.h"
#include "report_view.h"

/* ---- the view ---- */

static void view_of_result(struct selfmon_report_view *v, const struct selfmon_bench_result *res)
{
	v->name = res->name;
	v->iterations = res->iterations;
	v->repetitions = res->repetitions;
	v->kept = res->kept;
	v->calibration = selfmon_calib__str(res->calibration);
	v->dropped_switch = res->dropped_switch;
	v->dropped_migration = res->dropped_migration;
	v->dropped_fallback = res->dropped_fallback;
	v->dropped_not_run = res->dropped_not_run;
	v->flagged = res->flagged;
	v->nr_cols = res->nr_cols;
	for (int c = 0; c < res->nr_cols; c++) {
		const struct selfmon_bench_col *col = &res->col[c];
		struct selfmon_report_view_col *vc = &v->col[c];

		vc->name = col->name;
		vc->unit = col->unit ? col->unit : "";
		vc->path = col->path == SELFMON_PATH_USER ? "user" : "read(2)";
		vc->values = res->samples ? &res->samples[(size_t)c * (size_t)res->kept] : NULL;
		vc->st = col->st;
		vc->overhead = col->overhead;
		vc->clamped = col->clamped;
	}
}

static int view_of_cols(struct selfmon_report_view *v, const struct selfmon_report_entry *e)
{
	if (e->nr_cols < 0 || e->kept < 0 || (e->nr_cols && !e->cols))
		return -EINVAL;
	v->name = e->name ? e->name : "";
	v->iterations = e->iterations;
	v->kept = e->kept;
	v->repetitions = e->repetitions ? e->repetitions : e->kept;
	v->nr_cols = e->nr_cols;
	for (int c = 0; c < e->nr_cols; c++) {
		const struct selfmon_report_col *col = &e->cols[c];
		struct selfmon_report_view_col *vc = &v->col[c];
		int err;

		if (e->kept && !col->values)
			return -EINVAL;
		vc->name = col->name ? col->name : "";
		vc->unit = col->unit ? col->unit : "";
		vc->path = col->path;
		vc->values = col->values;
		vc->overhead = col->overhead;
		vc->clamped = col->clamped;
		err = e->kept ? selfmon_stats__compute(col->values, (size_t)e->kept, &vc->st) : 0;
		if (err)
			return err;
	}
	return 0;
}

int selfmon_report_view__kind(const struct selfmon_report_entry *e)
{
	switch (e->kind) {
	case SELFMON_REPORT_ENTRY_UNSAID:
		/* A caller that predates the kind: @res alone said it. */
		return e->res ? SELFMON_REPORT_ENTRY_RESULT : SELFMON_REPORT_ENTRY_COLUMNS;
	case SELFMON_REPORT_ENTRY_RESULT:
		return e->res ? SELFMON_REPORT_ENTRY_RESULT : -EINVAL;
	case SELFMON_REPORT_ENTRY_COLUMNS:
		return SELFMON_REPORT_ENTRY_COLUMNS;
	}
	return -EINVAL;
}

int selfmon_report_view__fill(struct selfmon_report_view *v, const struct selfmon_report_entry *e)
{
	int kind = selfmon_report_view__kind(e);

	memset(v, 0, sizeof(*v));
	switch (kind) {
	case SELFMON_REPORT_ENTRY_RESULT:
		if (e->res->nr_cols < 0 || e->res->nr_cols > SELFMON_BENCH_MAX_COLS ||
		    e->res->kept < 0)
			return -EINVAL;
		view_of_result(v, e->res);
		return 0;
	case SELFMON_REPORT_ENTRY_COLUMNS:
		if (e->nr_cols > SELFMON_REPORT_MAX_COLS)
			return -EINVAL;
		return view_of_cols(v, e);
	}
	return kind < 0 ? kind : -EINVAL;
}

/* "instructions:u" is "instructions". */
static size_t base_len(const char *s)
{
	return strcspn(s, ":");
}

int selfmon_report_view__col(const struct selfmon_report_view *v, const char *name)
{
	size_t n = base_len(name);

	for (int c = 0; c < v->nr_cols; c++)
		if (base_len(v->col[c].name) == n && !strncmp(v->col[c].name, name, n))
			return c;
	return -1;
}

static double col_median(const struct selfmon_report_view *v, const char *name)
{
	int c = selfmon_report_view__col(v, name);

	return c < 0 ? -1 : v->col[c].st.median;
}

void selfmon_report_view__derived(const struct selfmon_report_view *v,
				  struct selfmon_report_derived *d)
{
	static const struct {
		const char *name, *num, *den;
	} ratio[] = {
		{ "IPC", "instructions", "cycles" },
		{ "branch_miss_rate", "branch-misses", "branches" },
		{ "cache_miss_rate", "cache-misses", "cache-references" },
	};

	d->nr = 0;
	for (size_t i = 0; i < sizeof(ratio) / sizeof(ratio[0]); i++) {
		double num = col_median(v, ratio[i].num), den = col_median(v, ratio[i].den);

		/* Absent events, or a denominator of 0, give no metric rather than a made-up one. */
		if (num < 0 || den <= 0)
			continue;
		d->m[d->nr].name = ratio[i].name;
		d->m[d->nr++].value = num / den;
	}
	if (v->nr_cols) {
		d->m[d->nr].name = "ns_per_iteration";
		d->m[d->nr++].value = v->col[0].st.median;
	}
}

void selfmon_report__derived(const struct selfmon_report_entry *e, struct selfmon_report_derived *d)
{
	/* The view is large: a static one would not be thread-safe, the heap is. */
	struct selfmon_report_view *v = malloc(sizeof(*v));

	d->nr = 0;
	if (v && !selfmon_report_view__fill(v, e))
		selfmon_report_view__derived(v, d);
	free(v);
}

/* ---- context ---- */

/*
 * The machine's own /sys, for the report's context only (the library's
 * reads, SELFMON_SYSFS_ROOT included, are not involved). Regular files only,
 * opened non-blocking: a FIFO in their place leaves the field empty.
 */
static void read_trim(const char *path, char *buf, size_t size)
{
	struct stat st;
	ssize_t n = -1;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int read_long(const char *path, long *v)
{
	char buf[32], *end;

	read_trim(path, buf, sizeof(buf));
	errno = 0;
	*v = strtol(buf, &end, 10);
	return !buf[0] || *end || errno ? -EINVAL : 0;
}

static void fill_caches(struct selfmon_report_context *ctx)
{
	char path[128], type[32], size[32], shared[256];
	long level;

	for (int i = 0; i < 8 && ctx->nr_caches < 8; i++) {
		struct selfmon_report_cache *c = &ctx->caches[ctx->nr_caches];
		char *end;
		long n;
		int cpus = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
		read_trim(path, type, sizeof(type));
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		read_trim(path, size, sizeof(size));
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		if (!type[0] || !size[0] || read_long(path, &level))
			continue;
		n = strtol(size, &end, 10);
		if (*end == 'K')
			n *= 1024;
		else if (*end == 'M')
			n *= 1024L * 1024;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
		read_trim(path, shared, sizeof(shared));
		/* "0-3,8" -> 5 */
		for (char *p = shared; *p;) {
			long a = strtol(p, &end, 10), b = a;

			if (end == p)
				break;
			if (*end == '-')
				b = strtol(end + 1, &end, 10);
			cpus += (int)(b - a + 1);
			p = *end == ',' ? end + 1 : end;
		}
		c->type = !strcmp(type, "Data")	       ? "Data" :
			  !strcmp(type, "Instruction") ? "Instruction" :
							 "Unified";
		c->level = (int)level;
		c->size = n;
		c->num_sharing = cpus ? cpus : 1;
		ctx->nr_caches++;
	}
}

void selfmon_report__context_fill(struct selfmon_report_context *ctx)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;
	long khz;
	ssize_t n;

	localtime_r(&t, &tm);
	/* ISO 8601 with the offset as +hh:mm, as Google Benchmark writes it. */
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	if (strlen(buf) == 24)
		snprintf(ctx->date, sizeof(ctx->date), "%.22s:%.2s", buf, buf + 22);
	else
		snprintf(ctx->date, sizeof(ctx->date), "%.40s", buf);
	if (gethostname(ctx->host_name, sizeof(ctx->host_name)))
		snprintf(ctx->host_name, sizeof(ctx->host_name), "unknown");
	n = readlink("/proc/self/exe", ctx->executable, sizeof(ctx->executable) - 1);
	ctx->executable[n > 0 ? n : 0] = '\0';
	ctx->num_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	ctx->mhz_per_cpu = 0;
	if (!read_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &khz))
		ctx->mhz_per_cpu = (double)khz / 1000;
	read_trim("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf));
	ctx->cpu_scaling_enabled = buf[0] && strcmp(buf, "performance");
	fill_caches(ctx);
}

/* ---- JSON ---- */

static void json_kv_str(FILE *f, const char *ind, const char *k, const char *v, bool comma)
{
	fprintf(f, "%s", ind);
	util_json_string(f, k);
	fputs(": ", f);
	util_json_string(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

static void json_kv_num(FILE *f, const char *ind, const char *k, double v, bool comma)
{
	fprintf(f, "%s", ind);
	util_json_string(f, k);
	fputs(": ", f);
	util_json_number(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

static void json_caches(FILE *f, const struct selfmon_report_context *ctx)
{
	int nr = ctx->nr_caches < 0 ? 0 : ctx->nr_caches > 8 ? 8 : ctx->nr_caches;

	fputs("    \"caches\": [", f);
	for (int i = 0; i < nr; i++) {
		const struct selfmon_report_cache *c = &ctx->caches[i];

		fprintf(f, "%s\n      {\"type\": ", i ? "," : "");
		util_json_string(f, c->type);
		fprintf(f, ", \"level\": %d, \"size\": %ld, \"num_sharing\": %d}", c->level,
			c->size, c->num_sharing);
	}
	fputs(nr ? "\n    ],\n" : "],\n", f);
}

static void json_context(FILE *f, const struct selfmon_report_context *ctx)
{
	const char *in = "    ";

	fputs("  \"context\": {\n", f);
	json_kv_str(f, in, "date", ctx->date, true);
	json_kv_str(f, in, "host_name", ctx->host_name, true);
	json_kv_str(f, in, "executable", ctx->executable, true);
	json_kv_num(f, in, "num_cpus", ctx->num_cpus, true);
	json_kv_num(f, in, "mhz_per_cpu", ctx->mhz_per_cpu, true);
	fprintf(f, "%s\"cpu_scaling_enabled\": %s,\n", in,
		ctx->cpu_scaling_enabled ? "true" : "false");
	json_caches(f, ctx);
	json_kv_str(f, in, "library_build_type", ctx->build_type ? ctx->build_type : "release",
		    true);
	json_kv_str(f, in, "selfmon_version", ctx->version, true);
	json_kv_str(f, in, "selfmon_arch", ctx->arch, true);
	json_kv_str(f, in, "selfmon_events", ctx->events, true);
	fprintf(f, "%s\"selfmon_hardware_counters\": %s,\n", in, ctx->hardware ? "true" : "false");
	json_kv_str(f, in, "selfmon_note", ctx->note, true);
	json_kv_str(f, in, "selfmon_read_path", ctx->read_path, true);
	json_kv_str(f, in, "selfmon_pinned", ctx->pinned, true);
	fprintf(f, "%s\"selfmon_serialize\": %s,\n", in, ctx->serialize ? "true" : "false");
	json_kv_str(f, in, "selfmon_calibration", selfmon_calib__str(ctx->calibration), false);
	fputs("  },\n", f);
}

/*
 * The member names of one benchmark object written so far: a name is
 * written once (RFC 8259 section 4: names should be unique, and strict
 * readers refuse a second), the first one kept, whatever a caller named
 * its columns and extras ("iterations", or two columns alike).
 */
struct json_keys {
	const char *k[SELFMON_REPORT_MAX_COLS + 32];
	int n;
};

/* true, and @name noted, when @keys does not hold it yet. */
static bool json_key_new(struct json_keys *keys, const char *name)
{
	for (int i = 0; i < keys->n; i++)
		if (!strcmp(keys->k[i], name))
			return false;
	if (keys->n < (int)(sizeof(keys->k) / sizeof(keys->k[0])))
		keys->k[keys->n++] = name;
	return true;
}

/* Columns after the time as numeric members; task-clock is cpu_time, not a member of its own. */
static void json_counters(FILE *f, const struct selfmon_report_view *v, const double *val,
			  struct json_keys *keys)
{
	for (int c = 1; c < v->nr_cols; c++) {
		if (!strcmp(v->col[c].name, "task-clock") || !json_key_new(keys, v->col[c].name))
			continue;
		fputs(",\n      ", f);
		util_json_string(f, v->col[c].name);
		fputs(": ", f);
		util_json_number(f, val[c]);
	}
}

/* The median's figures that are not per repetition: derived metrics, extras, expectation. */
static void json_median_extras(FILE *f, const struct selfmon_report_entry *e,
			       const struct selfmon_report_view *v, struct json_keys *keys)
{
	struct selfmon_report_derived d;

	selfmon_report_view__derived(v, &d);
	for (int i = 0; i < d.nr; i++) {
		if (!json_key_new(keys, d.m[i].name))
			continue;
		fprintf(f, ",\n      \"%s\": ", d.m[i].name);
		util_json_number(f, d.m[i].value);
	}
	for (int i = 0; i < e->nr_extra && i < 4; i++) {
		if (!json_key_new(keys, e->extra[i].name))
			continue;
		fputs(",\n      ", f);
		util_json_string(f, e->extra[i].name);
		fputs(": ", f);
		util_json_number(f, e->extra[i].value);
	}
	if (e->expected_insns >= 0 && json_key_new(keys, "expected_instructions")) {
		fputs(",\n      \"expected_instructions\": ", f);
		util_json_number(f, e->expected_insns);
	}
}

struct json_row {
	const struct selfmon_report_entry *e;
	const struct selfmon_report_view *v;
	int family;
	const char *aggregate; /* NULL: a repetition */
	int rep;
	const double *val; /* one per column */
};

/* The members json_entry() writes before the counters, in every object. */
static const char *const json_fixed_keys[] = {
	"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
	"threads", "aggregate_name", "aggregate_unit", "iterations", "repetition_index",
	"real_time", "cpu_time", "time_unit",
};

static void json_entry(FILE *f, const struct json_row *r, bool *first)
{
	const struct selfmon_report_view *v = r->v;
	int cpu = selfmon_report_view__col(v, "task-clock");
	const char *in = "      ";
	struct json_keys keys = { .n = 0 };

	for (size_t i = 0; i < sizeof(json_fixed_keys) / sizeof(json_fixed_keys[0]); i++)
		json_key_new(&keys, json_fixed_keys[i]);

	fputs(*first ? "\n    {\n" : ",\n    {\n", f);
	*first = false;
	fprintf(f, "%s\"name\": \"", in);
	util_json_chars(f, v->name);
	if (r->aggregate) {
		fputc('_', f);
		util_json_chars(f, r->aggregate);
	}
	fputs("\",\n", f);
	json_kv_num(f, in, "family_index", r->family, true);
	json_kv_num(f, in, "per_family_instance_index", 0, true);
	json_kv_str(f, in, "run_name", v->name, true);
	json_kv_str(f, in, "run_type", r->aggregate ? "aggregate" : "iteration", true);
	json_kv_num(f, in, "repetitions", v->kept, true);
	if (r->aggregate) {
		json_kv_num(f, in, "threads", 1, true);
		json_kv_str(f, in, "aggregate_name", r->aggregate, true);
		json_kv_str(f, in, "aggregate_unit", "time", true);
		/* Google Benchmark puts the number of repetitions here for aggregates. */
		json_kv_num(f, in, "iterations", v->kept, true);
	} else {
		json_kv_num(f, in, "repetition_index", r->rep, true);
		json_kv_num(f, in, "threads", 1, true);
		json_kv_num(f, in, "iterations", (double)v->iterations, true);
	}
	json_kv_num(f, in, "real_time", r->val[0], true);
	json_kv_num(f, in, "cpu_time", r->val[cpu < 0 ? 0 : cpu], true);
	fputs("      \"time_unit\": \"ns\"", f);
	json_counters(f, v, r->val, &keys);
	if (r->aggregate && !strcmp(r->aggregate, "median"))
		json_median_extras(f, r->e, v, &keys);
	fputs("\n    }", f);
}

/* The repetitions of one entry, then its mean, median and stddev. */
static void json_one(FILE *f, const struct selfmon_report_entry *e,
		     const struct selfmon_report_view *v, int family, bool *first)
{
	static const char *const agg[] = { "mean", "median", "stddev" };
	double val[SELFMON_REPORT_MAX_COLS];
	struct json_row r = { .e = e, .v = v, .family = family, .val = val };

	for (r.rep = 0; r.rep < v->kept; r.rep++) {
		for (int c = 0; c < v->nr_cols; c++)
			val[c] = v->col[c].values ? v->col[c].values[r.rep] : v->col[c].st.median;
		json_entry(f, &r, first);
	}
	r.rep = 0;
	for (int a = 0; a < 3; a++) {
		for (int c = 0; c < v->nr_cols; c++) {
			const struct selfmon_stats *st = &v->col[c].st;

			val[c] = a == 0 ? st->mean : a == 1 ? st->median : st->stddev;
		}
		r.aggregate = agg[a];
		json_entry(f, &r, first);
	}
}

int selfmon_report__json(FILE *f, const struct selfmon_report_context *ctx,
			 const struct selfmon_report_entry *e, int nr)
{
	struct selfmon_report_view *v = malloc(sizeof(*v));
	bool first = true;
	int err = v ? 0 : -ENOMEM;

	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %d,\n", SELFMON_REPORT_SCHEMA,
		SELFMON_REPORT_SCHEMA_VERSION);
	json_context(f, ctx);
	fputs("  \"benchmarks\": [", f);
	for (int i = 0; v && i < nr; i++) {
		int rc;

		if (e[i].skipped)
			continue;
		rc = selfmon_report_view__fill(v, &e[i]);
		if (rc || !v->kept || !v->nr_cols) {
			err = err ? err : rc;
			continue;
		}
		json_one(f, &e[i], v, i, &first);
	}
	fputs("\n  ]\n}\n", f);
	free(v);
	return err ? err : ferror(f) ? -EIO : 0;
}

/* ---- CSV ---- */

static void csv_row(FILE *f, const struct selfmon_report_entry *e,
		    const struct selfmon_report_view *v, int c)
{
	const struct selfmon_report_view_col *col = &v->col[c];
	const struct selfmon_stats *st = &col->st;
	const double nums[] = {
		st->median, st->mean, st->min, st->p10, st->p90, st->stddev, st->mad
	};
	const char *const text[] = { v->name, col->name, col->unit, col->path ? col->path : "" };
	bool insns = !strncmp(col->name, "instructions", 12);

	for (size_t k = 0; k < sizeof(text) / sizeof(text[0]); k++) {
		if (k)
			fputc(',', f);
		util_csv_field(f, text[k]);
	}
	fprintf(f, ",%llu,%d,%d,%d,%d,%d,%s", (unsigned long long)v->iterations, v->repetitions,
		v->kept, v->dropped_switch, v->dropped_migration, v->dropped_fallback,
		v->calibration ? v->calibration : "");
	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
		fputc(',', f);
		util_json_number(f, nums[k]);
	}
	fprintf(f, ",%d,", col->clamped);
	util_json_number(f, col->overhead);
	fputc(',', f);
	if (insns && e->expected_insns >= 0)
		util_json_number(f, e->expected_insns);
	fputc('\n', f);
}

int selfmon_report__csv(FILE *f, const struct selfmon_report_context *ctx,
			const struct selfmon_report_entry *e, int nr)
{
	struct selfmon_report_view *v = malloc(sizeof(*v));
	int err = v ? 0 : -ENOMEM;

	(void)ctx;
	fputs("name,event,unit,path,iterations,repetitions,kept,dropped_switch,dropped_migration,"
	      "dropped_fallback,calibration,median,mean,min,p10,p90,stddev,mad,clamped,overhead,expected\n",
	      f);
	for (int i = 0; v && i < nr; i++) {
		int rc;

		if (e[i].skipped)
			continue;
		rc = selfmon_report_view__fill(v, &e[i]);
		if (rc) {
			err = err ? err : rc;
			continue;
		}
		for (int c = 0; c < v->nr_cols; c++)
			csv_row(f, &e[i], v, c);
	}
	free(v);
	return err ? err : ferror(f) ? -EIO : 0;
}
