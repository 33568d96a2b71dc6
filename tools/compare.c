// SPDX-License-Identifier: MIT
/*
 * selfmon compare BASE.json NEW.json: every benchmark (or region) and every
 * metric of two reports against per-metric limits; exit 0 with no
 * regression, 1 with one or with a benchmark that failed in NEW, 2 on bad
 * input. compare_stats.c judges, compare_load.c reads, compare_out.c writes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"

/* The last complaint about the input, for the JUnit that says what went wrong. */
static char complaint[768];

/* Say what is wrong with the input, on stderr, and keep it for junit_bad_input(). */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(complaint, sizeof(complaint), fmt, ap);
	va_end(ap);
	fprintf(stderr, "selfmon compare: %s\n", complaint);
}

static bool metric_known(const struct cli_report *r, const char *name)
{
	for (int i = 0; i < r->nr_b; i++)
		for (int k = 0; k < r->b[i].nr_m; k++)
			if (cli_metric_match(r->b[i].m[k].name, name))
				return true;
	return false;
}

/* A --limit or --metric naming no metric of either report is a mistake: say which there are. */
static int check_metric(const struct cli_report r[2], const char *name, const char *opt)
{
	char list[512] = "";
	size_t len = 0;

	if (metric_known(&r[0], name) || metric_known(&r[1], name))
		return 0;
	for (int i = 0; i < r[0].nr_b && !len; i++)
		for (int k = 0; k < r[0].b[i].nr_m; k++)
			len += (size_t)snprintf(list + len,
						len < sizeof(list) ? sizeof(list) - len : 0, "%s%s",
						k ? ", " : "", r[0].b[i].m[k].name);
	say("%s '%s': no such metric in %s or %s; they have: %s%s", opt, cli_text(name),
	    cli_text(r[0].path), cli_text(r[1].path), cli_text(list),
	    metric_known(&r[0], "time") && !metric_known(&r[0], "instructions") ?
		    " (reports of a machine without a hardware PMU hold time and cpu_time only: "
		    "leave the option out there, docs/compare.md)" :
		    "");
	return -EINVAL;
}

static bool wanted_metric(const struct cli_compare_args *cli, const char *name)
{
	if (!cli->nr_metrics)
		return true;
	for (int i = 0; i < cli->nr_metrics; i++)
		if (cli_metric_match(name, cli->metrics[i]))
			return true;
	return false;
}

static int note_missing(char ***list, int *nr, const char *bench, const char *metric)
{
	size_t n = strlen(bench) + (metric ? strlen(metric) + 3 : 0) + 1;
	char **l = realloc(*list, (size_t)(*nr + 1) * sizeof(*l)), *s;

	if (!l)
		return -ENOMEM;
	*list = l;
	s = malloc(n);
	if (!s)
		return -ENOMEM;
	snprintf(s, n, metric ? "%s: %s" : "%s", bench, metric ? metric : "");
	l[(*nr)++] = s;
	return 0;
}

/*
 * Exact counts per iteration hold a fixed cost divided by the iteration
 * count L (what calibration leaves): runs that grew L differently differ
 * by a fraction of an instruction. Say so where that may be the change.
 */
static void hint_iterations(struct cli_result *r, const struct cli_cmp_bench *b,
			    const struct cli_cmp_bench *nb)
{
	size_t n = strlen(r->why);

	if ((b->iterations == nb->iterations && !b->iterations_vary && !nb->iterations_vary) ||
	    n + 1 >= sizeof(r->why))
		return;
	snprintf(r->why + n, sizeof(r->why) - n,
		 "; the runs differ in iterations (%.0f and %.0f): "
		 "fix them with selfmon bench --iterations N",
		 b->iterations, nb->iterations);
}

/* One benchmark present on both sides: each metric of the base that NEW has too. */
static int compare_bench(const struct cli_compare_args *cli, struct cli_compare *c,
			 const struct cli_cmp_bench *b, const struct cli_cmp_bench *nb)
{
	for (int side = 0; side < 2; side++) {
		const struct cli_cmp_bench *x = side ? nb : b, *y = side ? b : nb;

		for (int k = 0; k < x->nr_m; k++) {
			const struct cli_series *s = &x->m[k];
			struct cli_result *res;
			struct cli_series *o;

			if (!wanted_metric(cli, s->name))
				continue;
			o = cli_bench_series(y, s->name);
			if (!o) {
				if (note_missing(side ? &c->only_new : &c->only_base,
						 side ? &c->nr_only_new : &c->nr_only_base, b->name,
						 s->name))
					return -ENOMEM;
				continue;
			}
			if (side)
				continue;
			res = &c->res[c->nr++];
			memset(res, 0, sizeof(*res));
			res->bench = b->name;
			cli_compare_judge(s, o,
					  cli_limit_find(cli->limits, cli->nr_limits, s->name),
					  cli->alpha, res);
			if (res->exact && res->verdict != CLI_SAME)
				hint_iterations(res, b, nb);
		}
	}
	return 0;
}

static int note_unmeasured(struct cli_compare *c, const struct cli_cmp_bench *b,
			   enum cli_unmeasured_kind kind, int side, bool error)
{
	struct cli_unmeasured *u = realloc(c->un, (size_t)(c->nr_un + 1) * sizeof(*u));

	if (!u)
		return -ENOMEM;
	c->un = u;
	c->un[c->nr_un++] = (struct cli_unmeasured){
		.bench = b->name,
		.kind = kind,
		.side = side,
		.error = error,
		.message = kind == CLI_BASELINE ? "its cost is the harness's, already taken out "
						  "of the rows after it" :
			   error ? b->error :
				   b->skip,
	};
	c->failed += kind == CLI_FAILED;
	c->not_comparable += kind == CLI_NOT_COMPARABLE;
	c->baselines += kind == CLI_BASELINE;
	return 0;
}

/*
 * A benchmark on both sides, @b of BASE and @nb of NEW, with a repetition
 * that measured nothing is never compared as a measurement: an error on NEW
 * (noted on NEW's turn) fails the gate; an error on BASE, or a skip on one
 * side, leaves nothing to compare against (as a benchmark on one side only);
 * skipped on both is said, with nothing to judge. Return: 1 if it was such
 * a benchmark, 0 if not, -ENOMEM.
 */
static int compare_unmeasured(struct cli_compare *c, const struct cli_cmp_bench *b,
			      const struct cli_cmp_bench *nb)
{
	int rc = 0;

	if (nb->nr_errors)
		return 1;
	/*
	 * A calibration baseline is never judged: its cost is the harness's,
	 * already taken out of the rows after it, and a loop that costs a few
	 * picoseconds an iteration moves by half between two runs of one
	 * build, which a gate must not call a regression.
	 */
	if (b->baseline_of || nb->baseline_of)
		rc = note_unmeasured(c, b, CLI_BASELINE, 2, false);
	else if (b->nr_errors)
		rc = note_unmeasured(c, b, CLI_NOT_COMPARABLE, 0, true);
	else if (b->nr_skipped && nb->nr_skipped)
		rc = note_unmeasured(c, b, CLI_SKIPPED, 2, false);
	else if (b->nr_skipped || nb->nr_skipped)
		rc = note_unmeasured(c, b->nr_skipped ? b : nb, CLI_NOT_COMPARABLE,
				     b->nr_skipped ? 0 : 1, false);
	else
		return 0;
	return rc ? rc : 1;
}

/* One benchmark of side @side, @o its namesake on the other side (NULL: none). */
static int compare_one(const struct cli_compare_args *cli, struct cli_compare *c, int side,
		       const struct cli_cmp_bench *b, const struct cli_cmp_bench *o)
{
	int rc;

	/* A failed run of NEW fails the gate, whatever BASE holds. */
	if (side && b->nr_errors)
		return note_unmeasured(c, b, CLI_FAILED, 1, true);
	if (!o)
		return note_missing(side ? &c->only_new : &c->only_base,
				    side ? &c->nr_only_new : &c->nr_only_base, b->name, NULL);
	if (side)
		return 0;
	rc = compare_unmeasured(c, b, o);
	return rc ? (rc < 0 ? rc : 0) : compare_bench(cli, c, b, o);
}

static int compare_all(const struct cli_compare_args *cli, const struct cli_report r[2],
		       struct cli_compare *c)
{
	int total = 0, matched = 0, err = 0;
	regex_t re;

	err = cli->filter ? regcomp(&re, cli->filter, REG_EXTENDED | REG_NOSUB) : 0;
	if (err) {
		char msg[128];

		regerror(err, &re, msg, sizeof(msg));
		say("--filter '%s': %s", cli_text(cli->filter), msg);
		return -EINVAL;
	}
	for (int i = 0; i < r[0].nr_b; i++)
		total += r[0].b[i].nr_m;
	c->res = calloc((size_t)total + 1, sizeof(*c->res));
	if (!c->res)
		err = -ENOMEM;
	for (int side = 0; side < 2 && !err; side++) {
		for (int i = 0; i < r[side].nr_b && !err; i++) {
			const struct cli_cmp_bench *b = &r[side].b[i],
						   *o = cli_report_bench(&r[!side], b->name);

			if (cli->filter && regexec(&re, b->name, 0, NULL, 0))
				continue;
			matched++;
			err = compare_one(cli, c, side, b, o);
		}
	}
	if (cli->filter)
		regfree(&re);
	if (cli->filter && !matched && !err) {
		say("--filter '%s' matches no benchmark of either report "
		    "(their names are the \"name\" fields of \"benchmarks\")",
		    cli_text(cli->filter));
		err = -EINVAL;
	}
	if (!err)
		err = cli_compare_holm(c->res, c->nr, cli->alpha);
	for (int i = 0; i < c->nr && !err; i++) {
		c->regressions += c->res[i].verdict == CLI_REGRESSION;
		c->improvements += c->res[i].verdict == CLI_IMPROVEMENT;
		c->unsure += c->res[i].verdict == CLI_UNSURE;
		c->inconclusive += c->res[i].verdict == CLI_INCONCLUSIVE;
	}
	return err;
}

static int write_out(const struct cli_compare_args *cli, const struct cli_compare *c)
{
	static int (*const writers[])(FILE *, const struct cli_compare *) = {
		cli_compare_table,
		cli_compare_json,
		cli_compare_junit,
		cli_compare_lava,
	};
	char *tmp = NULL;
	FILE *f = stdout;
	int rc;

	/* JSON, JUnit or LAVA in a file, and the table in the log: one run in CI. */
	if (cli->out && cli->format != CLI_COMPARE_TABLE && cli_compare_table(stdout, c))
		return -EIO;
	/* Written whole, never through a link (<selfmon/outfile.h>), as bench --out. */
	if (cli->out) {
		f = cli_outfile_open("selfmon compare", cli->out, &tmp);
		if (!f)
			return -EINVAL;
	}
	rc = writers[cli->format](f, c);
	if (f != stdout && cli_outfile_close(f, "selfmon compare", cli->out, tmp, !rc))
		rc = -EIO;
	return rc;
}

static void free_compare(struct cli_compare *c)
{
	for (int i = 0; i < c->nr_only_base; i++)
		free(c->only_base[i]);
	for (int i = 0; i < c->nr_only_new; i++)
		free(c->only_new[i]);
	free(c->only_base);
	free(c->only_new);
	free(c->un);
	free(c->res);
}

/* One side: its first report, then the repetitions of the others added. */
static int load_side(struct cli_compare_args *cli, int side, struct cli_report *r)
{
	char err[512];
	int rc = 0, k;

	for (k = 0; k < cli->nr_paths[side] && !rc; k++)
		rc = k ? cli_report_add(cli->paths[side][k], r, err, sizeof(err)) :
			 cli_report_load(cli->paths[side][k], r, err, sizeof(err));
	if (rc) {
		say("%s '%s': %s%s", side ? "NEW" : "BASE", cli_text(cli->paths[side][k - 1]),
		    cli_text(err),
		    rc == -ENOENT ? " (write it with selfmon bench --format json --out FILE)" : "");
		if (k > 1)
			cli_report_free(r);
		return rc;
	}
	snprintf(cli->label[side], sizeof(cli->label[side]), "%s", cli->paths[side][0]);
	if (cli->nr_paths[side] > 1)
		snprintf(cli->label[side] + strlen(cli->label[side]),
			 sizeof(cli->label[side]) - strlen(cli->label[side]), " and %d more",
			 cli->nr_paths[side] - 1);
	r->path = cli->label[side];
	return 0;
}

static int load_both(struct cli_compare_args *cli, struct cli_report r[2])
{
	if (load_side(cli, 0, &r[0]))
		return -EINVAL;
	if (load_side(cli, 1, &r[1])) {
		cli_report_free(&r[0]);
		return -EINVAL;
	}
	for (int i = 0; i < cli->nr_limits + cli->nr_metrics; i++) {
		bool lim = i < cli->nr_limits;

		if (check_metric(r, lim ? cli->limits[i].name : cli->metrics[i - cli->nr_limits],
				 lim ? "--limit" : "--metric")) {
			cli_report_free(&r[0]);
			cli_report_free(&r[1]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Each benchmark that failed on NEW, with its message, on stderr too: what a CI log shows first. */
static void report_failed(const struct cli_compare *c)
{
	for (int i = 0; i < c->nr_un; i++) {
		const struct cli_unmeasured *u = &c->un[i];

		if (u->kind == CLI_FAILED)
			fprintf(stderr, "selfmon compare: %s failed in '%s': '%s'\n",
				cli_text(u->bench), cli_text(c->new_path), cli_text(u->message));
	}
}

/* Why the comparison is incomplete: what is on one side only, and what measured nothing on one. */
static void report_incomplete(const struct cli_compare *c)
{
	char msg[1024];
	size_t n = 0;

	if (c->nr_only_base)
		n += (size_t)snprintf(msg, sizeof(msg), "%d benchmark%s or metric%s only in '%s'",
				      c->nr_only_base, c->nr_only_base == 1 ? "" : "s",
				      c->nr_only_base == 1 ? "" : "s", cli_text(c->base_path));
	if (c->nr_only_new && n < sizeof(msg))
		n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s%d only in '%s'", n ? ", " : "",
				      c->nr_only_new, cli_text(c->new_path));
	if (c->not_comparable && n < sizeof(msg))
		n += (size_t)snprintf(msg + n, sizeof(msg) - n,
				      "%s%d not comparable (a failed or skipped run on one side)",
				      n ? ", " : "", c->not_comparable);
	fprintf(stderr,
		"selfmon compare: %s (listed in the output); --allow-missing compares the rest\n",
		msg);
}

/*
 * Bad input under --format junit: a JUnit file all the same, with the
 * complaint as an <error>, for a CI that publishes the JUnit (a missing file
 * would hide what went wrong). The exit status stays 2.
 */
static void junit_bad_input(const struct cli_compare_args *cli)
{
	struct cli_compare c = { .base_path = cli->paths[0][0],
				 .new_path = cli->paths[1][0],
				 .alpha = cli->alpha,
				 .error = complaint };

	if (cli->format == CLI_COMPARE_JUNIT)
		write_out(cli, &c);
}

int cmd_compare(int argc, char **argv)
{
	struct cli_compare c = { 0 };
	struct cli_compare_args cli;
	struct cli_report r[2];
	char err[256];
	int ret = EXIT_USAGE;

	if (cli_compare_parse(argc, argv, &cli, err, sizeof(err)))
		return cli_usage_error("compare", err);
	if (cli.help) {
		cli_compare_usage(stdout);
		return 0;
	}
	complaint[0] = '\0';
	if (load_both(&cli, r)) {
		junit_bad_input(&cli);
		return EXIT_USAGE;
	}
	c.base_path = cli.label[0];
	c.new_path = cli.label[1];
	c.alpha = cli.alpha;
	if (compare_all(&cli, r, &c)) {
		if (complaint[0])
			junit_bad_input(&cli);
		goto out;
	}
	if (write_out(&cli, &c))
		goto out;
	fflush(stdout);
	report_failed(&c);
	if ((c.nr_only_base || c.nr_only_new || c.not_comparable) && !cli.allow_missing) {
		report_incomplete(&c);
		goto out;
	}
	ret = c.regressions || c.failed ? 1 : c.inconclusive ? CLI_COMPARE_EXIT_INCONCLUSIVE : 0;
out:
	free_compare(&c);
	cli_report_free(&r[0]);
	cli_report_free(&r[1]);
	return ret;
}
