// SPDX-License-Identifier: MIT
/* A region's figures inside the program, and a walk over every region. */
#include <stdio.h>
#include <selfmon/marker_result.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sum;

static int print_region(const struct selfmon_marker_result *r, void *arg)
{
	(void)arg;
	printf("%s: %llu calls, %s %lld per call\n", r->region, (unsigned long long)r->calls,
	       r->event[0].name, (long long)(r->event[0].sum / (long long)r->calls));
	return 0; /* non-zero stops the walk */
}

int main(void)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };

	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("sum");
		for (unsigned long k = 0; k < 1000; k++)
			sum += k;
		SELFMON_MARKER_END("sum");
	}
	if (selfmon_marker__result("sum", -1, &r)) { /* -1: over every thread */
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	printf("min %lld, max %lld per call\n", (long long)r.event[0].min,
	       (long long)r.event[0].max);
	return selfmon_marker__walk(print_region, NULL);
}
