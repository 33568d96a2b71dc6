/* SPDX-License-Identifier: MIT */
/* marker_near.c's, marker_tiny.c's and marker_o0.c's functions, for marker_shared.c. */
#ifndef MARKER_NEAR_H
#define MARKER_NEAR_H

/* @n empty cached pairs of near sites; @arg unused (metered_cost()'s shape). */
void near_loop_cached(void *arg, int n);
/* @n empty by-name pairs of a string literal, near. */
void near_loop_named(void *arg, int n);
/* One call of region "near 3000", of 3000 known instructions, near sites. */
void near_region_3000(void);
/* @n empty cached pairs in code of the tiny code model (marker_tiny.c). */
void tiny_loop_cached(void *arg, int n);
/* @n calls of scope region "scope 3000 at -O0", of 3000 known instructions, built at -O0. */
void o0_scope_3000(int n);

#endif /* MARKER_NEAR_H */
