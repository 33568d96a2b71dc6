// SPDX-License-Identifier: MIT
/* Count a loop's instructions and cycles; read each counter once. */
#include <stdio.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

int main(void)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .pin = "current" };
	struct selfmon_set *set = selfmon_set__open("{instructions:u,cycles:u}", &opts);
	struct selfmon_count c;

	if (!set) {
		fprintf(stderr, "%s\n", selfmon_errmsg()); /* the cause and the fix */
		return 1;
	}
	selfmon_set__enable(set);
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	selfmon_set__disable(set);
	for (int i = 0; i < selfmon_set__nr(set); i++) {
		uint64_t scaled;
		enum selfmon_reason why;
		int user = selfmon_set__path(set, i, &why) == SELFMON_PATH_USER;

		if (selfmon_set__read(set, i, &c) || selfmon_count__scale(&c, &scaled))
			continue;
		printf("%s: %llu (%s)\n", selfmon_set__name(set, i), (unsigned long long)scaled,
		       user ? "read from user space" : selfmon_reason__str(why));
	}
	selfmon_set__close(set);
	return 0;
}
