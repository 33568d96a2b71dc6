/* SPDX-License-Identifier: MIT */
/*
 * Untrusted text (event strings, file, PMU and benchmark names, messages
 * quoting them) made safe where it goes: a terminal, XML, JSON. For every
 * layer (util/ includes libc only); internal, as the rest of util/.
 */
#ifndef SELFMON_UTIL_TEXT_H
#define SELFMON_UTIL_TEXT_H

#include <stddef.h>
#include <stdio.h>

/**
 * util_text_escape() - @s made safe for a terminal, into @buf.
 * @buf: where the text goes, NUL-terminated
 * @size: its size, at least 16
 * @s: the text (NULL: "")
 *
 * Control characters (ESC, CR, ...) and DEL as \xNN, a backslash doubled,
 * so that no byte of @s moves the cursor or starts an escape sequence, and
 * the text reads back unambiguously. Text longer than @size allows is cut
 * with "...".
 *
 * Return: @buf.
 */
const char *util_text_escape(char *buf, size_t size, const char *s);

/**
 * util_xml_text() - write @s as XML 1.0 character data.
 * @f: the stream
 * @s: the text (NULL: "")
 *
 * Also right for the value of an attribute in double quotes: the five
 * markup characters as entities, tab, LF and CR as character references, a
 * character XML 1.0 cannot carry at all (a C0 control, U+FFFE, U+FFFF) as
 * the visible text \uXXXX, a byte that is not UTF-8 as U+FFFD. Well formed
 * for any bytes.
 */
void util_xml_text(FILE *f, const char *s);

/**
 * util_json_string() - write @s as a JSON string, with its quotes.
 * @f: the stream
 * @s: the text (NULL: "")
 *
 * RFC 8259: quote, backslash and controls escaped; U+FFFE, U+FFFF, U+2028,
 * U+2029 as \uXXXX; a byte that is not UTF-8 as \ufffd. Valid JSON for any
 * bytes.
 */
void util_json_string(FILE *f, const char *s);

/**
 * util_json_chars() - util_json_string() without the quotes.
 * @f: the stream
 * @s: the text (NULL: "")
 *
 * For a string written in parts (a name and its suffix).
 */
void util_json_chars(FILE *f, const char *s);

/**
 * util_json_number() - write @v as a JSON number.
 * @f: the stream
 * @v: the number
 *
 * Integral values exactly, others with 9 significant digits; null when not
 * finite (JSON has no NaN or infinity).
 */
void util_json_number(FILE *f, double v);

/**
 * util_csv_field() - write @s as a CSV field (RFC 4180).
 * @f: the stream
 * @s: the text (NULL: "")
 *
 * Quoted, its quotes doubled, when it holds a comma, a quote or a line
 * break; else as it is.
 */
void util_csv_field(FILE *f, const char *s);

#endif
