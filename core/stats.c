// SPDX-License-Identifier: MIT
/*
 * The statistics of <selfmon/bench.h>: pure functions over samples. In core/,
 * as the metrics' columns (core/metric_api.c) summarize with them too.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/bench.h>
#include "../util/sort.h"

double selfmon_stats__quantile(const double *sorted, size_t n, double q)
{
	return util_quantile(sorted, n, q);
}

int selfmon_stats__compute(const double *v, size_t n, struct selfmon_stats *st)
{
	double *s = NULL, sum = 0, sq = 0;
	int err = 0;

	memset(st, 0, sizeof(*st));
	if (!n) {
		err = -EINVAL;
		goto out;
	}
	s = malloc(n * sizeof(*s));
	if (!s) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(s, v, n * sizeof(*s));
	util_sort_doubles(s, n);
	st->n = n;
	st->min = s[0];
	st->max = s[n - 1];
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	st->mean = sum / (double)n;
	/* Two passes: the sum of squared deviations stays exact for equal samples. */
	for (size_t i = 0; i < n; i++)
		sq += (s[i] - st->mean) * (s[i] - st->mean);
	st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	st->median = util_quantile(s, n, 0.5);
	st->p10 = util_quantile(s, n, 0.1);
	st->p90 = util_quantile(s, n, 0.9);
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(s[i] - st->median);
	util_sort_doubles(s, n);
	st->mad = util_quantile(s, n, 0.5);
out:
	free(s);
	return err;
}
