// SPDX-License-Identifier: MIT
/*
 * selfmon compare's verdicts: a metric whose repetitions are all equal on
 * both sides (the board under icount) is compared exactly against its limit;
 * a noisy one must move its median and its minimum (leaving out values far
 * below both sides) beyond the limit and pass a two-sided
 * Mann-Whitney U test at alpha, with at least CLI_COMPARE_MIN_REPS
 * repetitions a side; a significant rise of the median alone is
 * inconclusive, and a change beyond the limit that is not significant is
 * unsure: neither is ever "same". Over several noisy metrics, alpha is the family-wise
 * error rate: Holm's step-down correction (one comparison of a whole
 * report tests dozens of metrics, and each would otherwise raise a false
 * alarm at rate alpha). Pure functions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/bench.h>
#include "compare.h"
#include "../util/sort.h"

static const struct cli_limit defaults[] = {
	{ "time", 10, true },  { "cpu_time", 10, true }, { "instructions", 0.5, true },
	{ "cycles", 5, true }, { "", 5, true }, /* any other counter */
};

double cli_median(const double *v, int n)
{
	struct selfmon_stats st;

	if (n <= 0)
		return 0;
	return selfmon_stats__compute(v, (size_t)n, &st) ? v[0] : st.median;
}

/* Tukey's lower far-out fence of @n values: Q1 - 3 IQR. */
static double low_fence(const double *v, int n)
{
	double *s = malloc((size_t)n * sizeof(*s)), q1, q3;

	if (!s)
		return -1.0 / 0.0;
	memcpy(s, v, (size_t)n * sizeof(*s));
	util_sort_doubles(s, (size_t)n);
	q1 = util_quantile(s, (size_t)n, 0.25);
	q3 = util_quantile(s, (size_t)n, 0.75);
	free(s);
	return q1 - 3 * (q3 - q1);
}

double cli_floor(const double *v, int n, const double *other, int n_other)
{
	double fence = low_fence(v, n), least = v[0], kept = 0;
	bool any = false;

	if (n_other > 0) {
		double f = low_fence(other, n_other);

		fence = f < fence ? f : fence;
	}
	for (int i = 0; i < n; i++) {
		least = v[i] < least ? v[i] : least;
		if (v[i] >= fence && (!any || v[i] < kept)) {
			kept = v[i];
			any = true;
		}
	}
	return any ? kept : least;
}

double cli_normal_sf(double z)
{
	/* erfc keeps the upper tail's precision where 1 - Phi(z) would cancel. */
	return 0.5 * erfc(z * M_SQRT1_2);
}

struct ranked {
	double v;
	int side;
};

static int cmp_ranked(const void *a, const void *b)
{
	return util_cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

double cli_mann_whitney(const double *a, int na, const double *b, int nb, double *u)
{
	int n = na + nb;
	struct ranked *all = malloc((size_t)n * sizeof(*all));
	double r1 = 0, ties = 0, mu, sigma, u1, z;

	if (!all)
		return -1;
	for (int i = 0; i < n; i++)
		all[i] = (struct ranked){ i < na ? a[i] : b[i - na], i < na };
	qsort(all, (size_t)n, sizeof(*all), cmp_ranked);
	/* Midranks: a run of t equal values shares the mean of its ranks; sum t^3 - t for the correction. */
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && all[j].v == all[i].v)
			j++;
		for (int k = i; k < j; k++)
			r1 += all[k].side ? (i + 1 + j) / 2.0 : 0;
		ties += (double)(j - i) * (j - i) * (j - i) - (j - i);
		i = j;
	}
	free(all);
	u1 = r1 - (double)na * (na + 1) / 2;
	*u = u1;
	mu = (double)na * nb / 2;
	sigma = sqrt((double)na * nb / 12 * ((n + 1) - ties / ((double)n * (n - 1))));
	if (sigma <= 0)
		return 1;
	/* Two-sided: the larger U, less the continuity correction of one half. */
	z = ((u1 > mu ? u1 : (double)na * nb - u1) - mu - 0.5) / sigma;
	z = 2 * cli_normal_sf(z);
	return z > 1 ? 1 : z;
}

/* The z with P(Z > z) = @q, 0 < q < 1: bisection, as cli_normal_sf() is monotone. */
static double normal_isf(double q)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (cli_normal_sf(mid) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int cli_shift_ci(const double *a, int na, const double *b, int nb, double alpha, double *lo,
		 double *hi)
{
	size_t m = (size_t)na * (size_t)nb, k;
	double *d, kf;

	if (na <= 0 || nb <= 0)
		return -EINVAL;
	d = malloc(m * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			d[(size_t)i * (size_t)nb + (size_t)j] = a[i] - b[j];
	qsort(d, m, sizeof(*d), util_cmp_double);
	/* The critical rank of U: m/2 - z sqrt(na nb (na + nb + 1) / 12), from each end. */
	kf = floor((double)m / 2 -
		   normal_isf(alpha) * sqrt((double)na * nb * (double)(na + nb + 1) / 12));
	k = kf > 0 ? (size_t)kf : 0;
	if (k > (m - 1) / 2)
		k = (m - 1) / 2;
	*lo = d[k];
	*hi = d[m - 1 - k];
	free(d);
	return 0;
}

bool cli_metric_match(const char *name, const char *pattern)
{
	size_t n = strcspn(name, ":");

	return !strcmp(name, pattern) || (strlen(pattern) == n && !strncmp(name, pattern, n));
}

const struct cli_limit *cli_limit_find(const struct cli_limit *given, int nr, const char *metric)
{
	size_t nd = sizeof(defaults) / sizeof(defaults[0]);

	for (int i = nr - 1; i >= 0; i--)
		if (cli_metric_match(metric, given[i].name))
			return &given[i];
	for (size_t i = 0; i + 1 < nd; i++)
		if (cli_metric_match(metric, defaults[i].name))
			return &defaults[i];
	return &defaults[nd - 1];
}

/* "ns", "us", "ms", "s" after an absolute time limit: its factor to ns; 0 for anything else. */
static double time_unit(const char *s)
{
	return !strcmp(s, "ns") ? 1 :
	       !strcmp(s, "us") ? 1e3 :
	       !strcmp(s, "ms") ? 1e6 :
	       !strcmp(s, "s")	? 1e9 :
				  0;
}

int cli_limit_parse(const char *arg, struct cli_limit *l, char *err, size_t errsz)
{
	const char *eq = strchr(arg, '='), *num;
	char *end;
	double f = 1;

	memset(l, 0, sizeof(*l));
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(l->name)) {
		snprintf(err, errsz,
			 "--limit '%.80s': expected METRIC=+N%% or METRIC=+N "
			 "(for example instructions=+0.5%%, time=+10%%, cycles=+200)",
			 arg);
		return -EINVAL;
	}
	memcpy(l->name, arg, (size_t)(eq - arg));
	num = eq[1] == '+' ? eq + 2 : eq + 1;
	errno = 0;
	l->value = strtod(num, &end);
	if (end == num || errno || l->value < 0 || l->value != l->value || l->value > 1e300) {
		snprintf(err, errsz,
			 "--limit '%.80s': the allowed increase must be a number >= 0, "
			 "as in %s=+5%% or %s=+20",
			 arg, l->name, l->name);
		return -EINVAL;
	}
	l->relative = *end == '%';
	if (l->relative && end[1]) {
		snprintf(err, errsz, "--limit '%.80s': nothing may follow '%%'", arg);
		return -EINVAL;
	}
	if (!l->relative && *end) {
		f = time_unit(end);
		if (!f) {
			snprintf(err, errsz,
				 "--limit '%.80s': unknown unit '%.20s' (%% of the base, or for "
				 "time ns, us, ms, s; counters take a plain number)",
				 arg, end);
			return -EINVAL;
		}
	}
	l->value *= f;
	return 0;
}

static bool all_equal(const struct cli_series *s)
{
	for (int i = 1; i < s->n; i++)
		if (s->v[i] != s->v[0])
			return false;
	return true;
}

/* The minimum's change in percent of the base's, for the reasons. */
static double min_pct(const struct cli_result *r)
{
	return r->min_base ? 100 * (r->min_new - r->min_base) / r->min_base : 0;
}

/*
 * The median rose beyond the limit and the U test calls the change
 * significant, but the least repetition stayed within it: a real slowdown
 * whose new side's least repetition was disturbed low, or load on the new
 * side's run alone. Neither can be told from the other here, and a rise
 * that significant is never "same".
 */
static void judge_disagreement(struct cli_result *r, double alpha)
{
	r->verdict = CLI_INCONCLUSIVE;
	snprintf(r->why, sizeof(r->why),
		 "median beyond the limit and significant (U test p=%.3g < %g), minimum within "
		 "(%+.1f%%): a slowdown, or load on one run; rerun the two sides alternately "
		 "(docs/compare.md)",
		 r->p, alpha, min_pct(r));
}

/*
 * Nothing beyond the limit: "same" only where the data shows it, the
 * shift's 1 - 2 alpha interval inside the limit on both sides (two
 * one-sided tests of equivalence). On a loaded runner a median can land
 * within the limit by chance while the repetitions spread over several
 * times the limit: then a change of the limit's size cannot be ruled out,
 * and the row is unsure, not "same".
 */
static void judge_within(struct cli_result *r, const struct cli_series *base,
			 const struct cli_series *new_, double alpha, bool med_down)
{
	double lo = -INFINITY, hi = INFINITY;

	cli_shift_ci(new_->v, new_->n, base->v, base->n, alpha, &lo, &hi);
	if (lo >= -r->allowed && hi <= r->allowed) {
		r->verdict = CLI_SAME;
		snprintf(r->why, sizeof(r->why),
			 "%s within the limit (minimum %+.1f%%; U test p=%.3g; shift %.3g to %.3g "
			 "at %.0f%%, inside +-%.3g)",
			 med_down ? "median below, minimum" : "median", min_pct(r), r->p, lo, hi,
			 100 * (1 - 2 * alpha), r->allowed);
		return;
	}
	r->verdict = CLI_UNSURE;
	snprintf(r->why, sizeof(r->why),
		 "%s within the limit, but a change of the limit's size cannot be ruled out "
		 "(shift %.3g to %.3g at %.0f%%, limit +-%.3g): too noisy to judge; rerun with "
		 "more repetitions, the sides alternating",
		 med_down ? "median below, minimum" : "median", lo, hi, 100 * (1 - 2 * alpha),
		 r->allowed);
}

static void judge_noisy(struct cli_result *r, const struct cli_series *base,
			const struct cli_series *new_, double alpha)
{
	double u, min_delta = r->min_new - r->min_base;
	/*
	 * Noise on a busy machine mostly adds time: a run that was disturbed
	 * more moves its median, not its least repetition. A real change moves
	 * both, so both must pass the limit for a regression. The least
	 * repetition leaves out those far below both sides (cli_floor()): a
	 * calibrated value is a difference of two timed runs, and one whose
	 * shorter run was preempted comes out far too low, which load alone
	 * never explains.
	 */
	bool med_up = r->delta > r->allowed, med_down = -r->delta > r->allowed;
	bool up = med_up && min_delta > r->allowed;
	bool down = med_down && -min_delta > r->allowed;

	if (base->n < CLI_COMPARE_MIN_REPS || new_->n < CLI_COMPARE_MIN_REPS) {
		/* A median beyond the limit is not judged either way: no test, no "same". */
		r->verdict = up || down || med_up ? CLI_UNSURE : CLI_SAME;
		snprintf(r->why, sizeof(r->why),
			 "noisy, %d and %d repetitions: the U test needs %d a side%s", base->n,
			 new_->n, CLI_COMPARE_MIN_REPS,
			 r->verdict == CLI_UNSURE ?
				 "; beyond the limit but not judged: rerun with more repetitions" :
				 "");
		return;
	}
	r->p = cli_mann_whitney(new_->v, new_->n, base->v, base->n, &u);
	if ((up || down) && r->p >= 0 && r->p < alpha) {
		r->verdict = up ? CLI_REGRESSION : CLI_IMPROVEMENT;
		snprintf(r->why, sizeof(r->why),
			 "median and minimum beyond the limit (minimum %+.1f%%), "
			 "significant (U test p=%.3g < %g)",
			 min_pct(r), r->p, alpha);
	} else if (med_up && r->p >= 0 && r->p < alpha) {
		judge_disagreement(r, alpha);
	} else if (up || down || med_up) {
		/*
		 * Beyond the limit, but the U test cannot tell the two sides
		 * apart: on a loaded runner a 50% slowdown of wall time looks
		 * like this. Neither "same" (a real change may hide in the
		 * noise) nor an alarm (noise alone does it too): not judged.
		 */
		r->verdict = CLI_UNSURE;
		snprintf(r->why, sizeof(r->why),
			 "%s beyond the limit but not significant (U test p=%.3g >= %g): too noisy to "
			 "judge; rerun with more repetitions, the two sides alternating",
			 up || down ? "median and minimum" : "median", r->p, alpha);
	} else {
		judge_within(r, base, new_, alpha, med_down);
	}
}

void cli_compare_judge(const struct cli_series *base, const struct cli_series *new_,
		       const struct cli_limit *limit, double alpha, struct cli_result *r)
{
	r->metric = new_->name;
	r->limit = limit;
	r->n_base = base->n;
	r->n_new = new_->n;
	r->base = cli_median(base->v, base->n);
	r->new_ = cli_median(new_->v, new_->n);
	r->delta = r->new_ - r->base;
	r->min_base = cli_floor(base->v, base->n, new_->v, new_->n);
	r->min_new = cli_floor(new_->v, new_->n, base->v, base->n);
	r->rel = r->base != 0 ? r->delta / (r->base < 0 ? -r->base : r->base) :
		 r->delta     ? 1e300 * r->delta :
				0;
	r->allowed = limit->relative ? limit->value / 100 * (r->base < 0 ? -r->base : r->base) :
				       limit->value;
	r->exact = all_equal(base) && all_equal(new_);
	r->p = -1;
	if (!r->exact) {
		judge_noisy(r, base, new_, alpha);
		return;
	}
	r->verdict = r->delta > r->allowed					 ? CLI_REGRESSION :
		     -r->delta > r->allowed || (r->allowed == 0 && r->delta < 0) ? CLI_IMPROVEMENT :
										   CLI_SAME;
	snprintf(r->why, sizeof(r->why), "exact: every repetition equal on each side");
}

static int cmp_p(const void *a, const void *b)
{
	return util_cmp_double(&(*(struct cli_result *const *)a)->p,
			  &(*(struct cli_result *const *)b)->p);
}

/* A verdict of judge_noisy() whose p-value Holm's step-down rejects no more: not judged. */
static void holm_keep(struct cli_result *r, double threshold, int m)
{
	if (r->verdict != CLI_REGRESSION && r->verdict != CLI_IMPROVEMENT &&
	    r->verdict != CLI_INCONCLUSIVE)
		return;
	r->verdict = CLI_UNSURE;
	snprintf(r->why, sizeof(r->why),
		 "beyond the limit but not significant over the %d noisy metrics "
		 "compared (U test p=%.3g, Holm's correction asks < %.3g): too noisy to judge",
		 m, r->p, threshold);
}

int cli_compare_holm(struct cli_result *res, int nr, double alpha)
{
	struct cli_result **t = malloc((size_t)(nr ? nr : 1) * sizeof(struct cli_result *));
	int m = 0;
	bool stop = false;

	if (!t)
		return -ENOMEM;
	for (int i = 0; i < nr; i++)
		if (res[i].p >= 0)
			t[m++] = &res[i];
	qsort(t, (size_t)m, sizeof(struct cli_result *), cmp_p);
	/* Step down: the k-th smallest p (from 0) needs < alpha / (m - k), and so did all before it. */
	for (int k = 0; k < m; k++) {
		double threshold = alpha / (m - k);

		stop = stop || !(t[k]->p < threshold);
		if (stop)
			holm_keep(t[k], threshold, m);
	}
	free(t);
	return 0;
}

const char *cli_verdict_str(enum cli_verdict v)
{
	return v == CLI_REGRESSION  ? "REGRESSION" :
	       v == CLI_IMPROVEMENT ? "improvement" :
	       v == CLI_UNSURE	    ? "unsure" :
	       v == CLI_INCONCLUSIVE ? "inconclusive" :
				      "same";
}
