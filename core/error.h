/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_ERROR_H
#define SELFMON_CORE_ERROR_H

/*
 * Record the detailed message of a failure for selfmon_errmsg() and return
 * @err unchanged, so that "return selfmon__err(-EINVAL, ...)" reads as one step.
 */
int selfmon__err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Forget the last message: a call that succeeds leaves none behind. */
void selfmon__err_clear(void);

#endif
