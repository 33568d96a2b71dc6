/* SPDX-License-Identifier: MIT */
/*
 * Errors as the house returns them, for every layer (util/ includes libc
 * only): int functions return 0 or -errno; constructors return NULL and
 * set errno, as fopen(3) and libperf's perf_evlist__new() do.
 */
#ifndef SELFMON_UTIL_ERR_H
#define SELFMON_UTIL_ERR_H

#include <errno.h>

/**
 * util_null_errno() - a constructor's failure: NULL, with errno set.
 * @err: the failure, as -errno (an int function's return)
 *
 * A constructor works with int returns inside and ends, at its single
 * out: exit, with return err ? util_null_errno(err) : obj.
 *
 * Return: NULL.
 */
static inline void *util_null_errno(int err)
{
	errno = -err;
	return NULL;
}

#endif
