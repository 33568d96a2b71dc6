// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the metric expression parser and evaluator
 * (selfmon_mexpr__parse, selfmon_mexpr__eval) on any bytes. An expression
 * that parses evaluates, counting and collecting, to 0 or a -errno with a
 * reason, never a crash, a hang or a leak; one that does not parse says why.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <generated/autoconf.h>
#include "../../core/metric_expr.h"

#ifdef CONFIG_PMU_EVENTS
/* Every name counts its length; names starting with 'z' are not counted. */
static int value(void *arg, const char *id, double *v, char *why, size_t why_size)
{
	(void)arg;
	if (id[0] == 'z') {
		strncpy(why, "not counted", why_size - 1);
		return -ENOENT;
	}
	*v = (double)strlen(id);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct selfmon_mexpr_env env = { .value = value, .literal = value, .has_event = value, .cpuid = value };
	struct selfmon_mexpr *e;
	char err[128], why[128];
	char *text = malloc(size + 1);
	double v;
	int rc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	rc = selfmon_mexpr__parse(text, &e, err, sizeof(err));
	if (rc) {
		if (e || !err[0] || (rc != -EINVAL && rc != -E2BIG && rc != -ENOMEM))
			abort();
		goto out;
	}
	for (int collect = 0; collect < 2; collect++) {
		rc = selfmon_mexpr__eval(e, &env, collect, &v, why, sizeof(why));
		if (rc && !why[0])
			abort();
	}
	selfmon_mexpr__free(e);
out:
	free(text);
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	return 0;
}
#endif
