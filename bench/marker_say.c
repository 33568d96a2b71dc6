// SPDX-License-Identifier: MIT
/*
 * What markers say: one message on stderr, "selfmon: markers: ...", with
 * the untrusted text it quotes (region names, the environment, the
 * library's messages) escaped. Every marker file says through these.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/marker.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

void mk_say(const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* One write, so that threads' messages do not interleave. */
	fprintf(stderr, "selfmon: markers: %s\n", msg);
}

/* @s with control bytes (and, for a quoted text, quotes and backslashes) as \xNN. */
static const char *escape(char *buf, size_t size, const char *s, bool quoted)
{
	size_t o = 0;

	for (; s && *s && o + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || (quoted && (c >= 0x80 || c == '\'' || c == '\\')))
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (s && *s && o + 4 <= size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

const char *mk_quote(char *buf, size_t size, const char *s)
{
	return escape(buf, size, s, true);
}

const char *mk_errmsg(char *buf, size_t size)
{
	return escape(buf, size, selfmon_errmsg(), false);
}

void mk_say_layout(int layout)
{
	static int said;

	if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		return;
	mk_say("code built against layout %d of <selfmon/marker.h>, this library has layout %d: "
	       "its pairs take the library's path (the same counts, a higher cost); "
	       "rebuild it against this library's headers (docs/abi.md)",
	       layout, SELFMON_ABI_LAYOUT);
}
