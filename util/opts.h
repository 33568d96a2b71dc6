/* SPDX-License-Identifier: MIT */
/*
 * Sized option structs, as libbpf's *_opts (libbpf_internal.h): the caller
 * sets .sz = sizeof(the struct it was compiled with), so that a program
 * built against older headers keeps working with a newer library, and one
 * built against newer headers is told when it asks for what this library
 * does not know. For every layer (util/ includes libc only).
 */
#ifndef SELFMON_UTIL_OPTS_H
#define SELFMON_UTIL_OPTS_H

#include <stdbool.h>
#include <stddef.h>

/* Does @opts (may be NULL), of the caller's size, reach @field? */
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))
/* @opts->field where the caller's struct has it, else @dflt. */
#define OPTS_GET(opts, field, dflt) (OPTS_HAS(opts, field) ? (opts)->field : (dflt))
/*
 * Is @opts (may be NULL: no options) one this library can honour? Its .sz
 * holds at least .sz itself, and whatever a newer caller's struct has
 * beyond this build's is zero (a field left unset asks for nothing).
 */
#define OPTS_VALID(opts) \
	(!(opts) || util_opts_valid((opts), (opts)->sz, sizeof((opts)->sz), sizeof(*(opts))))

/**
 * util_opts_valid() - the test of OPTS_VALID().
 * @opts: the caller's struct
 * @user_sz: its .sz, the caller's sizeof
 * @min_sz: the least .sz that makes sense (.sz's own size)
 * @known_sz: this build's sizeof of the struct
 *
 * Out of line: inlined where @opts is a caller's struct of @known_sz bytes,
 * gcc's -Warray-bounds sees the loop past it (which runs only when the
 * caller's struct is larger) and warns.
 *
 * Return: true when @user_sz >= @min_sz and bytes @known_sz to @user_sz of
 * @opts are zero.
 */
bool util_opts_valid(const void *opts, size_t user_sz, size_t min_sz, size_t known_sz);

#endif
