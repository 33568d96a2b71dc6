/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_SAMPLE_CURSOR_H
#define SELFMON_SAMPLE_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include <selfmon/sample.h>

/* The types this parser knows: 1 .. PERF_RECORD_AUX_OUTPUT_HW_ID (Linux 5.16). */
#define RECORD_LAST PERF_RECORD_AUX_OUTPUT_HW_ID

/*
 * Where the parser is in a record: every read goes through it and stops at
 * @end (header.size, or the trailer's start), never past it.
 */
struct selfmon_cursor {
	const uint8_t *p, *end;
	const struct selfmon_record_layout *l;
	uint32_t type; /* PERF_RECORD_*, for messages */
};

/*
 * Set while a signal handler parses (selfmon_sampler__drain_signal_safe()):
 * no message is formatted (vsnprintf is not async-signal-safe) and the
 * interrupted code's message is left alone.
 */
extern _Thread_local volatile int selfmon_record__quiet;

#define record_err(err, ...) (selfmon_record__quiet ? (err) : selfmon__err((err), __VA_ARGS__))

/* Take @n bytes into *@out. Return: 0 or -EBADMSG naming @field. */
int selfmon_cursor__take(struct selfmon_cursor *c, size_t n, const void **out, const char *field);

/* One u64; two u32 sharing a word (pid/tid, cpu/res). Return: 0 or -EBADMSG. */
int selfmon_cursor__u64(struct selfmon_cursor *c, uint64_t *v, const char *field);
int selfmon_cursor__u32x2(struct selfmon_cursor *c, uint32_t *a, uint32_t *b, const char *field);

/*
 * A word of a record that sample_type may hold: read when @bit is set, a
 * u64 at @off of the struct being filled, or (@off2 nonzero) two u32 at
 * @off and @off2 (pid/tid, cpu/res). The words stand in the order the
 * record holds them (perf_event_open(2), PERF_RECORD_SAMPLE and
 * sample_id), so one table serves a sample's head and the trailer.
 */
struct selfmon_cursor_word {
	uint64_t bit;
	unsigned short off, off2;
	const char *field;
};

/* The words of @words that @type selects, into @dst. Return: 0 or -EBADMSG. */
int selfmon_cursor__words(struct selfmon_cursor *c, uint64_t type, void *dst,
			  const struct selfmon_cursor_word *words, size_t nr);

/* @nr items of @size bytes, @nr from the record: overflow-safe. Return: 0 or -EBADMSG. */
int selfmon_cursor__array(struct selfmon_cursor *c, uint64_t nr, size_t size, const void **out,
			  const char *field);

/* @field needs @need bytes, fewer are left. Return: -EBADMSG, with a message. */
int selfmon_cursor__malformed(const struct selfmon_cursor *c, const char *field, size_t need);

/* Bytes left where the layout says the record ends. Return: -EBADMSG, with a message. */
int selfmon_cursor__left_over(const struct selfmon_cursor *c);

#endif
