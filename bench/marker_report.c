// SPDX-License-Identifier: MIT
/*
 * The markers' report: per region, the totals over threads, then each
 * thread; as a table, CSV, or JSON in the layout `selfmon bench --format
 * json` writes (Google Benchmark's: "context" and "benchmarks", one entry a
 * region and one a region in a thread, counters as extra numeric fields), so
 * that the same comparison reads both.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <selfmon/selfmon.h>
#include "marker_int.h"

/* One region's counts: a thread's, or the sum over threads. */
struct mk_row {
	uint64_t calls, fallbacks, enabled, running;
	uint64_t sum[MK_EVENTS], min[MK_EVENTS], max[MK_EVENTS];
	int threads;
};

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Add @t's pairs of one region to @r, less @t's empty pair of each pair's
 * form; a region ended in both forms takes the smaller one off its min and
 * max (and each form's off its sum).
 */
static void row_add(struct mk_row *r, const struct mk_thread *t, const struct mk_slot *s)
{
	uint64_t calls = s->calls[MK_CACHED] + s->calls[MK_NAMED];

	if (!calls)
		return;
	if (!r->calls)
		memset(r->min, 0xff, sizeof(r->min));
	r->calls += calls;
	r->fallbacks += s->fallbacks;
	r->enabled += s->enabled;
	r->running += s->running;
	for (int i = 0; i < mk.nr; i++) {
		uint64_t oc = t->overhead[MK_CACHED][i], on = t->overhead[MK_NAMED][i];
		uint64_t o = !s->calls[MK_NAMED] ? oc : !s->calls[MK_CACHED] ? on : oc < on ? oc : on;
		uint64_t min = sub0(s->min[i], o), max = sub0(s->max[i], o);

		r->sum[i] += sub0(s->sum[i], s->calls[MK_CACHED] * oc + s->calls[MK_NAMED] * on);
		if (min < r->min[i])
			r->min[i] = min;
		if (max > r->max[i])
			r->max[i] = max;
	}
	r->threads++;
}

/* The totals of region @id over every thread of the process. */
static void region_total(int id, struct mk_row *r)
{
	memset(r, 0, sizeof(*r));
	for (const struct mk_thread *t = mk.threads; t; t = t->next)
		if ((unsigned long)id < t->nr_slots)
			row_add(r, t, &t->slot[id]);
}

static double per_call(const struct mk_row *r, int i)
{
	return r->calls ? (double)r->sum[i] / (double)r->calls : 0;
}

/* The first thread's empty pair, which the header states (each thread subtracts its own). */
static const struct mk_thread *first_thread(void)
{
	const struct mk_thread *t = mk.threads;

	while (t && t->next)
		t = t->next;
	return t;
}

static int open_pairs(void)
{
	int n = 0;

	for (const struct mk_thread *t = mk.threads; t; t = t->next)
		for (unsigned long i = 0; i < t->nr_slots; i++)
			n += t->slot[i].depth > 0 && t->slot[i].depth < (1 << 20);
	return n;
}

/* ---- table ---- */

static void table_row(FILE *f, const char *label, const struct mk_row *r)
{
	fprintf(f, "%-28s %8llu", label, (unsigned long long)r->calls);
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14.1f %10llu %10llu", per_call(r, i), (unsigned long long)r->min[i],
			(unsigned long long)r->max[i]);
	fprintf(f, " %8llu", (unsigned long long)r->fallbacks);
	if (r->enabled != r->running)
		fprintf(f, "  ran %.1f%% of the time enabled", r->enabled ? 100.0 * (double)r->running /
			(double)r->enabled : 0.0);
	fputc('\n', f);
}

static void table_header(FILE *f)
{
	const struct mk_thread *t0 = first_thread();
	char q[96];

	fprintf(f, "selfmon markers: pid %d, events %s (reads: %s)\n", (int)getpid(),
		mk_quote(q, sizeof(q), mk.events), mk.read_path);
	if (mk.note[0])
		fprintf(f, "  note: %s\n", mk.note);
	fputs("  an empty pair's count is subtracted from each call:", f);
	for (int i = 0; t0 && i < mk.nr; i++)
		fprintf(f, "%s %s %llu (cached), %llu (by name)", i ? ";" : "", mk_quote(q, sizeof(q), mk.event_name[i]),
			(unsigned long long)t0->overhead[MK_CACHED][i], (unsigned long long)t0->overhead[MK_NAMED][i]);
	fputc('\n', f);
	fprintf(f, "%-28s %8s", "region / thread", "calls");
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14.14s %10s %10s", mk_quote(q, sizeof(q), mk.event_name[i]), "min", "max");
	fprintf(f, " %8s\n", "read(2)");
	fprintf(f, "%-28s %8s", "", "");
	for (int i = 0; i < mk.nr; i++)
		fprintf(f, " %14s %10s %10s", "per call", "", "");
	fputc('\n', f);
}

static int report_table(FILE *f)
{
	char label[96], q[80];
	int open = open_pairs();

	table_header(f);
	for (int id = 0; id < mk.nr_regions; id++) {
		struct mk_row r;

		region_total(id, &r);
		if (!r.calls || mk_is_internal(mk.region[id]))
			continue;
		snprintf(label, sizeof(label), "%s", mk_quote(q, sizeof(q), mk.region[id]->name));
		table_row(f, label, &r);
		for (const struct mk_thread *t = mk.threads; t; t = t->next) {
			struct mk_row one = { 0 };

			if ((unsigned long)id >= t->nr_slots || !(t->slot[id].calls[MK_CACHED] + t->slot[id].calls[MK_NAMED]))
				continue;
			row_add(&one, t, &t->slot[id]);
			snprintf(label, sizeof(label), "  thread %d%s", (int)t->tid, t->exited ? " (exited)" : "");
			table_row(f, label, &one);
		}
	}
	if (open)
		fprintf(f, "  %d pair%s still open (a begin without its end yet): not counted\n", open,
			open == 1 ? "" : "s");
	return 0;
}

/* ---- CSV ---- */

static void csv_field(FILE *f, const char *s)
{
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

static void csv_rows(FILE *f, const char *region, long tid, const struct mk_row *r,
		     const struct mk_thread *t)
{
	for (int i = 0; i < mk.nr; i++) {
		csv_field(f, region);
		fputc(',', f);
		if (tid >= 0)
			fprintf(f, "%ld", tid);
		else
			fputs("all", f);
		fputc(',', f);
		csv_field(f, mk.event_name[i]);
		fprintf(f, ",%llu,%llu,%.3f,%llu,%llu,", (unsigned long long)r->calls,
			(unsigned long long)r->sum[i], per_call(r, i), (unsigned long long)r->min[i],
			(unsigned long long)r->max[i]);
		if (t)
			fprintf(f, "%llu", (unsigned long long)t->overhead[MK_CACHED][i]);
		fprintf(f, ",%llu,%llu,%llu\n", (unsigned long long)r->fallbacks,
			(unsigned long long)r->enabled, (unsigned long long)r->running);
	}
}

static int report_csv(FILE *f)
{
	fputs("region,thread,event,calls,sum,per_call,min,max,empty_pair,read_fallbacks,time_enabled,"
	      "time_running\n", f);
	for (int id = 0; id < mk.nr_regions; id++) {
		struct mk_row r;

		region_total(id, &r);
		if (!r.calls || mk_is_internal(mk.region[id]))
			continue;
		csv_rows(f, mk.region[id]->name, -1, &r, NULL);
		for (const struct mk_thread *t = mk.threads; t; t = t->next) {
			struct mk_row one = { 0 };

			if ((unsigned long)id >= t->nr_slots || !(t->slot[id].calls[MK_CACHED] + t->slot[id].calls[MK_NAMED]))
				continue;
			row_add(&one, t, &t->slot[id]);
			csv_rows(f, mk.region[id]->name, t->tid, &one, t);
		}
	}
	return 0;
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_kv(FILE *f, const char *k, const char *v, bool comma)
{
	fputs("    ", f);
	json_string(f, k);
	fputs(": ", f);
	json_string(f, v);
	fputs(comma ? ",\n" : "\n", f);
}

/* The context selfmon bench writes, with the markers' own fields. */
static void json_context(FILE *f)
{
	const struct mk_thread *t0 = first_thread();
	char date[64], host[256] = "unknown", exe[512];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	ssize_t n;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S%z", &tm);
	gethostname(host, sizeof(host) - 1);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (uname(&u))
		snprintf(u.machine, sizeof(u.machine), "unknown");
	fputs("  \"context\": {\n", f);
	json_kv(f, "date", date, true);
	json_kv(f, "host_name", host, true);
	json_kv(f, "executable", exe, true);
	fprintf(f, "    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": 0,\n    \"cpu_scaling_enabled\": false,\n"
		"    \"caches\": [],\n", sysconf(_SC_NPROCESSORS_ONLN));
	json_kv(f, "library_build_type", "release", true);
	json_kv(f, "selfmon_version", selfmon_version(), true);
	json_kv(f, "selfmon_arch", u.machine, true);
	json_kv(f, "selfmon_events", mk.events, true);
	fprintf(f, "    \"selfmon_hardware_counters\": %s,\n", t0 && t0->all_user ? "true" : "false");
	json_kv(f, "selfmon_note", mk.note, true);
	json_kv(f, "selfmon_read_path", mk.read_path, true);
	json_kv(f, "selfmon_pinned", "", true);
	fputs("    \"selfmon_serialize\": false,\n", f);
	json_kv(f, "selfmon_calibration", "empty", true);
	fprintf(f, "    \"selfmon_marker_pid\": %d,\n    \"selfmon_marker_open_pairs\": %d,\n",
		(int)getpid(), open_pairs());
	fputs("    \"selfmon_marker_empty_pair\": {", f);
	for (int i = 0; t0 && i < mk.nr; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, mk.event_name[i]);
		fprintf(f, ": {\"cached\": %llu, \"by_name\": %llu}", (unsigned long long)t0->overhead[MK_CACHED][i],
			(unsigned long long)t0->overhead[MK_NAMED][i]);
	}
	fputs("}\n  },\n", f);
}

/* One entry: a region's totals (@t NULL) or one thread's, as a one-repetition run. */
static void json_entry(FILE *f, bool *first, int family, const char *region, const struct mk_thread *t,
		       const struct mk_row *r)
{
	char name[SELFMON_MARKER_NAME_MAX + 32], key[96];
	double tc = -1;

	for (int i = 0; i < mk.nr; i++)
		if (!strncmp(mk.event_name[i], "task-clock", 10))
			tc = per_call(r, i);
	if (t)
		snprintf(name, sizeof(name), "%s/thread:%d", region, (int)t->tid);
	else
		snprintf(name, sizeof(name), "%s", region);
	fputs(*first ? "\n    {\n" : ",\n    {\n", f);
	*first = false;
	fputs("      \"name\": ", f);
	json_string(f, name);
	fprintf(f, ",\n      \"family_index\": %d,\n      \"per_family_instance_index\": %d,\n", family,
		t ? 1 : 0);
	fputs("      \"run_name\": ", f);
	json_string(f, name);
	fprintf(f, ",\n      \"run_type\": \"iteration\",\n      \"repetitions\": 1,\n"
		"      \"repetition_index\": 0,\n      \"threads\": %d,\n      \"iterations\": %llu,\n",
		r->threads, (unsigned long long)r->calls);
	/* Times per call in ns where task-clock counts them; no time otherwise. */
	fprintf(f, "      \"real_time\": %.3f,\n      \"cpu_time\": %.3f,\n      \"time_unit\": \"ns\"",
		tc < 0 ? 0 : tc, tc < 0 ? 0 : tc);
	for (int i = 0; i < mk.nr; i++) {
		fputs(",\n      ", f);
		json_string(f, mk.event_name[i]);
		fprintf(f, ": %.3f", per_call(r, i));
		snprintf(key, sizeof(key), "%s_sum", mk.event_name[i]);
		fputs(",\n      ", f);
		json_string(f, key);
		fprintf(f, ": %llu", (unsigned long long)r->sum[i]);
		snprintf(key, sizeof(key), "%s_min", mk.event_name[i]);
		fputs(",\n      ", f);
		json_string(f, key);
		fprintf(f, ": %llu", (unsigned long long)r->min[i]);
		snprintf(key, sizeof(key), "%s_max", mk.event_name[i]);
		fputs(",\n      ", f);
		json_string(f, key);
		fprintf(f, ": %llu", (unsigned long long)r->max[i]);
	}
	fprintf(f, ",\n      \"calls\": %llu,\n      \"read_fallbacks\": %llu,\n      \"time_enabled\": %llu,\n"
		"      \"time_running\": %llu\n    }", (unsigned long long)r->calls, (unsigned long long)r->fallbacks,
		(unsigned long long)r->enabled, (unsigned long long)r->running);
}

static int report_json(FILE *f)
{
	bool first = true;
	int family = 0;

	fputs("{\n", f);
	json_context(f);
	fputs("  \"benchmarks\": [", f);
	for (int id = 0; id < mk.nr_regions; id++) {
		struct mk_row r;

		region_total(id, &r);
		if (!r.calls || mk_is_internal(mk.region[id]))
			continue;
		json_entry(f, &first, family, mk.region[id]->name, NULL, &r);
		for (const struct mk_thread *t = mk.threads; t; t = t->next) {
			struct mk_row one = { 0 };

			if ((unsigned long)id >= t->nr_slots || !(t->slot[id].calls[MK_CACHED] + t->slot[id].calls[MK_NAMED]))
				continue;
			row_add(&one, t, &t->slot[id]);
			json_entry(f, &first, family, mk.region[id]->name, t, &one);
		}
		family++;
	}
	fputs("\n  ]\n}\n", f);
	return 0;
}

/* ---- where and how ---- */

int mk_report_to(FILE *f, const char *format)
{
	int err;

	if (!strcmp(format, "json"))
		err = report_json(f);
	else if (!strcmp(format, "csv"))
		err = report_csv(f);
	else
		err = report_table(f);
	fflush(f);
	return err ? err : ferror(f) ? -EIO : 0;
}

/* $SELFMON_FORMAT, else the extension of $SELFMON_OUTPUT, else a table. */
static const char *report_format(const char *out)
{
	const char *fmt = getenv("SELFMON_FORMAT"), *dot = out ? strrchr(out, '.') : NULL;
	char q[96];

	if (fmt && (!strcmp(fmt, "table") || !strcmp(fmt, "csv") || !strcmp(fmt, "json")))
		return fmt;
	if (fmt && *fmt)
		mk_say("SELFMON_FORMAT='%s' is not a format: use table, csv or json; writing a table",
		       mk_quote(q, sizeof(q), fmt));
	if (dot && (!strcmp(dot, ".json") || !strcmp(dot, ".csv")))
		return dot + 1;
	return "table";
}

int mk_report_write(void)
{
	const char *out = getenv("SELFMON_OUTPUT");
	FILE *f = stderr;
	char q[96];
	int err, fd = -1;

	if (out && *out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			err = errno;
			if (fd >= 0)
				close(fd);
			mk_say("cannot write the report to SELFMON_OUTPUT='%s': %s. Fix: name a file in a "
			       "writable directory; the report goes to stderr", mk_quote(q, sizeof(q), out),
			       strerror(err));
			f = stderr;
		}
	}
	pthread_mutex_lock(&mk.lock);
	err = mk_report_to(f, report_format(f == stderr ? NULL : out));
	pthread_mutex_unlock(&mk.lock);
	if (f != stderr && fclose(f) && !err)
		err = -errno;
	if (err)
		mk_say("the report could not be written in full: %s", strerror(-err));
	return err;
}
