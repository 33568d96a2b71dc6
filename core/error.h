/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_ERROR_H
#define SELFMON_CORE_ERROR_H

#include <selfmon/selfmon.h>

/*
 * Record the detailed message of a failure for selfmon_errmsg() and return
 * @err unchanged, so that "return selfmon__err(-EINVAL, ...)" reads as one step.
 * The library's own name of the public selfmon_errmsg__set(): one
 * implementation, which code above the public door calls by that name.
 */
#define selfmon__err selfmon_errmsg__set

/* Forget the last message: a call that succeeds leaves none behind. */
void selfmon__err_clear(void);

#endif
