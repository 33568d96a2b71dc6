/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_FMT_H
#define SELFMON_CORE_FMT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * snprintf(3) and vsnprintf(3) for the library's own messages and paths:
 * the same contract (the length the whole text needs, @buf always ended
 * within @size, NULL allowed with a @size of 0) for the conversions they use:
 * flags '-', '0' and '#' (of x and X), a width and a precision (digits or
 * '*'), the lengths hh, h, l, ll, z, j and t, and d, i, u, x, X, c, s, p and %.
 * %p prints "0x" and the address in hex, NULL as "0x0".
 *
 * Why not libc's: in a static program one call of the printf family links
 * the C library's whole formatter, and musl's comes with its floating-point
 * conversions and the compiler's soft long double routines, about 21 KB of
 * the smallest image (docs/building.md, "Size"), for messages that print
 * only whole numbers and text. scripts/lint.sh refuses a directive in core/
 * or arch/ that these functions do not take; one would be copied out as it
 * stands, its argument left unread.
 */
int selfmon_fmt__vprint(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int selfmon_fmt__print(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
