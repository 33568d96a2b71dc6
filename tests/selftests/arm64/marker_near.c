// SPDX-License-Identifier: MIT
/*
 * marker_shared's near sites: this file defines SELFMON_MARKER_NEAR before
 * <selfmon/marker.h>, so that each site loads its word with one PC-relative
 * ldr (marker_shared is a small dynamically linked program: its section
 * "selfmon_sites" lies well within the literal load's 1 MiB). With markers
 * off a pair costs 4 instructions; with markers on a site runs what every
 * other site runs, so that a region counts exactly.
 */
#define SELFMON_MARKER_NEAR
#include <selfmon/marker.h>

#include "marker_near.h"

__attribute__((noinline)) void near_loop_cached(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("near pair");
		SELFMON_MARKER_END("near pair");
	}
}

__attribute__((noinline)) void near_loop_named(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		selfmon_marker__begin("near named");
		selfmon_marker__end("near named");
	}
}

__attribute__((noinline)) void near_region_3000(void)
{
	SELFMON_MARKER_BEGIN("near 3000");
	__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	SELFMON_MARKER_END("near 3000");
}
