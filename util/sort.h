/* SPDX-License-Identifier: MIT */
/*
 * Sorting and quantiles of doubles, for every layer (util/ includes libc
 * only). Internal: the library's copies are local (scripts/symbols.py), the
 * CLI and the tests link libselfmon-util.a.
 */
#ifndef SELFMON_UTIL_SORT_H
#define SELFMON_UTIL_SORT_H

#include <stddef.h>

/**
 * util_cmp_double() - qsort(3) comparator: ascending doubles.
 * @a: a const double *
 * @b: a const double *
 *
 * Return: <0, 0 or >0. A NaN compares equal to everything: it sorts
 * somewhere, and qsort(3) still ends.
 */
int util_cmp_double(const void *a, const void *b);

/**
 * util_sort_doubles() - sort @n doubles in place, ascending.
 * @v: the values
 * @n: how many
 */
void util_sort_doubles(double *v, size_t n);

/**
 * util_quantile() - the @q quantile of @n sorted values.
 * @sorted: ascending values
 * @n: how many
 * @q: 0 to 1 (below: the least, above: the greatest)
 *
 * Linear interpolation between the closest ranks (Hyndman and Fan's
 * definition 7, R's and numpy's default): 0.5 of an even number of values
 * is the mean of the middle two.
 *
 * Return: the quantile; 0 for no values; NaN for a NaN @q.
 */
double util_quantile(const double *sorted, size_t n, double q);

/**
 * util_median() - sort @n values in place and return their median.
 * @v: the values, sorted on return
 * @n: how many
 *
 * Return: util_quantile(@v, @n, 0.5): the middle value, or the mean of the
 * middle two; 0 for no values.
 */
double util_median(double *v, size_t n);

#endif
