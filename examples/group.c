/* Count a group: its members run on the PMU together, read from one instant. */
#include <stdio.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "{cycles:u,instructions:u}";
	struct selfmon_set *set = selfmon_set__open(events, NULL);
	struct selfmon_count c[16];
	enum selfmon_reason why;

	if (!set || selfmon_set__nr(set) > 16 || selfmon_set__enable(set)) {
		fprintf(stderr, "group: %s\n", selfmon_errmsg());
		return 1;
	}
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	if (selfmon_set__read_all(set, c)) {
		fprintf(stderr, "group: %s\n", selfmon_errmsg());
		return 1;
	}
	for (int i = 0; i < selfmon_set__nr(set); i++) {
		selfmon_set__path(set, i, &why);
		printf("%-24s %12llu  %s\n", selfmon_set__name(set, i), (unsigned long long)c[i].value,
		       c[i].flags & SELFMON_COUNT_USER ? "user-space read" : selfmon_reason__str(why));
	}
	selfmon_set__close(set);
	return 0;
}
