// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "fmt.h"

/* Where the text goes: what fits is stored, all of it is counted. */
struct fmt_out {
	char *buf;
	size_t size;
	size_t len;
};

/* One directive, as parsed: "%-08.3llu" is left, zero, 8, 3, 'L', 'u'; '#' is alt. */
struct fmt_spec {
	int left, zero, alt, width, prec; /* prec -1: none given */
	char len;		     /* 'H' hh, 'h', 'l', 'L' ll, 'z', 'j', 't', 0 */
	char conv;
};

static void put(struct fmt_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_n(struct fmt_out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_s(struct fmt_out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

/* A width or precision: digits, or '*' for the next int argument. */
static int parse_count(const char **p, va_list *ap)
{
	int n = 0;

	if (**p == '*') {
		(*p)++;
		return va_arg(*ap, int);
	}
	while (**p >= '0' && **p <= '9')
		n = n * 10 + (*(*p)++ - '0');
	return n;
}

static const char *parse_spec(const char *p, struct fmt_spec *s, va_list *ap)
{
	memset(s, 0, sizeof(*s));
	s->prec = -1;
	for (;; p++) {
		if (*p == '-')
			s->left = 1;
		else if (*p == '0')
			s->zero = 1;
		else if (*p == '#')
			s->alt = 1;
		else
			break;
	}
	s->width = parse_count(&p, ap);
	if (s->width < 0) { /* a negative '*' width is the '-' flag (C11 7.21.6.1) */
		s->left = 1;
		s->width = s->width == INT_MIN ? INT_MAX : -s->width;
	}
	if (*p == '.') {
		p++;
		s->prec = parse_count(&p, ap);
		if (s->prec < 0) /* a negative '*' precision is none */
			s->prec = -1;
	}
	switch (*p) {
	case 'h':
	case 'l':
		s->len = *p;
		if (p[1] == *p)
			s->len = *p++ == 'h' ? 'H' : 'L';
		p++;
		break;
	case 'z':
	case 'j':
	case 't':
		s->len = *p++;
		break;
	}
	s->conv = *p;
	return *p ? p + 1 : p;
}

/*
 * The argument of an integer directive, by its length modifier: each type as
 * it was passed (C11 7.16.1.1), though where long is 64 bits several are alike.
 * NOLINTBEGIN(bugprone-branch-clone)
 */
static uintmax_t arg_unsigned(const struct fmt_spec *s, va_list *ap)
{
	switch (s->len) {
	case 'H': return (unsigned char)va_arg(*ap, unsigned int);
	case 'h': return (unsigned short)va_arg(*ap, unsigned int);
	case 'l': return va_arg(*ap, unsigned long);
	case 'L': return va_arg(*ap, unsigned long long);
	case 'z': return va_arg(*ap, size_t);
	case 'j': return va_arg(*ap, uintmax_t);
	case 't': return (uintmax_t)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static intmax_t arg_signed(const struct fmt_spec *s, va_list *ap)
{
	switch (s->len) {
	case 'H': return (signed char)va_arg(*ap, int);
	case 'h': return (short)va_arg(*ap, int);
	case 'l': return va_arg(*ap, long);
	case 'L': return va_arg(*ap, long long);
	case 'z': return va_arg(*ap, ssize_t);
	case 'j': return va_arg(*ap, intmax_t);
	case 't': return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}
/* NOLINTEND(bugprone-branch-clone) */

/*
 * An integer: @pre ("-", "0x" or ""), at least @prec digits, padded to the
 * width with spaces, or with zeros after @pre ('0' without '-' or a precision).
 */
static void put_int(struct fmt_out *o, const struct fmt_spec *s, uintmax_t v, const char *pre)
{
	const char *digits = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned int base = s->conv == 'x' || s->conv == 'X' || s->conv == 'p' ? 16 : 10;
	int n = 0, zeros, pad, npre = (int)strlen(pre);
	char tmp[3 * sizeof(v)];

	if (v || s->prec) /* "%.0d" of 0 prints no digit */
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	zeros = s->prec > n ? s->prec - n : 0;
	pad = s->width - n - zeros - npre;
	if (s->zero && !s->left && s->prec < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!s->left)
		put_n(o, ' ', pad);
	put_s(o, pre, (size_t)npre);
	put_n(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (s->left)
		put_n(o, ' ', pad);
}

/* Text, at most @prec bytes of it, padded to the width with spaces. */
static void put_text(struct fmt_out *o, const struct fmt_spec *s, const char *t, size_t n)
{
	int pad;

	if (s->prec >= 0 && n > (size_t)s->prec)
		n = (size_t)s->prec;
	pad = n < INT_MAX ? s->width - (int)n : 0;
	if (!s->left)
		put_n(o, ' ', pad);
	put_s(o, t, n);
	if (s->left)
		put_n(o, ' ', pad);
}

static void put_directive(struct fmt_out *o, const struct fmt_spec *s, const char *from,
			  const char *to, va_list *ap)
{
	const char *t;
	intmax_t v;
	uintmax_t u;
	char c;

	switch (s->conv) {
	case 'd':
	case 'i':
		v = arg_signed(s, ap);
		/* the magnitude in uintmax_t: INTMAX_MIN has no positive twin */
		put_int(o, s, v < 0 ? -(uintmax_t)v : (uintmax_t)v, v < 0 ? "-" : "");
		break;
	case 'u':
	case 'x':
	case 'X':
		u = arg_unsigned(s, ap);
		put_int(o, s, u, s->alt && u && s->conv != 'u' ? s->conv == 'x' ? "0x" : "0X" : "");
		break;
	case 'p': /* glibc and musl differ on NULL: "(nil)" or "0"; here "0x0" */
		put_int(o, s, (uintptr_t)va_arg(*ap, void *), "0x");
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_text(o, s, &c, 1);
		break;
	case 's':
		t = va_arg(*ap, const char *);
		t = t ? t : "(null)";
		put_text(o, s, t, s->prec >= 0 ? strnlen(t, (size_t)s->prec) : strlen(t));
		break;
	case '%':
		put(o, '%');
		break;
	default: /* not taken (fmt.h): copied as it stands */
		put_s(o, from, (size_t)(to - from));
		break;
	}
}

int selfmon_fmt__vprint(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { .buf = buf, .size = size };
	struct fmt_spec s;
	const char *p = fmt, *from;
	va_list aq;

	va_copy(aq, ap);
	while (*p) {
		if (*p != '%') {
			put(&o, *p++);
			continue;
		}
		from = p;
		p = parse_spec(p + 1, &s, &aq);
		put_directive(&o, &s, from, p, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > INT_MAX ? -1 : (int)o.len;
}

int selfmon_fmt__print(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = selfmon_fmt__vprint(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
