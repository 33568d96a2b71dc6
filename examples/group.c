// SPDX-License-Identifier: MIT
/*
 * Count a group: its members run on the PMU together, read from one instant.
 * Without a hardware PMU: ./group '{task-clock,page-faults}'
 */
#include <stdio.h>
#include <stdlib.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "{cycles:u,instructions:u}";
	struct selfmon_set *set = selfmon_set__open(events, NULL);
	struct selfmon_count *c = set ? calloc(selfmon_set__nr(set), sizeof(*c)) : NULL;

	if (!c || selfmon_set__enable(set)) {
		fprintf(stderr, "group: %s\n", selfmon_errmsg());
		return 1;
	}
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	if (selfmon_set__read_all(set, c)) {	/* the group from one instant */
		fprintf(stderr, "group: %s\n", selfmon_errmsg());
		return 1;
	}
	for (int i = 0; i < selfmon_set__nr(set); i++)
		printf("%-24s %12llu  %s\n", selfmon_set__name(set, i), (unsigned long long)c[i].value,
		       c[i].flags & SELFMON_COUNT_USER ? "user-space read" : selfmon_reason__str(c[i].reason));
	free(c);
	selfmon_set__close(set);
	return 0;
}
