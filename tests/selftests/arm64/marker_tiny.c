// SPDX-License-Identifier: MIT
/*
 * marker_shared's sites of the tiny code model: this file is compiled with
 * -mcmodel=tiny (scripts/mk/markers.mk) and defines nothing, so that
 * <selfmon/marker.h> takes the near load by itself: the model promises the
 * program's code and static data within 1 MiB of each other, the literal
 * load's reach. With markers off a pair costs 4 instructions.
 */
#include <selfmon/marker.h>

#include "marker_near.h"

#ifndef __AARCH64_CMODEL_TINY__
#error "marker_tiny.c is built with -mcmodel=tiny (scripts/mk/markers.mk)"
#endif

__attribute__((noinline)) void tiny_loop_cached(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("tiny pair");
		SELFMON_MARKER_END("tiny pair");
	}
}
