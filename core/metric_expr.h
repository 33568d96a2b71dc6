/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_METRIC_EXPR_H
#define SELFMON_CORE_METRIC_EXPR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The expression language of the kernel's pmu-events metrics.json files, as
 * perf's expression grammar (tools/perf/util/expr.y and expr.l) reads it:
 * numbers, event and metric names (letters, digits and _ . : @ ?, with \- \,
 * \= escaped), #literals, + - * / %, comparisons < > <= >= == !=, the logical
 * | ^ & (on zero / non-zero, as perf), unary -, "A if COND else B", min(),
 * max(), d_ratio() (0 when the divisor is), has_event(), source_count() and
 * strcmp_cpuid_str(). Longest texts and deepest nesting are bounded, so a
 * hostile string costs little.
 */
#define SELFMON_MEXPR_MAX_LEN 8192
#define SELFMON_MEXPR_MAX_DEPTH 64

struct selfmon_mexpr;

/*
 * What an evaluation asks its caller. Each returns 0 with *v set, or -errno
 * with a reason written to @why (why_size bytes): the metric is then
 * unavailable for that reason, never guessed.
 */
struct selfmon_mexpr_env {
	/* An event's count, or the value of another metric named so. */
	int (*value)(void *arg, const char *id, double *v, char *why, size_t why_size);
	/* "#slots", "#smt_on", ... (without the '#'). */
	int (*literal)(void *arg, const char *name, double *v, char *why, size_t why_size);
	/* has_event(id): 1 if this core can count it, else 0. */
	int (*has_event)(void *arg, const char *id, double *v, char *why, size_t why_size);
	/* strcmp_cpuid_str(id): 1 if this core is that part, at that version or later. */
	int (*cpuid)(void *arg, const char *id, double *v, char *why, size_t why_size);
	void *arg;
};

/*
 * Parse @text. Return: 0, -EINVAL (syntax; @err says where), -E2BIG (too long
 * or too deep) or -ENOMEM.
 */
int selfmon_mexpr__parse(const char *text, struct selfmon_mexpr **out, char *err, size_t err_size);
void selfmon_mexpr__free(struct selfmon_mexpr *e);

/*
 * Evaluate. With @collect, every value() call is a question "which events
 * does it need": value() is asked about each identifier the evaluation
 * reaches, and an "if" whose condition reads no event takes its one branch
 * (has_event, strcmp_cpuid_str and literals decide), one that does takes
 * both. Return: 0, or -errno with @why set (a division by zero: -EDOM).
 */
int selfmon_mexpr__eval(const struct selfmon_mexpr *e, const struct selfmon_mexpr_env *env,
			bool collect, double *out, char *why, size_t why_size);

#endif
