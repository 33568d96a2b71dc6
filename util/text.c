// SPDX-License-Identifier: MIT
/*
 * Untrusted text on a terminal, and in the XML and JSON that the library
 * and the CLI write (benchmark and metric names, file names from the command
 * line, messages quoting them): the output stays well formed whatever the
 * bytes. A report's names are valid UTF-8 (util/json.c checks), but may hold characters XML 1.0 cannot carry
 * (its "Char" production, section 2.2: tab, LF, CR, U+0020 to U+D7FF,
 * U+E000 to U+FFFD, U+10000 to U+10FFFF; not even as character references,
 * section 4.1 "Well-formedness constraint: Legal Character"); a file name
 * or a message cut to a length need not be UTF-8 at all.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

const char *util_text_escape(char *buf, size_t size, const char *s)
{
	size_t len = 0;

	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		/* Room for the longest escape, "...", and the NUL. */
		if (len + 8 >= size) {
			memcpy(buf + len, "...", 4);
			return buf;
		}
		if (*p < 0x20 || *p == 0x7f)
			len += (size_t)snprintf(buf + len, size - len, "\\x%02x", *p);
		else if (*p == '\\')
			len += (size_t)snprintf(buf + len, size - len, "\\\\");
		else
			buf[len++] = (char)*p;
	}
	buf[len] = '\0';
	return buf;
}

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8. */
#define REPLACEMENT "\xef\xbf\xbd"

/*
 * The character at @s (not at its NUL): its code point in *@cp and its
 * length in bytes, as RFC 3629 section 4 allows it (no overlong form, no
 * surrogate, nothing above U+10FFFF); a byte that starts no such sequence:
 * *@cp = -1, length 1.
 */
static int utf8_next(const unsigned char *s, long *cp)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	int len = c < 0x80		 ? 1 :
		  c >= 0xc2 && c <= 0xdf ? 2 :
		  c >= 0xe0 && c <= 0xef ? 3 :
		  c >= 0xf0 && c <= 0xf4 ? 4 :
					   0;
	long u;

	*cp = c;
	if (len == 1)
		return 1;
	*cp = -1;
	if (!len)
		return 1;
	lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : lo;
	hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : hi;
	/* A NUL ends the string: it is no continuation byte, so the checks stop there. */
	if (s[1] < lo || s[1] > hi)
		return 1;
	u = c & (0x7f >> len);
	for (int i = 1; i < len; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 1;
		u = u << 6 | (s[i] & 0x3f);
	}
	*cp = u;
	return len;
}

/* Whether XML 1.0 allows code point @u (its Char production; surrogates never reach here). */
static bool xml_char(long u)
{
	return u == 0x9 || u == 0xa || u == 0xd || (u >= 0x20 && u != 0xfffe && u != 0xffff);
}

/*
 * @s to @f a character at a time: @esc writes code point @u (-1: no valid
 * UTF-8 there) escaped and returns true, or returns false to have the
 * character's own bytes written.
 */
static void write_escaped(FILE *f, const char *s, bool (*esc)(FILE *f, long u))
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		long u;
		int len = utf8_next(p, &u);

		if (!esc(f, u))
			fwrite(p, 1, (size_t)len, f);
		p += len;
	}
}

static bool xml_escape(FILE *f, long u)
{
	if (u < 0)
		fputs(REPLACEMENT, f);
	else if (!xml_char(u))
		/* Not even &#x..; can carry it: a visible escape instead. */
		fprintf(f, "\\u%04lx", u);
	else if (u == '&' || u == '<' || u == '>' || u == '"' || u == '\'')
		fputs(u == '&' ? "&amp;" :
		      u == '<' ? "&lt;" :
		      u == '>' ? "&gt;" :
		      u == '"' ? "&quot;" :
				 "&apos;",
		      f);
	else if (u == '\t' || u == '\n' || u == '\r')
		/* References: an attribute's value normalizes raw ones to spaces (section 3.3.3). */
		fprintf(f, "&#%ld;", u);
	else
		return false;
	return true;
}

static bool json_escape(FILE *f, long u)
{
	if (u < 0)
		fputs("\\ufffd", f);
	else if (u == '"' || u == '\\')
		fprintf(f, "\\%c", (int)u);
	else if (u == '\n' || u == '\r' || u == '\t')
		fputs(u == '\n' ? "\\n" : u == '\r' ? "\\r" : "\\t", f);
	/*
	 * RFC 8259 section 7 requires controls escaped; the others are
	 * escaped so that the bytes hold no noncharacter (U+FFFE, U+FFFF)
	 * and no JavaScript line break (U+2028, U+2029).
	 */
	else if (u < 0x20 || u == 0x7f || u == 0xfffe || u == 0xffff || u == 0x2028 ||
		 u == 0x2029)
		fprintf(f, "\\u%04lx", u);
	else
		return false;
	return true;
}

void util_xml_text(FILE *f, const char *s)
{
	write_escaped(f, s, xml_escape);
}

void util_json_chars(FILE *f, const char *s)
{
	write_escaped(f, s, json_escape);
}

void util_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	util_json_chars(f, s);
	fputc('"', f);
}

void util_json_number(FILE *f, double v)
{
	if (v != v || v > 1.7e308 || v < -1.7e308)
		fputs("null", f);
	/* Range first: casting a double beyond long long is undefined (found by fuzz_writers). */
	else if (v < 9e15 && v > -9e15 && v == (double)(long long)v)
		fprintf(f, "%lld", (long long)v);
	else
		fprintf(f, "%.9g", v);
}

void util_csv_field(FILE *f, const char *s)
{
	s = s ? s : "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
