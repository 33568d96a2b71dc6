// SPDX-License-Identifier: MIT
/* Run with SELFMON_EVENTS=task-clock (or instructions:u) set: a region's report at exit. */
#include <selfmon/marker.h>

static volatile unsigned long sink;

static void solve(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		sink += i;
}

int main(void)
{
	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("solve");
		solve();
		SELFMON_MARKER_END("solve");
	}
	return selfmon_marker__report() < 0; /* now, and not only at exit */
}
