// SPDX-License-Identifier: MIT
/*
 * selfmon compare's outputs: an aligned table for people, JSON for scripts,
 * JUnit XML for CI front ends (one testcase per benchmark and metric, a
 * <failure> per regression, <skipped> where the U test had too few
 * repetitions), and LAVA's lava-test-case lines with the new median and the
 * change as measurements with units.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/report.h>
#include "../util/text.h"
#include "cli.h"
#include "compare.h"

static void fmt_num(char *buf, size_t size, double v)
{
	if (v != 0 && (v >= 1e9 || v <= -1e9 || (v < 1e-3 && v > -1e-3)))
		snprintf(buf, size, "%.4g", v);
	else
		snprintf(buf, size, "%.3f", v);
}

static void fmt_change(char *buf, size_t size, const struct cli_result *r)
{
	if (r->base == 0 && r->delta != 0)
		snprintf(buf, size, "%+g", r->delta);
	else
		snprintf(buf, size, "%+.2f%%", r->rel * 100);
}

static void fmt_limit(char *buf, size_t size, const struct cli_limit *l)
{
	snprintf(buf, size, l->relative ? "+%g%%" : "+%g", l->value);
}

static const char *unit_of(const char *metric)
{
	return !strcmp(metric, "time") || !strcmp(metric, "cpu_time") ? "ns" : "";
}

int cli_compare_table(FILE *f, const struct cli_compare *c)
{
	fprintf(f, "selfmon compare %s -> %s (alpha %g; medians per iteration)\n",
		cli_text(c->base_path), cli_text(c->new_path), c->alpha);
	fprintf(f, "%-24s %-16s %14s %14s %10s %8s  %s\n", "benchmark", "metric", "base", "new",
		"change", "limit", "verdict");
	for (int i = 0; i < c->nr; i++) {
		const struct cli_result *r = &c->res[i];
		char b[32], n[32], ch[32], lim[32];

		fmt_num(b, sizeof(b), r->base);
		fmt_num(n, sizeof(n), r->new_);
		fmt_change(ch, sizeof(ch), r);
		fmt_limit(lim, sizeof(lim), r->limit);
		fprintf(f, "%-24s %-16s %11s %-2s %11s %-2s %10s %8s  %s: %s\n", cli_text(r->bench),
			cli_text(r->metric), b, unit_of(r->metric), n, unit_of(r->metric), ch, lim,
			cli_verdict_str(r->verdict), r->why);
	}
	for (int i = 0; i < c->nr_un; i++) {
		char what[512];

		cli_unmeasured_str(what, sizeof(what), c, &c->un[i]);
		fprintf(f, "%-24s %s: '%s'\n", cli_text(c->un[i].bench), cli_text(what),
			cli_text(c->un[i].message));
	}
	for (int i = 0; i < c->nr_only_base; i++)
		fprintf(f, "only in '%s': %s\n", cli_text(c->base_path), cli_text(c->only_base[i]));
	for (int i = 0; i < c->nr_only_new; i++)
		fprintf(f, "only in '%s': %s\n", cli_text(c->new_path), cli_text(c->only_new[i]));
	fprintf(f,
		"%d regression%s, %d inconclusive, %d improvement%s, %d not judged (too few "
		"repetitions or too noisy), %d same",
		c->regressions, c->regressions == 1 ? "" : "s", c->inconclusive, c->improvements,
		c->improvements == 1 ? "" : "s", c->unsure,
		c->nr - c->regressions - c->inconclusive - c->improvements - c->unsure);
	if (c->nr_un)
		fprintf(f, "; %d failed, %d not comparable, %d skipped on both sides", c->failed,
			c->not_comparable,
			c->nr_un - c->failed - c->not_comparable - c->baselines);
	if (c->baselines)
		fprintf(f, "; %d calibration baseline%s shown, not judged", c->baselines,
			c->baselines == 1 ? "" : "s");
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

void cli_unmeasured_str(char *buf, size_t size, const struct cli_compare *c,
			const struct cli_unmeasured *u)
{
	const char *side = u->side ? "NEW" : "BASE", *path = u->side ? c->new_path : c->base_path;

	if (u->kind == CLI_SKIPPED)
		snprintf(buf, size, "skipped on both sides, not compared");
	else if (u->kind == CLI_BASELINE)
		snprintf(buf, size, "a calibration baseline, not judged");
	else
		snprintf(buf, size, "%s: %s '%s' %s", u->kind == CLI_FAILED ? "FAILED" : "not comparable",
			 side, path, u->error ? "reported an error" : "skipped it");
}

static void json_names(FILE *f, const char *key, char **names, int nr)
{
	fprintf(f, "  \"%s\": [", key);
	for (int i = 0; i < nr; i++) {
		fputs(i ? ", " : "", f);
		util_json_string(f, names[i]);
	}
	fputs("],\n", f);
}

/* A number member of a result object, after the members before it. */
static void number_member(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	util_json_number(f, v);
}

static void json_result(FILE *f, const struct cli_result *r)
{
	char lim[32];

	fputs("    {\"benchmark\": ", f);
	util_json_string(f, r->bench);
	fputs(", \"metric\": ", f);
	util_json_string(f, r->metric);
	fprintf(f, ", \"unit\": \"%s\"", unit_of(r->metric));
	number_member(f, "base", r->base);
	number_member(f, "new", r->new_);
	number_member(f, "delta", r->delta);
	number_member(f, "change_percent",
		      r->base != 0 || r->delta == 0 ? r->rel * 100 : 1.0 / 0.0);
	fmt_limit(lim, sizeof(lim), r->limit);
	fprintf(f, ", \"limit\": \"%s\"", lim);
	number_member(f, "allowed", r->allowed);
	fprintf(f,
		", \"exact\": %s, \"repetitions_base\": %d, \"repetitions_new\": %d, \"p_value\": ",
		r->exact ? "true" : "false", r->n_base, r->n_new);
	util_json_number(f, r->p >= 0 ? r->p : 0.0 / 0.0);
	fprintf(f, ", \"verdict\": \"%s\", \"why\": ",
		r->verdict == CLI_REGRESSION ? "regression" : cli_verdict_str(r->verdict));
	util_json_string(f, r->why);
	fputc('}', f);
}

static const char *const unmeasured_verdict[] = {
	[CLI_FAILED] = "failed",
	[CLI_NOT_COMPARABLE] = "not comparable",
	[CLI_SKIPPED] = "skipped",
	[CLI_BASELINE] = "baseline",
};

static void json_unmeasured(FILE *f, const struct cli_compare *c)
{
	static const char *const sides[] = { "base", "new", "both" };

	fputs("  \"failed\": ", f);
	fprintf(f, "%d,\n  \"not_comparable\": %d,\n  \"unmeasured\": [", c->failed,
		c->not_comparable);
	for (int i = 0; i < c->nr_un; i++) {
		const struct cli_unmeasured *u = &c->un[i];
		char what[512];

		cli_unmeasured_str(what, sizeof(what), c, u);
		fputs(i ? ",\n" : "\n", f);
		fputs("    {\"benchmark\": ", f);
		util_json_string(f, u->bench);
		fprintf(f, ", \"verdict\": \"%s\", \"side\": \"%s\", \"kind\": \"%s\", \"message\": ",
			unmeasured_verdict[u->kind], sides[u->side], u->error ? "error" : "skipped");
		util_json_string(f, u->message);
		fputs(", \"why\": ", f);
		util_json_string(f, what);
		fputc('}', f);
	}
	fputs(c->nr_un ? "\n  ],\n" : "],\n", f);
}

int cli_compare_json(FILE *f, const struct cli_compare *c)
{
	fputs("{\n  \"schema\": \"selfmon-compare\",\n  \"schema_version\": 1,\n  \"base\": ", f);
	util_json_string(f, c->base_path);
	fputs(",\n  \"new\": ", f);
	util_json_string(f, c->new_path);
	fputs(",\n  \"alpha\": ", f);
	util_json_number(f, c->alpha);
	fprintf(f,
		",\n  \"regressions\": %d,\n  \"inconclusive\": %d,\n  \"improvements\": %d,\n"
		"  \"unsure\": %d,\n",
		c->regressions, c->inconclusive, c->improvements, c->unsure);
	json_names(f, "only_in_base", c->only_base, c->nr_only_base);
	json_names(f, "only_in_new", c->only_new, c->nr_only_new);
	json_unmeasured(f, c);
	fputs("  \"results\": [", f);
	for (int i = 0; i < c->nr; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_result(f, &c->res[i]);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? -EIO : 0;
}

static void junit_case(FILE *f, const struct cli_result *r)
{
	char b[32], n[32], ch[32], lim[32];

	fmt_num(b, sizeof(b), r->base);
	fmt_num(n, sizeof(n), r->new_);
	fmt_change(ch, sizeof(ch), r);
	fmt_limit(lim, sizeof(lim), r->limit);
	fputs("    <testcase classname=\"", f);
	util_xml_text(f, r->bench);
	fputs("\" name=\"", f);
	util_xml_text(f, r->metric);
	fputs("\" time=\"0\">\n", f);
	if (r->verdict == CLI_REGRESSION || r->verdict == CLI_UNSURE ||
	    r->verdict == CLI_INCONCLUSIVE) {
		fputs(r->verdict == CLI_REGRESSION ?
			      "      <failure type=\"regression\" message=\"" :
		      r->verdict == CLI_INCONCLUSIVE ?
			      "      <failure type=\"inconclusive\" message=\"" :
			      "      <skipped message=\"",
		      f);
		fprintf(f, "%s: %s -> %s %s (%s, limit %s): ", cli_verdict_str(r->verdict), b, n,
			unit_of(r->metric), ch, lim);
		util_xml_text(f, r->why);
		fputs("\"/>\n", f);
	}
	fprintf(f, "      <system-out>base %s, new %s %s, change %s, limit %s: %s: ", b, n,
		unit_of(r->metric), ch, lim, cli_verdict_str(r->verdict));
	util_xml_text(f, r->why);
	fputs("</system-out>\n    </testcase>\n", f);
}

/* A benchmark that measured nothing: a <failure>, an <error> or <skipped>, with its message. */
static void junit_unmeasured(FILE *f, const struct cli_compare *c, const struct cli_unmeasured *u)
{
	static const char *const tag[] = {
		[CLI_FAILED] = "failure type=\"error\"",
		[CLI_NOT_COMPARABLE] = "error type=\"not-comparable\"",
		[CLI_SKIPPED] = "skipped",
		[CLI_BASELINE] = "skipped",
	};
	char what[512];

	cli_unmeasured_str(what, sizeof(what), c, u);
	fputs("    <testcase classname=\"", f);
	util_xml_text(f, u->bench);
	fprintf(f, "\" name=\"run\" time=\"0\">\n      <%s message=\"", tag[u->kind]);
	util_xml_text(f, what);
	fputs(": '", f);
	util_xml_text(f, u->message);
	fputs("'\"/>\n    </testcase>\n", f);
}

int cli_compare_junit(FILE *f, const struct cli_compare *c)
{
	int failures = c->regressions + c->inconclusive + c->failed;
	int tests = c->nr + c->nr_only_base + c->nr_only_new + c->nr_un + !!c->error,
	    errors = c->nr_only_base + c->nr_only_new + c->not_comparable + !!c->error,
	    skipped = c->unsure + c->nr_un - c->failed - c->not_comparable;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<testsuites name=\"selfmon compare\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\">\n",
		tests, failures, errors, skipped);
	fprintf(f,
		"  <testsuite name=\"selfmon compare\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
		"skipped=\"%d\">\n",
		tests, failures, errors, skipped);
	for (int i = 0; i < c->nr; i++)
		junit_case(f, &c->res[i]);
	for (int i = 0; i < c->nr_un; i++)
		junit_unmeasured(f, c, &c->un[i]);
	if (c->error) {
		fputs("    <testcase classname=\"selfmon compare\" name=\"input\" time=\"0\">\n"
		      "      <error type=\"bad input\" message=\"",
		      f);
		util_xml_text(f, c->error);
		fputs("\"/>\n    </testcase>\n", f);
	}
	for (int side = 0; side < 2; side++) {
		char **names = side ? c->only_new : c->only_base;

		for (int i = 0; i < (side ? c->nr_only_new : c->nr_only_base); i++) {
			fputs("    <testcase classname=\"", f);
			util_xml_text(f, names[i]);
			fputs("\" name=\"present\" time=\"0\">\n      <error type=\"missing\" message=\"only in ",
			      f);
			util_xml_text(f, side ? c->new_path : c->base_path);
			fputs("\"/>\n    </testcase>\n", f);
		}
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

/*
 * A LAVA test case name or unit: runs of characters other than
 * [A-Za-z0-9_.+-] as one '_', none at either end, at most 96 (what
 * lava/selfmon-lava.sh and lava/check.py make of names).
 */
static void lava_clean(char *buf, size_t size, const char *raw)
{
	size_t n = 0;
	bool gap = false;

	for (const char *p = raw; *p && n + 2 < size && n < 96; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			  (*p >= '0' && *p <= '9') || (*p && strchr("_.+-", *p));

		if (!ok) {
			gap = n > 0;
			continue;
		}
		if (gap && n < 95)
			buf[n++] = '_';
		gap = false;
		buf[n++] = *p;
	}
	buf[n] = '\0';
}

int cli_compare_lava(FILE *f, const struct cli_compare *c)
{
	for (int i = 0; i < c->nr; i++) {
		const struct cli_result *r = &c->res[i];
		const char *result = r->verdict == CLI_REGRESSION ||
						     r->verdict == CLI_INCONCLUSIVE ?
					     "fail" :
				     r->verdict == CLI_UNSURE	  ? "skip" :
								    "pass";
		char raw[512], name[128], unit[128], num[32];

		snprintf(raw, sizeof(raw), "compare.%s.%s", r->bench, r->metric);
		lava_clean(name, sizeof(name), raw);
		snprintf(raw, sizeof(raw), "%.*s", (int)strcspn(r->metric, ":"), r->metric);
		lava_clean(unit, sizeof(unit), *unit_of(r->metric) ? "ns" : raw);
		snprintf(num, sizeof(num), "%.9g", r->new_);
		fprintf(f, "lava-test-case %s --result %s --measurement %s --units %s\n", name,
			result, num, unit);
		snprintf(num, sizeof(num), "%.6g", r->base != 0 ? r->rel * 100 : 0);
		fprintf(f,
			"lava-test-case %.89s.change --result %s --measurement %s --units percent\n",
			name, result, num);
	}
	for (int i = 0; i < c->nr_un; i++) {
		char raw[512], name[128];

		snprintf(raw, sizeof(raw), "compare.%s.run", c->un[i].bench);
		lava_clean(name, sizeof(name), raw);
		fprintf(f, "lava-test-case %s --result %s\n", name,
			c->un[i].kind == CLI_SKIPPED || c->un[i].kind == CLI_BASELINE ? "skip" :
											 "fail");
	}
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < (side ? c->nr_only_new : c->nr_only_base); i++) {
			char raw[512], name[128];

			snprintf(raw, sizeof(raw), "compare.%s.present",
				 (side ? c->only_new : c->only_base)[i]);
			lava_clean(name, sizeof(name), raw);
			fprintf(f, "lava-test-case %s --result fail\n", name);
		}
	return ferror(f) ? -EIO : 0;
}
