// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the JSON, CSV and table writers of `selfmon bench`.
 * The input fills a report: names (benchmark, events, context strings, any
 * bytes), counts and statistics (any double, NaN and infinities included).
 * Then each writer must hold its format:
 *  - the JSON parses (RFC 8259, the tests' strict parser);
 *  - every CSV record has the header's number of fields (RFC 4180 quoting);
 *  - the table has no control character but the newline: nothing from the
 *    input reaches a terminal raw.
 *
 * The writers are the library's (<selfmon/report.h>): the harness links with
 * libselfmon alone.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <selfmon/report.h>
#include "../selftests/json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *p;
	size_t left;
};

static uint8_t byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static double number(struct input *in)
{
	double v = 0;
	uint8_t b[sizeof(v)] = { 0 };

	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = byte(in);
	memcpy(&v, b, sizeof(v));
	return v;
}

/* Up to @size - 1 bytes, to the next NUL of the input. */
static void text(struct input *in, char *buf, size_t size)
{
	size_t n = 0;
	uint8_t c;

	while (in->left && (c = byte(in)) != 0)
		if (n + 1 < size)
			buf[n++] = (char)c;
	buf[n] = '\0';
}

static char *write_all(int which, const struct selfmon_report_context *ctx,
		       const struct selfmon_report_entry *e, int nr)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	if (which == 0)
		selfmon_report__json(f, ctx, e, nr);
	else if (which == 1)
		selfmon_report__csv(f, ctx, e, nr);
	else
		selfmon_report__table(f, ctx, e, nr);
	fclose(f);
	return out;
}

/* Fields of each CSV record, RFC 4180: all equal to the header's. */
static void check_csv(const char *s)
{
	int fields = 1, want = -1;
	int quoted = 0;

	for (; *s; s++) {
		if (quoted) {
			if (*s == '"' && s[1] == '"')
				s++;
			else if (*s == '"')
				quoted = 0;
		} else if (*s == '"') {
			quoted = 1;
		} else if (*s == ',') {
			fields++;
		} else if (*s == '\n') {
			if (want < 0)
				want = fields;
			else if (fields != want)
				abort();
			fields = 1;
		}
	}
	if (quoted)
		abort();
}

static void check_table(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f) {
			fprintf(stderr, "control character 0x%02x in the table at %zu: %.80s\n",
				(unsigned char)*p, (size_t)(p - s), p > s + 40 ? p - 40 : s);
			abort();
		}
	}
}

/* The report's context, its text from the input. */
static void fill_context(struct input *in, struct selfmon_report_context *ctx, char (*strings)[256])
{
	memset(ctx, 0, sizeof(*ctx));
	for (int i = 0; i < 6; i++)
		text(in, strings[i], 256);
	text(in, ctx->host_name, sizeof(ctx->host_name));
	ctx->version = strings[0];
	ctx->events = strings[1];
	ctx->note = strings[2];
	ctx->arch = "fuzz";
	ctx->build_type = "release";
	ctx->read_path = strings[3];
	ctx->pinned = strings[4];
	ctx->hardware = byte(in) & 1;
	ctx->nr_caches = byte(in) % 9;
	for (int i = 0; i < ctx->nr_caches; i++)
		ctx->caches[i].type = "Data";
}

/* One result: its columns' statistics and @samples, all from the input. */
static void fill_result(struct input *in, struct selfmon_bench_result *r, double *samples)
{
	text(in, r->name, sizeof(r->name));
	r->calibration = byte(in) & 1;
	r->iterations = (uint64_t)byte(in) << 8;
	r->kept = byte(in) % 5;
	r->repetitions = r->kept;
	r->nr_cols = 1 + byte(in) % 4;
	for (int c = 0; c < r->nr_cols; c++) {
		struct selfmon_bench_col *col = &r->col[c];

		text(in, col->name, sizeof(col->name));
		col->unit = c ? "" : "ns";
		col->path = SELFMON_PATH_SYSCALL;
		col->st.median = number(in);
		col->st.mean = number(in);
		col->st.stddev = number(in);
		col->st.min = number(in);
		col->overhead = number(in);
	}
	for (int i = 0; i < r->nr_cols * r->kept; i++)
		samples[i] = number(in);
	r->samples = samples;
}

/* Entry @e for result @r, or (by the input) the same numbers given by columns @cols. */
static void fill_entry(struct input *in, struct selfmon_report_entry *e,
		       struct selfmon_bench_result *r, double *samples,
		       struct selfmon_report_col *cols, const char *what)
{
	e->res = r;
	e->what = what;
	e->expected_insns = number(in);
	e->skipped = byte(in) == 0xff ? what : NULL;
	fill_result(in, r, samples);
	e->nr_extra = byte(in) % 5;
	for (int i = 0; i < e->nr_extra; i++) {
		text(in, e->extra[i].name, sizeof(e->extra[i].name));
		e->extra[i].value = number(in);
	}
	/* The same numbers as an entry given by columns (statistics computed by the writer). */
	if (byte(in) & 1) {
		for (int c = 0; c < r->nr_cols; c++)
			cols[c] = (struct selfmon_report_col){ .name = r->col[c].name,
				.unit = r->col[c].unit, .values = &samples[c * r->kept] };
		e->res = NULL;
		e->name = r->name;
		e->kept = r->kept;
		e->nr_cols = r->nr_cols;
		e->cols = cols;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char strings[6][256];
	struct input in = { data, size };
	struct selfmon_report_context ctx;
	struct selfmon_report_entry e[2];
	struct selfmon_bench_result res[2];
	double samples[2][SELFMON_BENCH_MAX_COLS * 4];
	struct selfmon_report_col cols[2][SELFMON_BENCH_MAX_COLS];
	struct util_json root;
	char err[160];
	char *out;

	memset(e, 0, sizeof(e));
	memset(res, 0, sizeof(res));
	fill_context(&in, &ctx, strings);
	for (int k = 0; k < 2; k++)
		fill_entry(&in, &e[k], &res[k], samples[k], cols[k], strings[5]);

	out = write_all(0, &ctx, e, 2);
	if (out) {
		if (json_parse(out, &root, err, sizeof(err)))
			abort();
		util_json_free(&root);
		free(out);
	}
	out = write_all(1, &ctx, e, 2);
	if (out) {
		check_csv(out);
		free(out);
	}
	out = write_all(2, &ctx, e, 2);
	if (out) {
		check_table(out);
		free(out);
	}
	return 0;
}
