// SPDX-License-Identifier: MIT
/*
 * Writers of `selfmon bench`: an aligned table with a histogram per
 * benchmark, CSV with a header row, and JSON in the layout Google
 * Benchmark's --benchmark_format=json writes (context + benchmarks, one
 * "iteration" entry per repetition and "aggregate" entries for mean, median
 * and stddev), so that its tools/compare.py reads it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

void selfmon_json__string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void selfmon_json__number(FILE *f, double v)
{
	/* JSON has no NaN or infinity. */
	if (v != v || v > 1.7e308 || v < -1.7e308)
		fputs("null", f);
	/* Range first: casting a double beyond long long is undefined (found by fuzz_writers). */
	else if (v < 9e15 && v > -9e15 && v == (double)(long long)v)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%.9g", v);
}

void selfmon_csv__field(FILE *f, const char *s)
{
	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static double col_median(const struct selfmon_bench_result *res, const char *name)
{
	int c = selfmon_bench_result__col(res, name);

	return c < 0 ? -1 : res->col[c].st.median;
}

void selfmon_report__derived(const struct selfmon_bench_result *res, struct selfmon_derived *d)
{
	static const struct { const char *name, *num, *den; } ratio[] = {
		{ "IPC", "instructions", "cycles" },
		{ "branch_miss_rate", "branch-misses", "branches" },
		{ "cache_miss_rate", "cache-misses", "cache-references" },
	};

	d->nr = 0;
	for (size_t i = 0; i < sizeof(ratio) / sizeof(ratio[0]); i++) {
		double num = col_median(res, ratio[i].num), den = col_median(res, ratio[i].den);

		/* Absent events, or a denominator of 0, give no metric rather than a made-up one. */
		if (num < 0 || den <= 0)
			continue;
		d->m[d->nr].name = ratio[i].name;
		d->m[d->nr++].value = num / den;
	}
	d->m[d->nr].name = "ns_per_iteration";
	d->m[d->nr++].value = res->col[0].st.median;
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
			n *= 1024 * 1024;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", i);
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
		c->type = !strcmp(type, "Data") ? "Data" : !strcmp(type, "Instruction") ? "Instruction" : "Unified";
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
	selfmon_json__string(f, k);
	fputs(": ", f);
	selfmon_json__string(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

static void json_kv_num(FILE *f, const char *ind, const char *k, double v, bool comma)
{
	fprintf(f, "%s", ind);
	selfmon_json__string(f, k);
	fputs(": ", f);
	selfmon_json__number(f, v);
	fputs(comma ? ",\n" : "\n", f);
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
	fprintf(f, "%s\"cpu_scaling_enabled\": %s,\n", in, ctx->cpu_scaling_enabled ? "true" : "false");
	fprintf(f, "%s\"caches\": [", in);
	for (int i = 0; i < ctx->nr_caches; i++) {
		const struct selfmon_report_cache *c = &ctx->caches[i];

		fprintf(f, "%s\n      {\"type\": ", i ? "," : "");
		selfmon_json__string(f, c->type);
		fprintf(f, ", \"level\": %d, \"size\": %ld, \"num_sharing\": %d}", c->level, c->size, c->num_sharing);
	}
	fputs(ctx->nr_caches ? "\n    ],\n" : "],\n", f);
	json_kv_str(f, in, "library_build_type", ctx->build_type ? ctx->build_type : "release", true);
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

/* Counters as extra numeric fields: one value per column, plus derived and extras. */
static void json_counters(FILE *f, const struct selfmon_report_entry *e, const double *v,
			  const struct selfmon_derived *d)
{
	const struct selfmon_bench_result *res = e->res;

	/* Column 0 is real_time, column 1 (task-clock) cpu_time: events from there on. */
	for (int c = 1; c < res->nr_cols; c++) {
		if (!strcmp(res->col[c].name, "task-clock"))
			continue;
		fputs(",\n      ", f);
		selfmon_json__string(f, res->col[c].name);
		fputs(": ", f);
		selfmon_json__number(f, v[c]);
	}
	for (int i = 0; d && i < d->nr; i++) {
		fprintf(f, ",\n      \"%s\": ", d->m[i].name);
		selfmon_json__number(f, d->m[i].value);
	}
	for (int i = 0; i < e->nr_extra; i++) {
		fputs(",\n      ", f);
		selfmon_json__string(f, e->extra[i].name);
		fputs(": ", f);
		selfmon_json__number(f, e->extra[i].value);
	}
	if (e->expected_insns >= 0)
		fprintf(f, ",\n      \"expected_instructions\": %g", e->expected_insns);
}

static void json_entry(FILE *f, const struct selfmon_report_entry *e, int family, bool *first,
		       const char *aggregate, int rep, const double *v, const struct selfmon_derived *d)
{
	const struct selfmon_bench_result *res = e->res;
	int cpu = selfmon_bench_result__col(res, "task-clock");
	char name[128];

	snprintf(name, sizeof(name), "%s%s%s", res->name, aggregate ? "_" : "", aggregate ? aggregate : "");
	fputs(*first ? "\n    {\n" : ",\n    {\n", f);
	*first = false;
	json_kv_str(f, "      ", "name", name, true);
	json_kv_num(f, "      ", "family_index", family, true);
	json_kv_num(f, "      ", "per_family_instance_index", 0, true);
	json_kv_str(f, "      ", "run_name", res->name, true);
	json_kv_str(f, "      ", "run_type", aggregate ? "aggregate" : "iteration", true);
	json_kv_num(f, "      ", "repetitions", res->kept, true);
	if (aggregate) {
		json_kv_num(f, "      ", "threads", 1, true);
		json_kv_str(f, "      ", "aggregate_name", aggregate, true);
		json_kv_str(f, "      ", "aggregate_unit", "time", true);
		/* Google Benchmark puts the number of repetitions here for aggregates. */
		json_kv_num(f, "      ", "iterations", res->kept, true);
	} else {
		json_kv_num(f, "      ", "repetition_index", rep, true);
		json_kv_num(f, "      ", "threads", 1, true);
		json_kv_num(f, "      ", "iterations", (double)res->iterations, true);
	}
	json_kv_num(f, "      ", "real_time", v[0], true);
	json_kv_num(f, "      ", "cpu_time", v[cpu < 0 ? 0 : cpu], true);
	fputs("      \"time_unit\": \"ns\"", f);
	json_counters(f, e, v, d);
	fputs("\n    }", f);
}

int selfmon_report__json(FILE *f, const struct selfmon_report_context *ctx,
			 const struct selfmon_report_entry *e, int nr)
{
	bool first = true;

	fputs("{\n", f);
	json_context(f, ctx);
	fputs("  \"benchmarks\": [", f);
	for (int i = 0; i < nr; i++) {
		const struct selfmon_bench_result *res = e[i].res;
		double v[SELFMON_BENCH_MAX_COLS];
		struct selfmon_derived d;

		if (e[i].skipped || !res || !res->kept)
			continue;
		for (int r = 0; r < res->kept; r++) {
			for (int c = 0; c < res->nr_cols; c++)
				v[c] = res->samples[(size_t)c * (size_t)res->kept + (size_t)r];
			json_entry(f, &e[i], i, &first, NULL, r, v, NULL);
		}
		selfmon_report__derived(res, &d);
		for (int c = 0; c < res->nr_cols; c++)
			v[c] = res->col[c].st.mean;
		json_entry(f, &e[i], i, &first, "mean", 0, v, NULL);
		for (int c = 0; c < res->nr_cols; c++)
			v[c] = res->col[c].st.median;
		json_entry(f, &e[i], i, &first, "median", 0, v, &d);
		for (int c = 0; c < res->nr_cols; c++)
			v[c] = res->col[c].st.stddev;
		json_entry(f, &e[i], i, &first, "stddev", 0, v, NULL);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- CSV ---- */

int selfmon_report__csv(FILE *f, const struct selfmon_report_context *ctx,
			const struct selfmon_report_entry *e, int nr)
{
	(void)ctx;
	fputs("name,event,unit,path,iterations,repetitions,kept,dropped_switch,dropped_migration,"
	      "dropped_fallback,calibration,median,mean,min,p10,p90,stddev,mad,clamped,overhead,expected\n", f);
	for (int i = 0; i < nr; i++) {
		const struct selfmon_bench_result *res = e[i].res;

		if (e[i].skipped || !res)
			continue;
		for (int c = 0; c < res->nr_cols; c++) {
			const struct selfmon_bench_col *col = &res->col[c];
			const struct selfmon_stats *st = &col->st;
			const double nums[] = { st->median, st->mean, st->min, st->p10, st->p90, st->stddev, st->mad };
			bool insns = !strncmp(col->name, "instructions", 12);

			selfmon_csv__field(f, res->name);
			fputc(',', f);
			selfmon_csv__field(f, col->name);
			fprintf(f, ",%s,%s,%llu,%d,%d,%d,%d,%d,%s", col->unit,
				col->path == SELFMON_PATH_USER ? "user" : "read(2)",
				(unsigned long long)res->iterations, res->repetitions, res->kept,
				res->dropped_switch, res->dropped_migration, res->dropped_fallback,
				selfmon_calib__str(res->calibration));
			for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
				fputc(',', f);
				selfmon_json__number(f, nums[k]);
			}
			fprintf(f, ",%d,", col->clamped);
			selfmon_json__number(f, col->overhead);
			fputc(',', f);
			if (insns && e[i].expected_insns >= 0)
				selfmon_json__number(f, e[i].expected_insns);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* ---- table ---- */

void selfmon_report__table_header(FILE *f, const struct selfmon_report_context *ctx)
{
	fprintf(f, "selfmon bench %s on %s: %d CPU%s%s%s\n", cli_text(ctx->version), cli_text(ctx->arch),
		ctx->num_cpus,
		ctx->num_cpus == 1 ? "" : "s", ctx->pinned && *ctx->pinned ? ", pinned to " : "",
		ctx->pinned && *ctx->pinned ? cli_text(ctx->pinned) : "");
	/* Event names and the library's notes quote what the user and sysfs gave. */
	if (ctx->hardware)
		fprintf(f, "events: %s (reads: %s)\n", cli_text(ctx->events), cli_text(ctx->read_path));
	else
		fprintf(f, "events: wall time and task-clock only: hardware counters are unavailable\n");
	if (ctx->note && *ctx->note)
		fprintf(f, "  note: %s\n", cli_text(ctx->note));
	if (ctx->calibration == SELFMON_CALIB_TWO_LENGTH)
		fprintf(f, "calibration: two-length: each repetition runs L and 2L iterations; "
			"(d(2L) - d(L)) / L cancels every fixed cost\n");
	else
		fprintf(f, "calibration: empty: the median of empty regions is subtracted; "
			"the body's call and fixed cost stay in, divided by L\n");
	fprintf(f, "values per iteration; %s\n", ctx->serialize ? "serialized reads" : "reads not serialized");
}

static void fmt_value(char *buf, size_t size, double v)
{
	if (v != 0 && (v >= 1e7 || v < 1e-3 ) && v > -1e7)
		snprintf(buf, size, "%.3e", v);
	else
		snprintf(buf, size, "%.3f", v);
}

/* 24 bins from min to max of @v; each bin's height as one of " .:-=+*#". */
static void histogram(FILE *f, const char *label, const double *v, int n, const char *unit)
{
	static const char levels[] = " .:-=+*#";
	enum { BINS = 24 };
	int bin[BINS] = { 0 }, top = 0;
	double lo = INFINITY, hi = -INFINITY;
	char a[32], b[32];

	/* Finite values only: a NaN or an infinity has no bin (and no cast to int; fuzz_writers). */
	for (int i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	if (lo > hi)
		return;
	for (int i = 0; i < n; i++) {
		double x = hi > lo ? (v[i] - lo) / (hi - lo) * BINS : 0;
		int k = x >= BINS ? BINS - 1 : x > 0 ? (int)x : 0;

		if (!isfinite(v[i]))
			continue;
		if (++bin[k] > top)
			top = bin[k];
	}
	fmt_value(a, sizeof(a), lo);
	fmt_value(b, sizeof(b), hi);
	fprintf(f, "  %-19s %10s %s |", label, a, unit);
	for (int k = 0; k < BINS; k++)
		fputc(bin[k] ? levels[1 + bin[k] * 6 / top] : ' ', f);
	fprintf(f, "| %s %s  (%d repetitions)\n", b, unit, n);
}

void selfmon_report__table_entry(FILE *f, const struct selfmon_report_entry *e)
{
	const struct selfmon_bench_result *res = e->res;
	struct selfmon_derived d;
	char num[8][32];

	if (e->skipped) {
		fprintf(f, "\n%s: not measured: %s\n", res && res->name[0] ? cli_text(res->name) : "?",
			cli_text(e->skipped));
		return;
	}
	fprintf(f, "\n%s%s%s: %llu iterations x %d repetitions (%d kept)\n", cli_text(res->name),
		e->what ? " - " : "", e->what ? cli_text(e->what) : "",
		(unsigned long long)res->iterations, res->repetitions, res->kept);
	if (!res->kept) {
		fprintf(f, "  every repetition was dropped (%d context switch, %d migration, %d fallback): "
			"nothing to report; --keep-noisy keeps them\n",
			res->dropped_switch, res->dropped_migration, res->dropped_fallback);
		return;
	}
	fprintf(f, "  %-19s %10s %10s %10s %10s %10s %10s %10s  %s\n", "per iteration", "median", "mean",
		"min", "p10", "p90", "stddev", "MAD", "expected");
	for (int c = 0; c < res->nr_cols; c++) {
		const struct selfmon_bench_col *col = &res->col[c];
		const struct selfmon_stats *st = &col->st;
		const double vals[] = { st->median, st->mean, st->min, st->p10, st->p90, st->stddev, st->mad };
		char label[64], expect[64] = "";

		for (int k = 0; k < 7; k++)
			fmt_value(num[k], sizeof(num[k]), vals[k]);
		snprintf(label, sizeof(label), "%.14s%s%s%s", cli_text(col->name), col->unit[0] ? " (" : "", col->unit,
			 col->unit[0] ? ")" : "");
		if (!strncmp(col->name, "instructions", 12) && e->expected_insns >= 0)
			snprintf(expect, sizeof(expect), "%g %s", e->expected_insns,
				 st->median == e->expected_insns ? "(exact)" : "(differs)");
		if (col->clamped)
			snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "%s%d clamped to 0",
				 expect[0] ? ", " : "", col->clamped);
		fprintf(f, "  %-19s %10s %10s %10s %10s %10s %10s %10s  %s\n", label, num[0], num[1], num[2],
			num[3], num[4], num[5], num[6], expect);
	}
	selfmon_report__derived(res, &d);
	fputs("  derived:", f);
	for (int i = 0; i < d.nr; i++)
		fprintf(f, "  %s %.3f", d.m[i].name, d.m[i].value);
	for (int i = 0; i < e->nr_extra; i++)
		fprintf(f, "  %s %.2f", cli_text(e->extra[i].name), e->extra[i].value);
	if (e->expected_insns >= 0 && selfmon_bench_result__col(res, "instructions") < 0)
		fprintf(f, "  (expected %g instructions, not counted here)", e->expected_insns);
	fputc('\n', f);
	if (res->dropped_switch || res->dropped_migration || res->dropped_fallback || res->flagged)
		fprintf(f, "  dropped: %d with a context switch, %d with a migration, %d with a read(2) "
			"fallback; %d noisy kept\n", res->dropped_switch, res->dropped_migration,
			res->dropped_fallback, res->flagged);
	histogram(f, "time", res->samples, res->kept, "ns");
}

int selfmon_report__table(FILE *f, const struct selfmon_report_context *ctx,
			  const struct selfmon_report_entry *e, int nr)
{
	selfmon_report__table_header(f, ctx);
	for (int i = 0; i < nr; i++)
		selfmon_report__table_entry(f, &e[i]);
	return ferror(f) ? -EIO : 0;
}
