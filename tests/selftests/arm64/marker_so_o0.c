// SPDX-License-Identifier: MIT
/*
 * The -O0 part of marker_so_pair.c's shared objects (scripts/mk/markers.mk
 * builds it -O0 and links it into both): a scope region as a user's debug
 * build of a shared object makes it. Its end calls the object's own hidden
 * copy of the arch's stub, which branches through the object's GOT to the
 * library it carries or needs.
 */
#include <selfmon/marker.h>

#ifdef __OPTIMIZE__
#error "marker_so_o0.c is built with -O0 (scripts/mk/markers.mk)"
#endif

void so_o0_scope_3000(int n);

/* so_o0_scope_3000() - @n calls of a scope region of exactly 3000 instructions, built -O0. */
void so_o0_scope_3000(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_SCOPE("so scope 3000 at -O0");
		__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	}
}
