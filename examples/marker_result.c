// SPDX-License-Identifier: MIT
/*
 * A region's figures inside the program: selfmon_marker__result() gives
 * what the report at exit will say of a region (calls, each event's sum,
 * min and max per call, the empty pair subtracted), here or in a test;
 * selfmon_marker__walk() visits every region.
 */
#include <stdio.h>
#include <selfmon/marker_result.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sum;

/* Print one region's totals; 0: go on to the next region. */
static int print_region(const struct selfmon_marker_result *r, void *arg)
{
	(void)arg;
	printf("%s: %llu calls in %d thread(s)\n", r->region, (unsigned long long)r->calls,
	       r->threads);
	for (int i = 0; i < r->nr_events; i++)
		printf("  %-16s %12.1f per call (min %lld, max %lld)\n", r->event[i].name,
		       (double)r->event[i].sum / (double)r->calls, (long long)r->event[i].min,
		       (long long)r->event[i].max);
	return 0;
}

int main(void)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	int err;

	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("sum");
		for (unsigned long k = 0; k < 100000; k++)
			sum += k;
		SELFMON_MARKER_END("sum");
	}
	/* -1: the totals over every thread; N >= 1: the report's "sum/thread:N". */
	err = selfmon_marker__result("sum", -1, &r);
	if (err) {
		fprintf(stderr, "marker_result: %s\n", selfmon_errmsg());
		return 1;
	}
	printf("region %s: %s counted %lld per call\n", r.region, r.event[0].name,
	       (long long)(r.event[0].sum / (long long)r.calls));
	return selfmon_marker__walk(print_region, NULL) ? 1 : 0;
}
