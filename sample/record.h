/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_SAMPLE_RECORD_H
#define SELFMON_SAMPLE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <selfmon/sample.h>

#include "cursor.h"

/* struct read_format per the layout's read_format. Return: 0 or -EBADMSG. */
int selfmon_record__read_format(struct selfmon_cursor *c, struct selfmon_record_read *r);

/* The body of a PERF_RECORD_SAMPLE per the layout's sample_type. Return: 0 or -EBADMSG. */
int selfmon_record__sample(struct selfmon_cursor *c, struct selfmon_sample *s);

/*
 * The common sample, fast. A sample_type made only of one-word fields
 * (IDENTIFIER to PERIOD, WEIGHT, DATA_SRC, TRANSACTION, PHYS_ADDR, CGROUP,
 * the page sizes: no READ, CALLCHAIN or other part whose size the record
 * gives) makes every SAMPLE the same size, its words in the same places. A
 * record of exactly that @size is copied word by word, in the order of
 * selfmon_record__sample(), with no cursor and no check left to make; any
 * other size goes to selfmon_record__parse(), which says what is wrong.
 * The head words (IDENTIFIER to PERIOD, what most samplers ask for) are
 * tested bit by bit, but for the first four (IDENTIFIER to TIME), copied at
 * once when all are there; the rarer one-word fields after them go by a table.
 */
struct selfmon_sample_plan {
	uint64_t type; /* the layout's sample_type */
	uint16_t size; /* header.size of such a SAMPLE; 0: no plan for this layout */
	uint16_t nr_tail;
	uint16_t off_tail[8]; /* offsetof(struct selfmon_sample, field) of tail word i */
};

/* The plan for @l's samples; size 0 when its sample_type has a variable part. */
void selfmon_sample_plan__init(struct selfmon_sample_plan *p,
			       const struct selfmon_record_layout *l);

#define PLAN_WORD(t, bit, s, field, w)                                                           \
	do {                                                                                     \
		if ((t) & (bit)) {                                                               \
			memcpy((uint8_t *)(s) + offsetof(struct selfmon_sample, field), (w), 8); \
			(w) += 8;                                                                \
		}                                                                                \
	} while (0)

/* The four head words most samplers ask for: in the record as in struct selfmon_sample. */
#define SELFMON_SAMPLE_PLAN_FIRST4 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
_Static_assert(offsetof(struct selfmon_sample, ip) == offsetof(struct selfmon_sample, id) + 8 &&
		       offsetof(struct selfmon_sample, pid) == offsetof(struct selfmon_sample, id) + 16 &&
		       offsetof(struct selfmon_sample, time) == offsetof(struct selfmon_sample, id) + 24,
	       "id, ip, pid and tid, time: 32 bytes in the record's order");
/* A bit no sample_type has, set by selfmon_sample_plan__bits() when all four are there. */
#define SELFMON_SAMPLE_PLAN_ALL4 (1ULL << 63)

/*
 * The plan's sample_type as selfmon_sample_plan__parse_bits() tests it: one
 * bit, not four, says that the first four words are there to copy at once.
 */
static inline uint64_t selfmon_sample_plan__bits(const struct selfmon_sample_plan *p)
{
	uint64_t t = p->type;

	return (t & SELFMON_SAMPLE_PLAN_FIRST4) == SELFMON_SAMPLE_PLAN_FIRST4 ?
		       t | SELFMON_SAMPLE_PLAN_ALL4 :
		       t;
}

/* The rarer one-word fields, out of the common path: see selfmon_sample_plan. */
static inline void selfmon_sample_plan__tail(const struct selfmon_sample_plan *p,
					     const uint8_t *w, struct selfmon_sample *s)
{
	for (unsigned int i = 0, n = p->nr_tail; i < n; i++, w += 8)
		memcpy((uint8_t *)s + p->off_tail[i], w, 8);
}

/*
 * selfmon_sample_plan__parse() with selfmon_sample_plan__bits(@p) given as
 * @t, a value a caller keeps in a register across its loop (a callback
 * between two parses could change @p for all the compiler knows).
 */
static inline void selfmon_sample_plan__parse_bits(const struct selfmon_sample_plan *p, uint64_t t,
						   const void *buf, struct selfmon_record *rec)
{
	const uint8_t *w = (const uint8_t *)buf + sizeof(struct perf_event_header);
	struct selfmon_sample *s = &rec->sample;

	/* type, misc, size: the order and sizes of struct perf_event_header (record_sample.c asserts) */
	memcpy(rec, buf, sizeof(struct perf_event_header));
	rec->data = buf; /* as the parser: the bytes, for a writer of them whole */
	if (t & SELFMON_SAMPLE_PLAN_ALL4) {
		memcpy(&s->id, w, 32); /* id, ip, pid and tid, time (asserted above) */
		w += 32;
	} else {
		PLAN_WORD(t, PERF_SAMPLE_IDENTIFIER, s, id, w);
		PLAN_WORD(t, PERF_SAMPLE_IP, s, ip, w);
		PLAN_WORD(t, PERF_SAMPLE_TID, s, pid, w); /* pid, tid */
		PLAN_WORD(t, PERF_SAMPLE_TIME, s, time, w);
	}
	PLAN_WORD(t, PERF_SAMPLE_ADDR, s, addr, w);
	PLAN_WORD(t, PERF_SAMPLE_ID, s, id, w);
	PLAN_WORD(t, PERF_SAMPLE_STREAM_ID, s, stream_id, w);
	PLAN_WORD(t, PERF_SAMPLE_CPU, s, cpu, w); /* cpu, res */
	PLAN_WORD(t, PERF_SAMPLE_PERIOD, s, period, w);
	if (__builtin_expect(p->nr_tail != 0, 0))
		selfmon_sample_plan__tail(p, w, s);
}

/*
 * Parse @buf, a PERF_RECORD_SAMPLE of exactly @p->size bytes, 8-byte
 * aligned, into @rec: the header, then the words. @rec must be zero but for
 * what an earlier call of the same plan wrote (which this call overwrites):
 * the result is then what selfmon_record__parse() gives.
 */
static inline void selfmon_sample_plan__parse(const struct selfmon_sample_plan *p, const void *buf,
					      struct selfmon_record *rec)
{
	selfmon_sample_plan__parse_bits(p, selfmon_sample_plan__bits(p), buf, rec);
}

#endif
