// SPDX-License-Identifier: MIT
/*
 * A harness of your own that fails as selfmon does: -errno, and the cause
 * and the fix in selfmon_errmsg().
 */
#include <errno.h>
#include <stdio.h>
#include <selfmon/selfmon.h>

static int check_reps(int reps)
{
	if (reps < 1 || reps > 1000)
		return selfmon_errmsg__set(-EINVAL, "repetitions %d: give 1 to 1000", reps);
	return 0;
}

int main(void)
{
	if (check_reps(0) < 0)
		fprintf(stderr, "%s\n", selfmon_errmsg());
	return 0;
}
