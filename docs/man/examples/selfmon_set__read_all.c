// SPDX-License-Identifier: MIT
/* Every way to read a set, and what each counter says about its read path. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <selfmon/selfmon.h>

int main(int argc, char **argv)
{
	const char *list = argc > 1 ? argv[1] : "{instructions:u,cycles:u},task-clock";
	struct selfmon_count counts[16], c;
	const char *cursor = list;
	char item[SELFMON_EVENT_NAME_MAX];
	struct selfmon_set *set;
	enum selfmon_reason why;
	int nr, err;

	while ((err = selfmon_events__next(&cursor, item, sizeof(item))) > 0)
		printf("item: %s\n", item);
	if (err < 0 || !(set = selfmon_set__open(list, NULL))) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	nr = selfmon_set__nr(set);
	if (nr > 16 || selfmon_set__enable(set) || selfmon_set__read_all(set, counts) ||
	    selfmon_set__read_raw_all(set, counts)) {
		fprintf(stderr, "%s\n", selfmon_strerror(-EINVAL));
		selfmon_set__close(set);
		return 1;
	}
	for (int i = 0; i < nr; i++) {
		int leader = selfmon_set__group(set, i);

		if (selfmon_set__path(set, i, &why) != SELFMON_PATH_USER)
			printf("%s: read(2): %s; %s\n", selfmon_set__name(set, i),
			       selfmon_reason__str(why), selfmon_reason__fix(why));
		printf("%s on %s: group %d, %d-bit, page %s, type %u, %lld fallback(s), note: %s\n",
		       selfmon_set__name(set, i), selfmon_set__pmu(set), leader,
		       selfmon_set__pmc_width(set, i),
		       selfmon_set__page(set, i) ? "mapped" : "none",
		       selfmon_set__attr(set, i)->type, (long long)selfmon_set__fallbacks(set, i),
		       selfmon_set__note(set, i) ? selfmon_set__note(set, i) : "none");
		if (selfmon_set__counts_instructions(set, i) == 1)
			printf("  counts instructions retired: take the least of repeated runs\n");
		if (leader == i && selfmon_set__read_group(set, i, counts) == 0)
			printf("  group read at once: %llu\n", (unsigned long long)counts[0].value);
		if (!selfmon_set__read_raw(set, i, &c) &&
		    !selfmon_set__read_syscall(set, i, &counts[0]))
			printf("  raw %llu, read(2) %llu\n", (unsigned long long)c.value,
			       (unsigned long long)counts[0].value);
	}
	selfmon_set__reset(set);
	selfmon_set__close(set);
	return 0;
}
