// SPDX-License-Identifier: MIT
/*
 * The sampler's drain: its ring walked with ring.h's steps (begin, the
 * contiguous spans, a record that wraps the end copied whole, one store of
 * data_tail at the end), poll(2) for a wait, each record parsed (a SAMPLE
 * of the plan's size the short way, the others by record.c's full parser),
 * counted and handed on; and the drain a signal handler may run. The
 * sampler is opened in sampler.c. What a sample costs here is a budget
 * (docs/costs.md, "Reading a sample").
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <selfmon/sampler.h>
#include "../core/error.h"
#include "../core/errtext.h"
#include "../core/owner.h"
#include "record.h"
#include "ring.h"
#include "sampler_int.h"

/*
 * One drain. @rec is zeroed once per drain and reused: a SAMPLE of the
 * plan's size overwrites the same fields each time (selfmon_sample_plan__parse),
 * so it needs no memset per record; any other record is parsed in full by
 * selfmon_record__parse(), which leaves @rec dirty for the next plan parse.
 * The walk matches a planned SAMPLE by its header alone: @key is that
 * header, misc masked out (header_bits()), while @rec is clean, and a value
 * no masked header has while it is dirty or there is no plan.
 */
struct drain_ctx {
	struct selfmon_sampler *s;
	selfmon_record_fn fn; /* never NULL: a drain without one calls no_fn() */
	void *ctx;
	uint64_t key;
	bool stop; /* @fn asked to stop */
	struct selfmon_record rec;
};

/*
 * A perf_event_header as one word, as it lies in the ring (either byte
 * order): the planned SAMPLE's type and size are compared in one go.
 */
static uint64_t header_bits(uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };
	uint64_t w;

	memcpy(&w, &h, sizeof(w));
	return w;
}

/* header.size of a header word. */
static uint16_t header_size(uint64_t w)
{
	struct perf_event_header h;

	memcpy(&h, &w, sizeof(h));
	return h.size;
}

/* What a header is matched on: all but misc. */
static uint64_t key_mask(void)
{
	return header_bits(UINT32_MAX, 0, UINT16_MAX);
}

/* @key that no record matches: masked, every header has misc 0. */
static uint64_t no_key(void)
{
	return header_bits(0, 1, 0);
}

/* @key for a clean @rec: the planned SAMPLE's header; none without a plan. */
static uint64_t clean_key(const struct selfmon_sampler *s)
{
	return s->plan.size ? header_bits(PERF_RECORD_SAMPLE, 0, s->plan.size) : no_key();
}

static int no_fn(const struct selfmon_record *rec, void *ctx)
{
	(void)rec;
	(void)ctx;
	return 0;
}

/* Count what the kernel says it lost, then hand the record on. */
static void count(struct selfmon_sampler_stats *st, const struct selfmon_record *r)
{
	st->records++;
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		st->samples++;
		break;
	case PERF_RECORD_LOST:
		st->lost_records++;
		st->lost += r->lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		st->lost_samples += r->lost_samples.lost;
		break;
	case PERF_RECORD_THROTTLE:
		st->throttled++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		st->unthrottled++;
		break;
	}
}

/*
 * Every record the walk's short way did not take, whole and contiguous at
 * @buf: a planned SAMPLE while @rec is dirty (cleaned here, and the key
 * restored) or copied out of a wrap, and every other record, parsed in full.
 * Return: non-zero when @fn asks to stop.
 */
static __attribute__((noinline)) int on_other_record(struct drain_ctx *d, const void *buf,
						     uint16_t size)
{
	struct selfmon_sampler *s = d->s;
	int err;

	if (size == s->plan.size && ((const struct perf_event_header *)buf)->type == PERF_RECORD_SAMPLE) {
		if (d->key != clean_key(s)) {
			memset(&d->rec, 0, sizeof(d->rec));
			d->key = clean_key(s);
		}
		selfmon_sample_plan__parse(&s->plan, buf, &d->rec);
		s->stats.records++;
		s->stats.samples++;
		return d->fn(&d->rec, d->ctx);
	}
	d->key = no_key();
	err = selfmon_record__parse(buf, size, &s->layout, &d->rec);
	if (err == -ENOMSG)
		s->stats.unknown++;
	else if (err)
		s->stats.malformed++;
	if (err)
		return 0;
	count(&s->stats, &d->rec);
	return d->fn(&d->rec, d->ctx);
}

/*
 * The record at @p, before @lim, that drain_span() did not take: handed to
 * on_other_record() when it lies whole before @lim.
 * Return: the next record; @p when there is none before @lim or the record
 * does not fit (the span ends there), with d->stop set when @fn asked to stop.
 */
static __attribute__((noinline)) const uint8_t *drain_other(struct drain_ctx *d, const uint8_t *p,
							    const uint8_t *lim)
{
	uint16_t size;

	if (p >= lim)
		return p;
	memcpy(&size, p + offsetof(struct perf_event_header, size), sizeof(size));
	/* a multiple of 8 and under 8: 0 */
	if (!size || size % 8 || size > (size_t)(lim - p))
		return p;
	d->stop = on_other_record(d, p, size);
	return p + size;
}

/*
 * The records lying whole in [@p, @lim), the ring's bytes before its end
 * and before data_head, in order. The common one, a planned SAMPLE into a
 * clean @rec, is known by its header word alone (one load, one mask, one
 * compare) and parsed inline: no call but @fn's, no check of its size (the
 * plan's is sound), no wrap (a span has none), no store of data_tail (once
 * per drain: selfmon_ring__end()), and one store to count it: the samples
 * it took are in s->planned until the walk ends, which
 * selfmon_sampler__stats() adds in for a callback that asks. Anything else
 * goes out of line (drain_other()); a record that does not fit the span
 * ends it, for the caller to copy or drop.
 * Return: where the walk stopped, @lim when every record was taken.
 */
static __attribute__((noinline)) const uint8_t *drain_span(struct drain_ctx *d, const uint8_t *p,
							   const uint8_t *lim)
{
	struct selfmon_sampler *s = d->s;
	const uint64_t mask = key_mask();
	uint64_t t = selfmon_sample_plan__bits(&s->plan);
	/* where a planned SAMPLE may start and still end by @lim; without a plan, a header */
	const uintptr_t last = (uintptr_t)lim - (s->plan.size ? s->plan.size : 8);
	const selfmon_record_fn fn = d->fn;
	uint64_t key = d->key, planned = 0, h;
	const uint8_t *next;

	for (;;) {
		if ((uintptr_t)p <= last) {
			memcpy(&h, p, sizeof(h));
			if ((h & mask) == key) {
				/*
				 * @t opaque at each record: else gcc hoists some of
				 * its bit tests out of the loop and, short of
				 * registers, keeps them on the stack: a load each.
				 */
				__asm__("" : "+r"(t));
				selfmon_sample_plan__parse_bits(&s->plan, t, p, &d->rec);
				/* one store: the counts selfmon_sampler__stats() gives */
				s->planned = ++planned;
				/* the plan's size, from the header word: no register for it */
				p += header_size(h);
				/* @ctx from memory: as cheap as a register, which this loop lacks */
				if (fn(&d->rec, d->ctx))
					goto stop;
				continue;
			}
		}
		next = drain_other(d, p, lim);
		if (next == p || d->stop)
			break;
		p = next;
		key = d->key;
	}
	p = next;
	goto out;
stop:
	d->stop = true;
out:
	/* planned first: a handler's look in between sees them not yet counted, never twice */
	s->planned = 0;
	s->stats.records += planned;
	s->stats.samples += planned;
	return p;
}

/*
 * The ring from data_tail to data_head: its contiguous spans (one, or two
 * when the records run past the end) through drain_span(), a record that
 * wraps the end copied whole between them, then one store of data_tail.
 * Return: the number of records handed on.
 */
static __attribute__((noinline)) int read_ring(struct selfmon_sampler *s, selfmon_record_fn fn,
					       void *ctx)
{
	struct drain_ctx d = { .s = s, .fn = fn ? fn : no_fn, .ctx = ctx, .key = clean_key(s) };
	struct selfmon_ring *ring = &s->ring;
	uint64_t head, tail = selfmon_ring__begin(ring, &head, &s->stats.corrupt);
	uint64_t before = s->stats.records, off, span;
	const uint8_t *p, *end;
	const void *rec;
	uint16_t size;

	while (tail != head && !d.stop) {
		off = tail & (ring->size - 1);
		span = head - tail < ring->size - off ? head - tail : ring->size - off;
		p = ring->data + off;
		end = drain_span(&d, p, p + span);
		tail += (uint64_t)(end - p);
		if (d.stop || end == p + span)
			continue;
		/* the record at @tail runs past the ring's end, or past data_head: corrupt */
		rec = selfmon_ring__straddling(ring, tail, head, &size, &s->stats.corrupt);
		if (!rec) {
			tail = head;
			break;
		}
		tail += size;
		d.stop = on_other_record(&d, rec, size);
	}
	selfmon_ring__end(ring, tail);
	return (int)(s->stats.records - before);
}

int selfmon_sampler__drain(struct selfmon_sampler *s, selfmon_record_fn fn, void *ctx,
			   int timeout_ms)
{
	struct pollfd p;
	int n;

	if (!s)
		return -EINVAL;
	if (!selfmon_owner__same_process(&s->owner))
		return selfmon__err(
			-SELFMON_ERRNO__FORKED,
			"this sampler was opened by process "
			"%d; its ring is not mapped after fork(): open a new one in the "
			"child",
			(int)s->owner.pid);
	if (timeout_ms && s->ring_fd >= 0 && selfmon_ring__empty(&s->ring)) {
		p = (struct pollfd){ .fd = s->ring_fd, .events = POLLIN };
		/* A signal (an overflow signal, say) cuts the wait short: read what is there. */
		if (poll(&p, 1, timeout_ms) < 0 && errno != EINTR)
			return selfmon__err(-errno, "poll on the sampler's ring: %s",
					    selfmon_errtext__str(errno));
	}
	s->in_drain = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	n = read_ring(s, fn, ctx);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->in_drain = 0;
	return n;
}

int selfmon_sampler__drain_signal_safe(struct selfmon_sampler *s, selfmon_record_fn fn, void *ctx)
{
	int n;

	if (!s)
		return -EINVAL;
	if (!selfmon_owner__same_process(&s->owner))
		return -SELFMON_ERRNO__FORKED;
	if (s->in_drain)
		return -EBUSY;
	s->in_drain = 1;
	selfmon_record__quiet = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	n = read_ring(s, fn, ctx);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	selfmon_record__quiet = 0;
	s->in_drain = 0;
	return n;
}
