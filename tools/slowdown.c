// SPDX-License-Identifier: MIT
/* SELFMON_TEST_SLOWDOWN: a known slowdown injected into one kernel (slowdown.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "slowdown.h"

/* Kernels run one at a time: one wrapped body at a time. */
static struct {
	selfmon_bench_fn fn;
	void *arg;
	double pct;
} slow;

static void slowed(void *arg, uint64_t iters)
{
	(void)arg;
	slow.fn(slow.arg, iters + (uint64_t)((double)iters * slow.pct / 100));
}

int cli_slowdown_wrap(const char *name, selfmon_bench_fn *fn, void **arg)
{
	const char *env = getenv("SELFMON_TEST_SLOWDOWN"), *eq;
	char *end;
	double pct;

	if (!env || !*env)
		return 0;
	eq = strrchr(env, '=');
	pct = eq ? strtod(eq + 1, &end) : -1;
	if (!eq || eq == env || end == eq + 1 || *end || !(pct >= 0 && pct <= 10000)) {
		fprintf(stderr,
			"selfmon: SELFMON_TEST_SLOWDOWN='%s': expected KERNEL=PERCENT, "
			"such as add_chain=50 (a test knob)\n",
			cli_text(env));
		return -EINVAL;
	}
	if (strlen(name) != (size_t)(eq - env) || strncmp(name, env, (size_t)(eq - env)))
		return 0;
	slow.fn = *fn;
	slow.arg = *arg;
	slow.pct = pct;
	*fn = slowed;
	*arg = NULL;
	return (int)(pct + 0.5) ? (int)(pct + 0.5) : 1;
}
