/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_ERROR_H
#define SELFMON_CORE_ERROR_H

#include <selfmon/selfmon.h>

/*
 * Record the detailed message of a failure for selfmon_errmsg() and return
 * @err unchanged, so that "return selfmon__err(-EINVAL, ...)" reads as one step.
 * The library's own selfmon_errmsg__set(): the same message, formatted by
 * core/fmt.c, which takes the conversions the library's messages use; the
 * public one, for any printf format, by the C library's vsnprintf(3).
 */
int selfmon__err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Forget the last message: a call that succeeds leaves none behind. */
void selfmon__err_clear(void);

#endif
