// SPDX-License-Identifier: MIT
/*
 * The strict JSON reader (json.h says what it accepts). Recursive
 * descent over a buffer of known length: every byte read is checked against
 * the end first, so the input needs no terminating NUL and may hold one
 * (which is then an error, not the end).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

/* Values in one document, at most: bounds the memory a hostile file can ask for. */
#define MAX_VALUES (4u << 20)

struct parser {
	const char *start, *p, *end;
	unsigned int values;
	char *err;
	size_t errsz;
	int rc;
};

static int fail(struct parser *ps, const char *fmt, ...)
{
	int line = 1, col = 1;
	va_list ap;
	size_t n;

	if (ps->rc)
		return ps->rc;
	for (const char *q = ps->start; q < ps->p && q < ps->end; q++, col++)
		if (*q == '\n')
			line++, col = 0;
	n = (size_t)snprintf(ps->err, ps->errsz, "line %d, column %d: ", line, col);
	va_start(ap, fmt);
	if (n < ps->errsz)
		vsnprintf(ps->err + n, ps->errsz - n, fmt, ap);
	va_end(ap);
	ps->rc = -EINVAL;
	return ps->rc;
}

/* What is at the cursor, for messages: a printable character quoted, else its code. */
static const char *here(const struct parser *ps, char *buf, size_t size)
{
	unsigned char c;

	if (ps->p >= ps->end)
		return "the end of the input";
	c = (unsigned char)*ps->p;
	if (c > 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", c);
	return buf;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool is_digit(const struct parser *ps, const char *q)
{
	return q < ps->end && *q >= '0' && *q <= '9';
}

static int parse_number(struct parser *ps, struct util_json *v)
{
	const char *q = ps->p, *s = ps->p;
	char *buf, *endp;

	if (q < ps->end && *q == '-')
		q++;
	if (!is_digit(ps, q))
		return fail(ps, "a number needs a digit here");
	if (*q == '0' && is_digit(ps, q + 1))
		return ps->p = q, fail(ps, "a number cannot start with 0 (leading zeros)");
	while (is_digit(ps, q))
		q++;
	if (q < ps->end && *q == '.') {
		if (!is_digit(ps, ++q))
			return ps->p = q, fail(ps, "a digit must follow the decimal point");
		while (is_digit(ps, q))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (!is_digit(ps, q))
			return ps->p = q, fail(ps, "an exponent needs a digit");
		while (is_digit(ps, q))
			q++;
	}
	/* strtod on a bounded, terminated copy: the input has no NUL of its own. */
	buf = malloc((size_t)(q - s) + 1);
	if (!buf)
		return ps->rc = -ENOMEM;
	memcpy(buf, s, (size_t)(q - s));
	buf[q - s] = '\0';
	v->type = UTIL_JSON_NUMBER;
	v->num = strtod(buf, &endp);
	free(buf);
	/* Beyond DBL_MAX strtod gives HUGE_VAL; the grammar above let no NaN through. */
	if (isinf(v->num))
		return fail(ps, "number out of range of a double");
	ps->p = q;
	return 0;
}

static int hex4(struct parser *ps, const char *q, unsigned int *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++, q++) {
		int d;

		if (q >= ps->end)
			return ps->p = q, fail(ps, "\\u needs 4 hex digits");
		d = *q >= '0' && *q <= '9' ? *q - '0' :
		    *q >= 'a' && *q <= 'f' ? *q - 'a' + 10 :
		    *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 :
					     -1;
		if (d < 0)
			return ps->p = q, fail(ps, "\\u needs 4 hex digits");
		*u = *u << 4 | (unsigned int)d;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned int u)
{
	if (u < 0x80)
		return o[0] = (char)u, 1;
	if (u < 0x800)
		return o[0] = (char)(0xc0 | u >> 6), o[1] = (char)(0x80 | (u & 0x3f)), 2;
	if (u < 0x10000)
		return o[0] = (char)(0xe0 | u >> 12), o[1] = (char)(0x80 | ((u >> 6) & 0x3f)),
		       o[2] = (char)(0x80 | (u & 0x3f)), 3;
	o[0] = (char)(0xf0 | u >> 18);
	o[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	o[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/* \uXXXX at ps->p (after the backslash and 'u'), with its low surrogate. */
static int escape_u(struct parser *ps, char *o, size_t *n)
{
	unsigned int u, lo;

	if (hex4(ps, ps->p, &u))
		return ps->rc;
	ps->p += 4;
	if (u >= 0xdc00 && u <= 0xdfff)
		return fail(ps, "a lone low surrogate \\u%04x", u);
	if (u >= 0xd800 && u <= 0xdbff) {
		if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return fail(ps, "high surrogate \\u%04x without its low surrogate", u);
		if (hex4(ps, ps->p + 2, &lo))
			return ps->rc;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "high surrogate \\u%04x followed by \\u%04x", u, lo);
		ps->p += 6;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (!u)
		return fail(ps, "\\u0000 (a NUL) in a string is not supported");
	*n += put_utf8(o + *n, u);
	return 0;
}

static int escape(struct parser *ps, char *o, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;

	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	if (*ps->p == 'u') {
		ps->p++;
		return escape_u(ps, o, n);
	}
	k = *ps->p ? strchr(from, *ps->p) : NULL;
	if (!k)
		return fail(ps, "invalid escape '\\%c'",
			    *ps->p > 0x20 && *ps->p < 0x7f ? *ps->p : '?');
	o[(*n)++] = to[k - from];
	ps->p++;
	return 0;
}

/* Bytes of the UTF-8 sequence at @q (RFC 3629: no overlongs, surrogates or > U+10FFFF), or 0. */
static int utf8_len(const struct parser *ps, const unsigned char *q)
{
	unsigned char c = q[0];
	int len = c < 0x80		 ? 1 :
		  c >= 0xc2 && c <= 0xdf ? 2 :
		  c >= 0xe0 && c <= 0xef ? 3 :
		  c >= 0xf0 && c <= 0xf4 ? 4 :
					   0;
	unsigned char lo = 0x80, hi = 0xbf;

	if (len < 2)
		return len;
	if ((const char *)q + len > ps->end)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (q[1] < lo || q[1] > hi)
		return 0;
	for (int i = 2; i < len; i++)
		if (q[i] < 0x80 || q[i] > 0xbf)
			return 0;
	return len;
}

/*
 * The bytes from the opening quote at @p to its closing quote (an escape's
 * backslash takes the byte after it along), or to @end where none closes.
 */
static size_t string_span(const char *p, const char *end)
{
	const char *q = p + 1;

	while (q < end && *q != '"')
		q += *q == '\\' && q + 1 < end ? 2 : 1;
	return (size_t)(q - p);
}

static int parse_string(struct parser *ps, char **out)
{
	/*
	 * Decoded text is never longer than its source: the string's own span
	 * bounds the buffer (the rest of the text would make each string of a
	 * large document as large as what follows it).
	 */
	char *o = malloc(string_span(ps->p, ps->end) + 1);
	size_t n = 0;

	if (!o)
		return ps->rc = -ENOMEM;
	ps->p++;
	for (;;) {
		unsigned char c;
		int len;

		if (ps->p >= ps->end) {
			free(o);
			return fail(ps, "unterminated string");
		}
		c = (unsigned char)*ps->p;
		if (c == '"')
			break;
		if (c == '\\') {
			ps->p++;
			if (escape(ps, o, &n))
				break;
			continue;
		}
		if (c < 0x20) {
			free(o);
			return fail(ps, "control character 0x%02x in a string (escape it)", c);
		}
		len = utf8_len(ps, (const unsigned char *)ps->p);
		if (!len) {
			free(o);
			return fail(ps, "invalid UTF-8 in a string");
		}
		memcpy(o + n, ps->p, (size_t)len);
		n += (size_t)len;
		ps->p += len;
	}
	if (ps->rc) {
		free(o);
		return ps->rc;
	}
	ps->p++;
	o[n] = '\0';
	*out = o;
	return 0;
}

static int parse_value(struct parser *ps, struct util_json *v, int depth);

/* Append a zeroed child to @v, growing its array by doubling. */
static struct util_json *add_kid(struct parser *ps, struct util_json *v, int *cap)
{
	if (v->nr == *cap) {
		int ncap = *cap ? *cap * 2 : 4;
		struct util_json *k = realloc(v->kid, (size_t)ncap * sizeof(*k));

		if (!k) {
			ps->rc = -ENOMEM;
			return NULL;
		}
		v->kid = k;
		*cap = ncap;
	}
	memset(&v->kid[v->nr], 0, sizeof(v->kid[0]));
	return &v->kid[v->nr++];
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp((*(const struct util_json *const *)a)->key,
		      (*(const struct util_json *const *)b)->key);
}

/* Duplicate names: sorted pointers, so a large object costs n log n, not n². */
static int check_duplicates(struct parser *ps, const struct util_json *o)
{
	const struct util_json **s;
	int rc = 0;

	if (o->nr < 2)
		return 0;
	s = malloc((size_t)o->nr * sizeof(const struct util_json *));
	if (!s)
		return ps->rc = -ENOMEM;
	for (int i = 0; i < o->nr; i++)
		s[i] = &o->kid[i];
	qsort(s, (size_t)o->nr, sizeof(const struct util_json *), cmp_key);
	for (int i = 1; i < o->nr && !rc; i++)
		if (!strcmp(s[i - 1]->key, s[i]->key))
			rc = fail(ps, "duplicate member name \"%.80s\" in an object", s[i]->key);
	free(s);
	return rc;
}

static int parse_members(struct parser *ps, struct util_json *v, int depth, bool object)
{
	char close = object ? '}' : ']', buf[16];
	int cap = 0;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct util_json *k = add_kid(ps, v, &cap);

		if (!k)
			return ps->rc;
		if (object) {
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name in quotes, found %s",
					    here(ps, buf, sizeof(buf)));
			if (parse_string(ps, &k->key))
				return ps->rc;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, "expected ':' after a member name, found %s",
					    here(ps, buf, sizeof(buf)));
			ps->p++;
		}
		if (parse_value(ps, k, depth + 1))
			return ps->rc;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close)
			break;
		return fail(ps, "expected ',' or '%c', found %s", close,
			    here(ps, buf, sizeof(buf)));
	}
	ps->p++;
	return object ? check_duplicates(ps, v) : 0;
}

static int literal(struct parser *ps, struct util_json *v, const char *word, enum util_json_type t)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(
			ps,
			"unexpected text (true, false, null, a number, a string, [ or { expected)");
	v->type = t;
	v->num = t == UTIL_JSON_TRUE;
	ps->p += n;
	return 0;
}

static int parse_value(struct parser *ps, struct util_json *v, int depth)
{
	char buf[16];

	if (depth > UTIL_JSON_MAX_DEPTH)
		return fail(ps, "nested deeper than %d", UTIL_JSON_MAX_DEPTH);
	if (++ps->values > MAX_VALUES)
		return fail(ps, "more than %u values", MAX_VALUES);
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "a value is missing (the input ends)");
	switch (*ps->p) {
	case '{':
		v->type = UTIL_JSON_OBJECT;
		return parse_members(ps, v, depth, true);
	case '[':
		v->type = UTIL_JSON_ARRAY;
		return parse_members(ps, v, depth, false);
	case '"':
		v->type = UTIL_JSON_STRING;
		return parse_string(ps, &v->str);
	case 't':
		return literal(ps, v, "true", UTIL_JSON_TRUE);
	case 'f':
		return literal(ps, v, "false", UTIL_JSON_FALSE);
	case 'n':
		return literal(ps, v, "null", UTIL_JSON_NULL);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps, v);
		return fail(ps, "unexpected %s where a value should be",
			    here(ps, buf, sizeof(buf)));
	}
}

static void free_kids(struct util_json *v)
{
	for (int i = 0; i < v->nr; i++)
		util_json_free(&v->kid[i]);
	free(v->kid);
}

void util_json_free(struct util_json *v)
{
	if (!v)
		return;
	free_kids(v);
	free(v->key);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

int util_json_parse(const char *text, size_t len, struct util_json *root, char *err, size_t errsz)
{
	struct parser ps = {
		.start = text, .p = text, .end = text + len, .err = err, .errsz = errsz
	};
	char buf[16];

	memset(root, 0, sizeof(*root));
	if (errsz)
		err[0] = '\0';
	if (!parse_value(&ps, root, 1)) {
		skip_ws(&ps);
		if (ps.p < ps.end)
			fail(&ps, "%s after the document's end", here(&ps, buf, sizeof(buf)));
	}
	if (ps.rc == -ENOMEM && errsz)
		snprintf(err, errsz, "out of memory");
	if (ps.rc)
		util_json_free(root);
	return ps.rc;
}

int util_json_load(const char *path, struct util_json *root, char *err, size_t errsz)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errsz, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)UTIL_JSON_MAX_FILE) {
		rc = S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
		if (rc == -EFBIG)
			snprintf(err, errsz, "larger than %u MiB", UTIL_JSON_MAX_FILE >> 20);
		else
			snprintf(err, errsz, "not a regular file");
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = -ENOMEM;
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			rc = n ? -errno : -EIO;
			snprintf(err, errsz, "%s",
				 n ? strerror(errno) : "the file shrank while it was read");
			goto out;
		}
		got += (size_t)n;
	}
	rc = util_json_parse(buf, got, root, err, errsz);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

const struct util_json *util_json_get(const struct util_json *o, const char *key)
{
	if (!o || o->type != UTIL_JSON_OBJECT)
		return NULL;
	for (int i = 0; i < o->nr; i++)
		if (!strcmp(o->kid[i].key, key))
			return &o->kid[i];
	return NULL;
}

const char *util_json_str(const struct util_json *o, const char *key)
{
	const struct util_json *v = util_json_get(o, key);

	return v && v->type == UTIL_JSON_STRING ? v->str : NULL;
}
