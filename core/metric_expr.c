// SPDX-License-Identifier: MIT
/* The metric expression language of the kernel's pmu-events (metric_expr.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric_expr.h"
#include "fmt.h"

enum opcode {
	OP_NUM,
	OP_ID,
	OP_LIT,
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_LT,
	OP_GT,
	OP_LE,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_AND,
	OP_OR,
	OP_XOR,
	OP_IF,
	OP_MIN,
	OP_MAX,
	OP_DRATIO,
	OP_HAS,
	OP_SRC,
	OP_CPUID,
};

struct node {
	enum opcode op;
	int a, b, c; /* operands; for OP_IF: a if b else c */
	double num;
	char *id; /* OP_ID, OP_LIT, and the functions of an identifier */
};

struct selfmon_mexpr {
	struct node *n;
	int nr, cap, root;
};

struct parser {
	const char *s, *p;
	struct selfmon_mexpr *e;
	int depth;
	char *err;
	size_t err_size;
};

static int perr(struct parser *ps, int code, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (ps->err && ps->err_size) {
		len = selfmon_fmt__print(ps->err, ps->err_size, "at %d of '%.60s': ", (int)(ps->p - ps->s),
			       ps->s);
		va_start(ap, fmt);
		if (len >= 0 && (size_t)len < ps->err_size)
			selfmon_fmt__vprint(ps->err + len, ps->err_size - (size_t)len, fmt, ap);
		va_end(ap);
	}
	return code;
}

static int add(struct parser *ps, enum opcode op, int a, int b, int c)
{
	struct selfmon_mexpr *e = ps->e;

	if (e->nr == e->cap) {
		int cap = e->cap ? e->cap * 2 : 16;
		struct node *n = realloc(e->n, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		e->n = n;
		e->cap = cap;
	}
	e->n[e->nr] = (struct node){ .op = op, .a = a, .b = b, .c = c };
	return e->nr++;
}

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static bool symch(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' || c == '@' ||
	       c == '?';
}

/* A run of symbol characters, escapes removed, into @buf. Return: its length. */
static size_t symbol(struct parser *ps, char *buf, size_t size)
{
	size_t n = 0;

	for (;;) {
		const char *q = ps->p;

		if (*q == '\\' && (q[1] == '-' || q[1] == ',' || q[1] == '='))
			q++;
		else if (*q == '-' && n && n < size && isdigit((unsigned char)buf[0]) &&
			 (buf[n - 1] == 'e' || buf[n - 1] == 'E') && isdigit((unsigned char)q[1]))
			; /* a number's exponent, "1e-6": perf's lexer reads it whole */
		else if (!symch(*q))
			break;
		if (n + 1 < size)
			buf[n] = *q;
		n++;
		ps->p = q + 1;
	}
	buf[n < size ? n : size - 1] = '\0';
	return n;
}

static int parse_if(struct parser *ps);

static int leaf(struct parser *ps, enum opcode op, const char *text)
{
	int i = add(ps, op, -1, -1, -1);

	if (i < 0)
		return i;
	ps->e->n[i].id = strdup(text);
	return ps->e->n[i].id ? i : -ENOMEM;
}

static const struct {
	const char *name;
	enum opcode op;
	int args; /* -1: one identifier */
} funcs[] = {
	{ "min", OP_MIN, 2 },		{ "max", OP_MAX, 2 },
	{ "d_ratio", OP_DRATIO, 2 },	{ "has_event", OP_HAS, -1 },
	{ "source_count", OP_SRC, -1 }, { "strcmp_cpuid_str", OP_CPUID, -1 },
};

static int expect(struct parser *ps, char c)
{
	skip(ps);
	if (*ps->p != c)
		return perr(ps, -EINVAL, "'%c' expected", c);
	ps->p++;
	return 0;
}

static int parse_call(struct parser *ps, int f)
{
	char id[256];
	int a, b, err;

	err = expect(ps, '(');
	if (err)
		return err;
	skip(ps);
	if (funcs[f].args < 0) {
		if (!symbol(ps, id, sizeof(id)))
			return perr(ps, -EINVAL, "%s() takes a name", funcs[f].name);
		a = leaf(ps, funcs[f].op, id);
		err = a < 0 ? a : expect(ps, ')');
		return err ? err : a;
	}
	a = parse_if(ps);
	err = a < 0 ? a : expect(ps, ',');
	if (err)
		return err;
	b = parse_if(ps);
	err = b < 0 ? b : expect(ps, ')');
	return err ? err : add(ps, funcs[f].op, a, b, -1);
}

static int parse_primary(struct parser *ps)
{
	char id[256], *end;
	size_t len;
	int i;

	skip(ps);
	if (*ps->p == '(') {
		ps->p++;
		i = parse_if(ps);
		return i < 0 ? i : expect(ps, ')') < 0 ? -EINVAL : i;
	}
	if (*ps->p == '#') {
		ps->p++;
		if (!symbol(ps, id, sizeof(id)))
			return perr(ps, -EINVAL, "a literal's name expected after '#'");
		return leaf(ps, OP_LIT, id);
	}
	len = symbol(ps, id, sizeof(id));
	if (!len && !*ps->p)
		return perr(ps, -EINVAL, "unexpected end: a number, name or '(' expected");
	if (!len)
		return perr(ps, -EINVAL, "unexpected '%c'", *ps->p);
	if (len >= sizeof(id))
		return perr(ps, -E2BIG, "name longer than %d characters", (int)sizeof(id) - 1);
	if (isdigit((unsigned char)id[0]) || id[0] == '.') {
		double v = strtod(id, &end);

		if (*end || strchr(id, 'x') || strchr(id, 'X'))
			return leaf(ps, OP_ID,
				    id); /* "0x410fd493": a name, as perf's lexer has it */
		i = add(ps, OP_NUM, -1, -1, -1);
		if (i >= 0)
			ps->e->n[i].num = v;
		return i;
	}
	skip(ps);
	for (size_t f = 0; *ps->p == '(' && f < sizeof(funcs) / sizeof(funcs[0]); f++)
		if (!strcmp(id, funcs[f].name))
			return parse_call(ps, (int)f);
	if (*ps->p == '(')
		return perr(ps, -EINVAL, "unknown function '%s'", id);
	return leaf(ps, OP_ID, id);
}

static int parse_unary(struct parser *ps)
{
	int a;

	skip(ps);
	if (*ps->p != '-')
		return parse_primary(ps);
	ps->p++;
	if (++ps->depth > SELFMON_MEXPR_MAX_DEPTH)
		return perr(ps, -E2BIG, "nested deeper than %d", SELFMON_MEXPR_MAX_DEPTH);
	a = parse_unary(ps);
	ps->depth--;
	return a < 0 ? a : add(ps, OP_NEG, a, -1, -1);
}

/* Binary levels, loosest first: | ^ & comparisons + - and * / %, as perf's grammar. */
static const struct {
	const char *tok;
	enum opcode op;
	int level;
} binops[] = {
	{ "|", OP_OR, 0 },  { "^", OP_XOR, 1 }, { "&", OP_AND, 2 }, { "<=", OP_LE, 3 },
	{ ">=", OP_GE, 3 }, { "==", OP_EQ, 3 }, { "!=", OP_NE, 3 }, { "<", OP_LT, 3 },
	{ ">", OP_GT, 3 },  { "+", OP_ADD, 4 }, { "-", OP_SUB, 4 }, { "*", OP_MUL, 5 },
	{ "/", OP_DIV, 5 }, { "%", OP_MOD, 5 },
};
#define NR_LEVELS 6

static int parse_level(struct parser *ps, int level)
{
	int a, b;
	size_t k;

	if (level == NR_LEVELS)
		return parse_unary(ps);
	a = parse_level(ps, level + 1);
	while (a >= 0) {
		skip(ps);
		for (k = 0; k < sizeof(binops) / sizeof(binops[0]); k++)
			if (binops[k].level == level &&
			    !strncmp(ps->p, binops[k].tok, strlen(binops[k].tok)))
				break;
		if (k == sizeof(binops) / sizeof(binops[0]))
			break;
		ps->p += strlen(binops[k].tok);
		b = parse_level(ps, level + 1);
		a = b < 0 ? b : add(ps, binops[k].op, a, b, -1);
	}
	return a;
}

static bool keyword(struct parser *ps, const char *kw)
{
	size_t n = strlen(kw);

	skip(ps);
	if (strncmp(ps->p, kw, n) || symch(ps->p[n]))
		return false;
	ps->p += n;
	return true;
}

/* "A if COND else B", B itself possibly another if. */
static int parse_if(struct parser *ps)
{
	int a, cond, b;

	if (++ps->depth > SELFMON_MEXPR_MAX_DEPTH)
		return perr(ps, -E2BIG, "nested deeper than %d", SELFMON_MEXPR_MAX_DEPTH);
	a = parse_level(ps, 0);
	if (a >= 0 && keyword(ps, "if")) {
		cond = parse_level(ps, 0);
		if (cond < 0)
			a = cond;
		else if (!keyword(ps, "else"))
			a = perr(ps, -EINVAL, "'else' expected");
		else
			a = (b = parse_if(ps)) < 0 ? b : add(ps, OP_IF, a, cond, b);
	}
	ps->depth--;
	return a;
}

void selfmon_mexpr__free(struct selfmon_mexpr *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->nr; i++)
		free(e->n[i].id);
	free(e->n);
	free(e);
}

int selfmon_mexpr__parse(const char *text, struct selfmon_mexpr **out, char *err, size_t err_size)
{
	struct parser ps = { .s = text, .p = text, .err = err, .err_size = err_size };
	int root;

	*out = NULL;
	if (err_size)
		err[0] = '\0';
	if (strlen(text) > SELFMON_MEXPR_MAX_LEN)
		return perr(&ps, -E2BIG, "longer than %d characters", SELFMON_MEXPR_MAX_LEN);
	ps.e = calloc(1, sizeof(*ps.e));
	if (!ps.e)
		return -ENOMEM;
	root = parse_if(&ps);
	skip(&ps);
	if (root >= 0 && *ps.p)
		root = perr(&ps, -EINVAL, "unexpected '%c'", *ps.p);
	if (root < 0) {
		selfmon_mexpr__free(ps.e);
		return root;
	}
	ps.e->root = root;
	*out = ps.e;
	return 0;
}

struct evalstate {
	const struct selfmon_mexpr *e;
	const struct selfmon_mexpr_env *env;
	bool collect;
	bool read_event; /* the subtree just evaluated read an event */
	char *why;
	size_t why_size;
};

static int eval(struct evalstate *st, int i, double *v);

static int why(struct evalstate *st, int err, const char *fmt, const char *arg)
{
	if (st->why_size)
		selfmon_fmt__print(st->why, st->why_size, fmt, arg);
	return err;
}

static int eval_leaf(struct evalstate *st, const struct node *n, double *v)
{
	const struct selfmon_mexpr_env *env = st->env;
	int (*fn)(void *, const char *, double *, char *, size_t) =
		n->op == OP_ID || n->op == OP_SRC ? env->value :
		n->op == OP_LIT			  ? env->literal :
		n->op == OP_HAS			  ? env->has_event :
						    env->cpuid;
	int err;

	if (!fn)
		return why(st, -EOPNOTSUPP, "'%s': not known here", n->id);
	if (n->op == OP_ID || n->op == OP_SRC)
		st->read_event = true;
	err = fn(env->arg, n->id, v, st->why, st->why_size);
	/* source_count(): how many counters make the event up; one core PMU counts a thread's. */
	if (!err && n->op == OP_SRC)
		*v = 1;
	return err;
}

/* "A if COND else B": in a collecting pass, both branches unless COND read no event. */
static int eval_if(struct evalstate *st, const struct node *n, double *v)
{
	bool outer = st->read_event;
	double c, other;
	int err;

	st->read_event = false;
	err = eval(st, n->b, &c);
	if (err)
		return err;
	if (st->collect && st->read_event) {
		err = eval(st, n->c, &other);
		if (!err)
			err = eval(st, n->a, v);
		st->read_event = true;
		return err;
	}
	st->read_event = outer || st->read_event;
	return eval(st, c != 0 ? n->a : n->c, v);
}

/* Beyond 2^62 every double is a whole number, and its (long long) cast may overflow. */
static const double whole_max = 0x1p62;

/* % on whole numbers, as perf's (long) casts, yet defined beyond long's range. */
static double mod(double a, double b)
{
	a = trunc(a);
	b = trunc(b);
	if (b == 0 || a != a || b != b)
		return NAN;
	if (a > whole_max || a < -whole_max || b > whole_max || b < -whole_max)
		return a - b * trunc(a / b);
	return (double)((long long)a % (long long)b);
}

static int eval_binary(struct evalstate *st, const struct node *n, double a, double b, double *v)
{
	switch (n->op) {
	case OP_ADD:
		*v = a + b;
		break;
	case OP_SUB:
		*v = a - b;
		break;
	case OP_MUL:
		*v = a * b;
		break;
	case OP_DIV:
	case OP_MOD:
		if (b == 0 && !st->collect)
			return why(st, -EDOM, "division by zero%s", "");
		*v = b == 0 ? 0 : n->op == OP_DIV ? a / b : mod(a, b);
		break;
	case OP_DRATIO:
		*v = b == 0 ? 0 : a / b;
		break;
	case OP_LT:
		*v = a < b;
		break;
	case OP_GT:
		*v = a > b;
		break;
	case OP_LE:
		*v = a <= b;
		break;
	case OP_GE:
		*v = a >= b;
		break;
	case OP_EQ:
		*v = a == b;
		break;
	case OP_NE:
		*v = a != b;
		break;
	/* perf's |, & and ^ are logical: on zero and non-zero. */
	case OP_AND:
		*v = a != 0 && b != 0;
		break;
	case OP_OR:
		*v = a != 0 || b != 0;
		break;
	case OP_XOR:
		*v = (a != 0) != (b != 0);
		break;
	case OP_MIN:
		*v = a < b ? a : b;
		break;
	case OP_MAX:
		*v = a > b ? a : b;
		break;
	default:
		return why(st, -EINVAL, "bad node%s", "");
	}
	return 0;
}

static int eval(struct evalstate *st, int i, double *v)
{
	const struct node *n = &st->e->n[i];
	double a, b;
	int err;

	switch (n->op) {
	case OP_NUM:
		*v = n->num;
		return 0;
	case OP_ID:
	case OP_LIT:
	case OP_HAS:
	case OP_SRC:
	case OP_CPUID:
		return eval_leaf(st, n, v);
	case OP_NEG:
		err = eval(st, n->a, &a);
		*v = -a;
		return err;
	case OP_IF:
		return eval_if(st, n, v);
	default:
		break;
	}
	err = eval(st, n->a, &a);
	if (!err)
		err = eval(st, n->b, &b);
	return err ? err : eval_binary(st, n, a, b, v);
}

int selfmon_mexpr__eval(const struct selfmon_mexpr *e, const struct selfmon_mexpr_env *env,
			bool collect, double *out, char *why_buf, size_t why_size)
{
	struct evalstate st = {
		.e = e, .env = env, .collect = collect, .why = why_buf, .why_size = why_size
	};
	int err;

	if (why_size)
		why_buf[0] = '\0';
	err = eval(&st, e->root, out);
	if (!err && !collect && !isfinite(*out))
		err = why(&st, -EDOM, "the result is not a finite number%s", "");
	return err;
}
