// SPDX-License-Identifier: MIT
/*
 * Sorting and quantiles of doubles (util/sort.h): the statistics of the
 * library, the budgets, the benchmark driver and the CLI share them.
 */
#include <stdlib.h>

#include "sort.h"

int util_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void util_sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), util_cmp_double);
}

double util_quantile(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo;

	if (!n)
		return 0;
	/* NaN passes neither test below, and (size_t)NaN is undefined. */
	if (q != q)
		return q;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)h;
	frac = h - (double)lo;
	if (lo + 1 >= n || frac == 0)
		return sorted[lo];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

double util_median(double *v, size_t n)
{
	util_sort_doubles(v, n);
	return util_quantile(v, n, 0.5);
}
