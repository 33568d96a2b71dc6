// SPDX-License-Identifier: MIT
/*
 * marker_shared's scope region built at -O0 (scripts/mk/markers.mk), as a
 * user's debug build makes it: its end is the compiler's call of the
 * arch's stub, whose path the library takes off as it measured it in its
 * own copy (<selfmon/priv/marker.h>).
 */
#include <selfmon/marker.h>

#include "marker_near.h"

#ifdef __OPTIMIZE__
#error "marker_o0.c is built with -O0 (scripts/mk/markers.mk)"
#endif

void o0_scope_3000(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_SCOPE("scope 3000 at -O0");
		__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	}
}
