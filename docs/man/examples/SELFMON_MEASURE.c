// SPDX-License-Identifier: MIT
/* Measure one statement and hold it to a budget, outside any test framework. */
#include <stdio.h>
#include <string.h>
#include <selfmon/budget.h>

static volatile size_t len;

int main(void)
{
	static const char line[] = "key = value";
	struct selfmon_measure m;
	char msg[640];
	int v;

	SELFMON_MEASURE(m, "instructions:u", len = strlen(line));
	v = selfmon_measure__check_le(&m, 200, msg, sizeof(msg));
	printf("%s: %s\n",
	       v == SELFMON_VERDICT_PASS ? "pass" :
	       v == SELFMON_VERDICT_SKIP ? "skip" :
					   "fail",
	       msg);
	if (selfmon_measure__check_within(&m, 40, 50, msg, sizeof(msg)) == SELFMON_VERDICT_FAIL)
		printf("not 40 +- 50%%: %s\n", msg);
	selfmon_budget__close_all();
	return v == SELFMON_VERDICT_FAIL;
}
