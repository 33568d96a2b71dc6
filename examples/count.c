// SPDX-License-Identifier: MIT
/*
 * Count the instructions of one region of code, read inline (rdpmc / mrs).
 * Without a hardware PMU: ./count task-clock
 */
#include <stdio.h>
#include <selfmon/bench.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "instructions:u";
	struct selfmon_set *set = selfmon_set__open(event, NULL);
	struct selfmon_pages pages;
	struct selfmon_region r;

	if (!set || selfmon_set__pages(set, &pages, 0) || selfmon_set__enable(set)) {
		fprintf(stderr, "count: %s\n", selfmon_errmsg());  /* the cause and the fix */
		return 1;
	}
	selfmon_region__begin(&pages, &r);
	for (unsigned long i = 0; i < 1000000; i++)	/* the region */
		sink += i;
	selfmon_region__end(&pages, &r);
	printf("%s: %llu, read by %s\n", event, (unsigned long long)selfmon_region__delta(&r, 0),
	       r.slow ? "read(2)" : "the inline read");
	selfmon_set__close(set);
	return r.err ? 1 : 0;
}
