/* SPDX-License-Identifier: MIT */
/*
 * A strict JSON parser (RFC 8259) for the bench tests, in C because the
 * emulated board has no python3. It builds a tree the tests query:
 * objects by key, arrays by index. Header-only: each test includes it once.
 */
#ifndef SELFMON_TESTS_JSON_CHECK_H
#define SELFMON_TESTS_JSON_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype t;
	double num;		/* J_NUM, J_BOOL (0/1) */
	char *str;		/* J_STR */
	int n;			/* J_ARR, J_OBJ: members */
	struct jval *kids;
	char **keys;		/* J_OBJ */
};

struct jparser {
	const char *p;
	char err[128];
};

static void j_ws(struct jparser *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static int j_fail(struct jparser *j, const char *what)
{
	if (!j->err[0])
		snprintf(j->err, sizeof(j->err), "%s at '%.20s'", what, j->p);
	return -1;
}

static int j_string(struct jparser *j, char **out)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);

	if (!s || *j->p != '"')
		return free(s), j_fail(j, "expected a string");
	j->p++;
	while (*j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			return free(s), j_fail(j, "control character in a string");
		if (c == '\\') {
			c = *j->p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u':
				for (int k = 0; k < 4; k++)
					if (!strchr("0123456789abcdefABCDEF", j->p[k]) || !j->p[k])
						return free(s), j_fail(j, "bad \\u escape");
				c = '?';	/* the tests never compare escaped characters */
				j->p += 4;
				break;
			default:
				return free(s), j_fail(j, "bad escape");
			}
		}
		if (len + 2 > cap) {
			char *g = realloc(s, cap *= 2);

			if (!g)
				return free(s), -1;
			s = g;
		}
		s[len++] = c;
	}
	j->p++;
	s[len] = '\0';
	*out = s;
	return 0;
}

static int j_value(struct jparser *j, struct jval *v, int depth);

static int j_members(struct jparser *j, struct jval *v, int depth, char close)
{
	int cap = 0;

	j->p++;
	j_ws(j);
	if (*j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			v->kids = realloc(v->kids, (size_t)cap * sizeof(*v->kids));
			v->keys = realloc(v->keys, (size_t)cap * sizeof(*v->keys));
			if (!v->kids || !v->keys)
				return -1;
		}
		v->keys[v->n] = NULL;
		memset(&v->kids[v->n], 0, sizeof(v->kids[0]));
		j_ws(j);
		if (close == '}') {
			if (j_string(j, &v->keys[v->n]))
				return -1;
			j_ws(j);
			if (*j->p++ != ':')
				return j_fail(j, "expected ':'");
		}
		if (j_value(j, &v->kids[v->n++], depth + 1))
			return -1;
		j_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != close)
			return j_fail(j, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
		return 0;
	}
}

static int j_value(struct jparser *j, struct jval *v, int depth)
{
	memset(v, 0, sizeof(*v));
	if (depth > 64)
		return j_fail(j, "nested too deep");
	j_ws(j);
	switch (*j->p) {
	case '{':
		v->t = J_OBJ;
		return j_members(j, v, depth, '}');
	case '[':
		v->t = J_ARR;
		return j_members(j, v, depth, ']');
	case '"':
		v->t = J_STR;
		return j_string(j, &v->str);
	}
	if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4)) {
		v->t = *j->p == 't' ? J_BOOL : J_NULL;
		v->num = *j->p == 't';
		j->p += 4;
		return 0;
	}
	if (!strncmp(j->p, "false", 5)) {
		v->t = J_BOOL;
		j->p += 5;
		return 0;
	}
	{
		/* The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
		const char *q = j->p;
		char *end;

		if (*q == '-')
			q++;
		if (*q == '0')
			q++;
		else if (*q >= '1' && *q <= '9')
			while (*q >= '0' && *q <= '9')
				q++;
		else
			return j_fail(j, "expected a value");
		if (*q == '.') {
			if (!(*++q >= '0' && *q <= '9'))
				return j_fail(j, "digits after '.'");
			while (*q >= '0' && *q <= '9')
				q++;
		}
		if (*q == 'e' || *q == 'E') {
			q++;
			if (*q == '+' || *q == '-')
				q++;
			if (!(*q >= '0' && *q <= '9'))
				return j_fail(j, "digits in the exponent");
			while (*q >= '0' && *q <= '9')
				q++;
		}
		v->t = J_NUM;
		v->num = strtod(j->p, &end);
		if (end != q)
			return j_fail(j, "bad number");
		j->p = q;
		return 0;
	}
}

static void json_free(struct jval *v)
{
	for (int i = 0; i < v->n; i++) {
		json_free(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

/* Parse the whole of @text; 0, or -1 with the complaint in @err. */
static int json_parse(const char *text, struct jval *v, char *err, size_t errsz)
{
	struct jparser j = { .p = text };
	int rc = j_value(&j, v, 0);

	if (!rc) {
		j_ws(&j);
		if (*j.p)
			rc = j_fail(&j, "text after the value");
	}
	if (rc)
		snprintf(err, errsz, "%s", j.err[0] ? j.err : "out of memory");
	return rc;
}

static const struct jval *json_get(const struct jval *o, const char *key)
{
	for (int i = 0; o && o->t == J_OBJ && i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->kids[i];
	return NULL;
}

static const char *json_str(const struct jval *o, const char *key)
{
	const struct jval *v = json_get(o, key);

	return v && v->t == J_STR ? v->str : NULL;
}

/* The benchmarks[] entry named @name (e.g. "add_chain_median"), or NULL. */
static const struct jval *json_bench(const struct jval *root, const char *name)
{
	const struct jval *b = json_get(root, "benchmarks");

	for (int i = 0; b && b->t == J_ARR && i < b->n; i++) {
		const char *n = json_str(&b->kids[i], "name");

		if (n && !strcmp(n, name))
			return &b->kids[i];
	}
	return NULL;
}

/* Read all of a command's stdout; NULL on failure. Sets *status to its exit status. */
static char *run_capture(const char *cmd, int *status)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!buf || !f) {
		free(buf);
		if (f)
			pclose(f);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (len + 1 == cap) {
			char *g = realloc(buf, cap *= 2);

			if (!g)
				break;
			buf = g;
		}
	}
	buf[len] = '\0';
	*status = pclose(f);
	return buf;
}

/*
 * The selfmon CLI next to this test: $SELFMON_BIN, else the build tree
 * (O/tests/selftests[/arm64]/x -> O/selfmon) or the bundle (bundle/bin/x ->
 * bundle/selfmon).
 */
static const char *selfmon_cli(void)
{
	static char path[1024];
	static const char *const up[] = { "/../selfmon", "/../../selfmon", "/../../../selfmon" };
	char exe[900];
	ssize_t n;

	if (getenv("SELFMON_BIN"))
		return getenv("SELFMON_BIN");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", exe, up[i]);
		if (!access(path, X_OK))
			return path;
	}
	return NULL;
}

#endif
