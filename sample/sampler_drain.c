// SPDX-License-Identifier: MIT
/*
 * The sampler's drain: its ring read by ring.c's reader, poll(2) for a
 * wait, each record parsed (a SAMPLE of the plan's size the short way,
 * the others by record.c's full parser), counted and handed on; and the
 * drain a signal handler may run. The sampler is opened in sampler.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include <selfmon/sampler.h>
#include "../core/error.h"
#include "../core/owner.h"
#include "record.h"
#include "ring.h"
#include "sampler.h"

/*
 * One drain. @rec is zeroed once per drain and reused: a SAMPLE of the
 * plan's size overwrites the same fields each time (selfmon_sample_plan__parse),
 * so it needs no memset per record; any other record is parsed in full by
 * selfmon_record__parse(), which leaves @rec dirty for the next plan parse.
 * What was handed on is counted in the sampler's stats.records.
 */
struct drain_ctx {
	struct selfmon_sampler *s;
	selfmon_record_fn fn;
	void *ctx;
	uint16_t fast_size; /* the plan's size while @rec is clean, else 0 (dirty) */
	struct selfmon_record rec;
};

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

static int on_record(const void *buf, uint16_t size, void *arg);

/* Every record but a planned SAMPLE into a clean @rec: the full parser. */
static __attribute__((noinline)) int on_other_record(struct drain_ctx *d, const void *buf,
						     uint16_t size)
{
	struct selfmon_sampler *s = d->s;
	int err;

	if (size == s->plan.size && !d->fast_size &&
	    ((const struct perf_event_header *)buf)->type == PERF_RECORD_SAMPLE) {
		memset(&d->rec, 0, sizeof(d->rec));
		d->fast_size = s->plan.size;
		return on_record(buf, size, d);
	}
	d->fast_size = 0;
	err = selfmon_record__parse(buf, size, &s->layout, &d->rec);
	if (err == -ENOMSG)
		s->stats.unknown++;
	else if (err)
		s->stats.malformed++;
	if (err)
		return 0;
	count(&s->stats, &d->rec);
	return d->fn ? d->fn(&d->rec, d->ctx) : 0;
}

/*
 * The ring reader's callback. The common record, a SAMPLE of the plan's
 * size, takes the short way: no call but the user's (the sampling budget:
 * at most 1.2 times libperf's perf_mmap__read_event() loop, parse included).
 */
static int on_record(const void *buf, uint16_t size, void *arg)
{
	struct drain_ctx *d = arg;
	struct selfmon_sampler *s = d->s;

	if (size != d->fast_size ||
	    ((const struct perf_event_header *)buf)->type != PERF_RECORD_SAMPLE)
		return on_other_record(d, buf, size);
	selfmon_sample_plan__parse(&s->plan, buf, &d->rec);
	s->stats.records++;
	s->stats.samples++;
	return d->fn ? d->fn(&d->rec, d->ctx) : 0;
}

/* The ring through on_record(), inlined into one loop; what was handed on. */
static __attribute__((noinline)) int read_ring(struct selfmon_sampler *s, selfmon_record_fn fn,
					       void *ctx)
{
	struct drain_ctx d = { .s = s, .fn = fn, .ctx = ctx, .fast_size = s->plan.size };
	uint64_t before = s->stats.records;

	selfmon_ring__read(&s->ring, on_record, &d, &s->stats.corrupt);
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
					    strerror(errno));
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
