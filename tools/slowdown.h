/* SPDX-License-Identifier: MIT */
/*
 * A test knob, not a user option: SELFMON_TEST_SLOWDOWN=NAME=PCT makes the
 * built-in kernel NAME run PCT% more iterations than it is asked for, so
 * that the regression gate (selfmon compare, scripts/gate-resolution.sh)
 * can be shown a known slowdown.
 */
#ifndef SELFMON_TOOLS_SLOWDOWN_H
#define SELFMON_TOOLS_SLOWDOWN_H

#include <selfmon/bench.h>

/*
 * When the environment slows kernel @name down, replace @fn and @arg by a
 * body that runs the kernel for iters + iters * PCT / 100 iterations.
 * Return: the percentage applied (0: none), or -EINVAL with a message on
 * stderr for a malformed value.
 */
int cli_slowdown_wrap(const char *name, selfmon_bench_fn *fn, void **arg);

#endif
