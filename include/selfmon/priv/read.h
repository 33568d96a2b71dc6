/* SPDX-License-Identifier: MIT */
/*
 * NOT API. The bodies that the inline reads of <selfmon/read.h> share (the
 * seqlock loops, the sign extension, the time refinement), and the library's
 * own short reads. Include <selfmon/read.h>, never this file: every name
 * here (selfmon_priv_*) may change, or go, with any release (docs/abi.md).
 */
#ifndef SELFMON_PRIV_READ_H
#define SELFMON_PRIV_READ_H

#ifndef SELFMON_READ_H
#error "<selfmon/priv/read.h> is not API: include <selfmon/read.h>"
#endif

/*
 * Sign-extend a raw counter to 64 bits, by a @shift of 64 - pmc_width. The
 * kernel's offset assumes this (perf_event_open(2), pmc_width), and it
 * discards upper bits that are UNKNOWN when a 32-bit counter is read from a
 * 64-bit register (arm64 perf document, "counter sizes"). The kernel sets
 * pmc_width on every page that allows a user read (x86: the counter width;
 * arm64: 32 or 64); the reads below call this only for a width of 1..64
 * (selfmon_priv_page_readable()), so @shift is 0..63 here, which keeps the
 * shifts defined.
 */
SELFMON_HOT uint64_t selfmon_priv_pmc_sext(uint64_t pmc, unsigned int shift)
{
	return (uint64_t)((int64_t)(pmc << shift) >> shift);
}

#if SELFMON_ARCH_USER_READ
/*
 * 1 when a page snapshot allows a user read (perf_event_open(2), "MMAP
 * layout"): a counter now (@idx 1..the arch's largest; 0 means none),
 * cap_user_rdpmc, and a pmc_width of 1..64, i.e. @shift = 64 - pmc_width
 * below 64 (a width of 0 would leave no counter bits, and would make the
 * shift undefined). An index or a width of 0 wraps to the top of unsigned.
 */
SELFMON_HOT int selfmon_priv_page_readable(uint32_t idx, unsigned int shift, uint64_t caps)
{
#if SELFMON_ARCH_MAX_INDEX == 32u
	/*
	 * idx - 1 < 32 and shift < 64, i.e. shift / 2 < 32, hold together iff
	 * their OR is below 32: one compare for both, an instruction a read less
	 * (the arm64 budget of tests/selftests/arm64/cost_test.c).
	 */
	return ((idx - 1u) | (shift >> 1)) < 32u && (caps & SELFMON_CAP_USER_RDPMC);
#else
	return idx - 1u < SELFMON_ARCH_MAX_INDEX && shift < 64u && (caps & SELFMON_CAP_USER_RDPMC);
#endif
}
#endif

/* ns = time_offset + cyc * time_mult >> time_shift, without overflow (perf_event_open(2)). */
SELFMON_HOT uint64_t selfmon_priv_cyc_to_ns(uint64_t cyc, uint16_t shift, uint32_t mult, uint64_t offset)
{
	uint64_t quot = cyc >> shift;
	uint64_t rem = cyc & (((uint64_t)1 << shift) - 1);

	return offset + quot * mult + ((rem * mult) >> shift);
}

/*
 * The body of selfmon_page__read_value(): @gated (a constant) tests the
 * index alone, where the arch says it gates the read (arch.h); 0 tests
 * cap_user_rdpmc and pmc_width too.
 */
SELFMON_HOT int selfmon_priv_page_read_value(const struct perf_event_mmap_page *pc, uint64_t *value,
					  const int gated)
{
#if !SELFMON_ARCH_USER_READ
	/* No counter instruction on this arch: every read is read(2)'s. */
	(void)pc;
	(void)value;
	(void)gated;
	return -EAGAIN;
#else
	const volatile struct perf_event_mmap_page *p = pc;
	uint64_t cnt, pmc;
	uint32_t seq, idx;
	unsigned int shift;

	/*
	 * The expected path, said to the compiler: a readable page, read once.
	 * Otherwise gcc guesses a loop that exits by -EAGAIN, and may pad the
	 * code that follows a read as if it were a loop's head.
	 */
	do {
		selfmon_arch_load_lock_index(p, seq, idx);
		selfmon_barrier();
		if (gated) {
			/* The index alone says whether the page allows the read (arch.h). */
			shift = pc->pmc_width;
			cnt = pc->offset;
			selfmon_arch_read_checked(idx, pmc, refused);
		} else {
			shift = 64u - pc->pmc_width;
			if (__builtin_expect(!selfmon_priv_page_readable(idx, shift, pc->capabilities), 0))
				return -EAGAIN;
			cnt = pc->offset;
			pmc = selfmon_arch_read_counter(idx);
		}
		selfmon_barrier();
	} while (__builtin_expect(p->lock != seq, 0));

#if SELFMON_ARCH_INDEX_GATES_READ
	if (gated) {
		*value = cnt + selfmon_arch_sext_width(pmc, shift);
		return 0;
	}
#endif
	*value = cnt + selfmon_priv_pmc_sext(pmc, shift);
	return 0;
refused:
	return -EAGAIN;
#endif
}

/*
 * The short read, one body for selfmon_page__read_value32(), _64() and a
 * group leader's read with its times: @width and whether @times is NULL are
 * constants at each call, so that each copy keeps only its own half. A
 * @width of 0 takes the counter's width from @shift, 64 - pmc_width (0 or
 * 32), for a caller that reads counters of both widths in one loop. With
 * @times, a multiplexed event (time_enabled != time_running), whose times
 * must be brought up to now, returns 1, unread: the caller reads the long way.
 */
SELFMON_HOT int selfmon_priv_page_read_short(const struct perf_event_mmap_page *pc, uint64_t *value,
					  uint64_t *times, const unsigned int width,
					  unsigned int shift)
{
#if !SELFMON_ARCH_USER_READ || !SELFMON_ARCH_FIXED_PAGE
	(void)times;
	(void)width;
	(void)shift;
	return selfmon_priv_page_read_value(pc, value, SELFMON_ARCH_INDEX_GATES_READ);
#else
	const volatile struct perf_event_mmap_page *p = pc;
	uint64_t cnt, pmc, enabled = 0, running = 0;
	uint32_t seq, idx, now;

	for (;;) {
		selfmon_arch_load_lock_index(p, seq, idx);
		selfmon_barrier();
		if (times) {
			enabled = pc->time_enabled;
			running = pc->time_running;
		}
		cnt = pc->offset;
		/* With @times: a set's read (selfmon_priv_page_read_fixed_times()), by the table. */
		if (times)
			selfmon_arch_read_checked_byte(idx, pmc, refused);
		else
			selfmon_arch_read_checked(idx, pmc, refused);
		selfmon_barrier();
		now = p->lock;
		/*
		 * One test for the seqlock and the times: a multiplexed event
		 * has had its counter read for nothing, which is harmless (the
		 * index said a counter holds it), and the rarer path sorts the
		 * two out. Without @times, enabled == running, constant.
		 */
		if (__builtin_expect((now == seq) & (enabled == running), 1))
			break;
		if (now == seq)
			return 1;
	}

	/* perf_event_open(2), "MMAP layout": pmc sign-extended from pmc_width. */
	if (width == 32)
		pmc = (uint64_t)(int64_t)(int32_t)(uint32_t)pmc;
	else if (width != 64)
		pmc = selfmon_priv_pmc_sext(pmc, shift);
	*value = cnt + pmc;
	if (times) {
		times[0] = enabled;
		times[1] = running;
	}
	return 0;
refused:
	return -EAGAIN;
#endif
}

/* The short read without times: a member of a group, or a marker's counter. */
SELFMON_HOT int selfmon_priv_page_read_fixed(const struct perf_event_mmap_page *pc, uint64_t *value,
					  const unsigned int width)
{
	return selfmon_priv_page_read_short(pc, value, 0, width, 0);
}

/*
 * The short read of a page seen once with cap_user_rdpmc and a pmc_width of
 * 64 - @shift (32 or 64), the width not a constant: a member of a group
 * whose counters differ in width (arm64: the 64-bit cycle counter beside
 * 32-bit event counters). Two shifts more than the constant-width read.
 */
SELFMON_HOT int selfmon_priv_page_read_shifted(const struct perf_event_mmap_page *pc, uint64_t *value,
					    unsigned int shift)
{
	return selfmon_priv_page_read_short(pc, value, 0, 0, shift);
}

/*
 * The seqlock read of a page with its times, one body for both kinds of
 * read: @timed (a constant, so each caller's copy keeps only its half) brings
 * the times of a multiplexed event up to now; without it such an event
 * returns 1, unread, for the caller to take the timed read out of line.
 */
SELFMON_HOT int selfmon_priv_page_read_times(const struct perf_event_mmap_page *pc,
					 struct selfmon_count *c, const int timed)
{
#if !SELFMON_ARCH_USER_READ
	(void)pc;
	(void)c;
	(void)timed;
	return -EAGAIN;
#else
	const volatile struct perf_event_mmap_page *p = pc;
	uint64_t cnt, pmc, caps, enabled, running, cyc = 0, time_offset = 0;
	uint64_t time_cycles = 0, time_mask = ~(uint64_t)0;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0;
	unsigned int shift;
	int now = 0;

	do {
		selfmon_arch_load_lock_index(p, seq, idx);
		selfmon_barrier();
		enabled = pc->time_enabled;
		running = pc->time_running;
		caps = pc->capabilities;
		shift = 64u - pc->pmc_width;
		if (!selfmon_priv_page_readable(idx, shift, caps))
			return -EAGAIN;
		/* As perf_event_open(2)'s example: only a multiplexed event needs its times now. */
		now = enabled != running && (caps & SELFMON_CAP_USER_TIME);
		if (now && !timed)
			return 1;
		if (now) {
			cyc = selfmon_arch_read_timestamp();
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			if (caps & SELFMON_CAP_USER_TIME_SHORT) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}
		cnt = pc->offset;
		pmc = selfmon_arch_read_counter(idx);
		selfmon_barrier();
	} while (p->lock != seq);

	if (timed && now) {
		uint64_t delta;

		/* A short timestamp counter wraps: count from time_cycles (uapi comment). */
		if (caps & SELFMON_CAP_USER_TIME_SHORT)
			cyc = time_cycles + ((cyc - time_cycles) & time_mask);
		delta = selfmon_priv_cyc_to_ns(cyc, time_shift, time_mult, time_offset);
		enabled += delta;
		running += delta; /* idx != 0: the event is on a counter now */
	}

	c->value = cnt + selfmon_priv_pmc_sext(pmc, shift);
	c->enabled = enabled;
	c->running = running;
	c->flags = SELFMON_COUNT_USER;
	c->reason = SELFMON_REASON_NONE;
	return 0;
#endif
}

/* The read of a multiplexed event, out of line: the rarer half of selfmon_page__read(). */
static __attribute__((noinline, unused)) int
selfmon_priv_page_read_timed(const struct perf_event_mmap_page *pc, struct selfmon_count *c)
{
	return selfmon_priv_page_read_times(pc, c, 1);
}

/*
 * selfmon_priv_page_read_fixed() with the times, for a group's leader: 1,
 * unread, when the event was multiplexed; the general read where the arch
 * does not keep its pages fixed.
 */
SELFMON_HOT int selfmon_priv_page_read_fixed_times(const struct perf_event_mmap_page *pc,
						struct selfmon_count *c, const unsigned int width)
{
#if !SELFMON_ARCH_USER_READ || !SELFMON_ARCH_FIXED_PAGE
	(void)width;
	return selfmon_priv_page_read_times(pc, c, 0);
#else
	uint64_t times[2];
	int err = selfmon_priv_page_read_short(pc, &c->value, times, width, 0);

	if (err)
		return err;
	c->enabled = times[0];
	c->running = times[1];
	return 0;
#endif
}

#endif /* SELFMON_PRIV_READ_H */
