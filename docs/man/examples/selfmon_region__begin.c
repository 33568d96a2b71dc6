// SPDX-License-Identifier: MIT
/* A region read inline at both ends (rdpmc / mrs), read(2) where it must. */
#include <stdio.h>
#include <selfmon/bench.h>

static volatile unsigned long sink;

int main(void)
{
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	struct selfmon_pages pages;
	struct selfmon_region r;

	if (!set || selfmon_set__pages(set, &pages, 0) || selfmon_set__enable(set)) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	selfmon_region__begin(&pages, &r);
	for (unsigned long i = 0; i < 1000; i++)
		sink += i;
	selfmon_region__end(&pages, &r);
	printf("%llu instructions%s\n", (unsigned long long)selfmon_region__delta(&r, 0),
	       r.slow & SELFMON_REGION_SLOW_END ? " (read(2) at the end)" : "");
	if (r.err) { /* a fallback read failed: read again, page or read(2) */
		uint64_t now[SELFMON_PAGES_MAX];

		if (selfmon_pages__read_slow(&pages, now) == 0)
			printf("now %llu\n", (unsigned long long)now[0]);
	}
	selfmon_set__close(set);
	return r.err ? 1 : 0;
}
