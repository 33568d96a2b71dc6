/* SPDX-License-Identifier: MIT */
/*
 * selfmon sampler: the calling thread samples itself. Events are opened in
 * sampling mode (perf_event_open(2), sample_period / sample_freq), their
 * records land in one ring buffer ("MMAP layout"), and
 * selfmon_sampler__drain() hands each one, parsed (<selfmon/sample.h>), to a
 * callback. Losses (PERF_RECORD_LOST, LOST_SAMPLES, THROTTLE) are counted.
 */
#ifndef SELFMON_SAMPLER_H
#define SELFMON_SAMPLER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <selfmon/sample.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A sampler of the calling thread. Opaque. */
struct selfmon_sampler;

/** Side-band records, bits of selfmon_sampler_opts.sideband (the attr bit each sets). */
#define SELFMON_SIDEBAND_MMAP (1u << 0) /**< attr.mmap: PERF_RECORD_MMAP of exec maps */
#define SELFMON_SIDEBAND_MMAP2 (1u << 1) /**< attr.mmap + mmap2: PERF_RECORD_MMAP2 */
#define SELFMON_SIDEBAND_MMAP_DATA (1u << 2) /**< attr.mmap_data: non-exec maps too */
#define SELFMON_SIDEBAND_COMM (1u << 3) /**< attr.comm (+ comm_exec): PERF_RECORD_COMM */
#define SELFMON_SIDEBAND_TASK (1u << 4) /**< attr.task: PERF_RECORD_FORK / EXIT */
#define SELFMON_SIDEBAND_SWITCH (1u << 5) /**< attr.context_switch: PERF_RECORD_SWITCH */
#define SELFMON_SIDEBAND_NAMESPACES (1u << 6) /**< attr.namespaces */
#define SELFMON_SIDEBAND_KSYMBOL (1u << 7) /**< attr.ksymbol */
#define SELFMON_SIDEBAND_BPF_EVENT (1u << 8) /**< attr.bpf_event */
#define SELFMON_SIDEBAND_CGROUP (1u << 9) /**< attr.cgroup */
#define SELFMON_SIDEBAND_TEXT_POKE (1u << 10) /**< attr.text_poke */
#define SELFMON_SIDEBAND__ALL ((1u << 11) - 1)

/** The sample_type a sampler gets when the options give none. */
#define SELFMON_SAMPLER_DEFAULT_TYPE                                                    \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_PERIOD)

/** Options of selfmon_sampler__open(); zero-fill and set .sz = sizeof. */
struct selfmon_sampler_opts {
	size_t sz;
	uint64_t period; /**< a sample every @period events (sample_period) */
	uint64_t freq; /**< or about @freq samples a second (sample_freq); not both */
	uint64_t sample_type; /**< PERF_SAMPLE_*; 0: SELFMON_SAMPLER_DEFAULT_TYPE */
	uint32_t sideband; /**< SELFMON_SIDEBAND_* */
	int sample_id_all; /**< 1: side-band records end in a sample_id (TID, TIME...) */
	uint32_t ring_pages; /**< data pages, a power of two; 0: 64 */
	uint32_t wakeup_events; /**< poll wakes after this many samples... */
	uint32_t wakeup_watermark; /**< ...or this many bytes; neither: a quarter of the ring */
	uint64_t sample_regs_user; /**< PERF_SAMPLE_REGS_USER's mask */
	uint64_t sample_regs_intr; /**< PERF_SAMPLE_REGS_INTR's mask */
	uint32_t sample_stack_user; /**< PERF_SAMPLE_STACK_USER's bytes */
	uint64_t branch_sample_type; /**< PERF_SAMPLE_BRANCH_STACK's filter */
	const char *root; /**< as selfmon_opts.root (tests) */
	/**
	 * 1: a synchronous SIGTRAP to the sampled thread at each overflow
	 * (attr.sigtrap with remove_on_exec, Linux 5.13): si_code TRAP_PERF,
	 * selfmon_sigtrap__data() gives @sig_data back, and the handler's
	 * ucontext holds the interrupted PC. Block or handle SIGTRAP first.
	 */
	int sigtrap;
	uint64_t sig_data; /**< the cookie of @sigtrap's signals */
};

/** What a sampler has read, and lost. */
struct selfmon_sampler_stats {
	uint64_t records; /**< records parsed and handed to callbacks */
	uint64_t samples; /**< of which PERF_RECORD_SAMPLE */
	uint64_t lost; /**< records the kernel dropped, ring full (PERF_RECORD_LOST) */
	uint64_t lost_records; /**< PERF_RECORD_LOST records seen */
	uint64_t lost_samples; /**< PERF_RECORD_LOST_SAMPLES' count (hardware lost them) */
	uint64_t throttled; /**< PERF_RECORD_THROTTLE: the kernel cut the sample rate */
	uint64_t unthrottled; /**< PERF_RECORD_UNTHROTTLE */
	uint64_t malformed; /**< records the parser refused (not handed on) */
	uint64_t unknown; /**< records of types this selfmon does not know (skipped) */
	uint64_t corrupt; /**< times the ring could not be walked and was emptied */
};

/**
 * selfmon_sampler__open() - sample the calling thread
 * @events: as for selfmon_set__open(): events and groups "{a,b}:u". Every
 *	lone event and every group leader samples; a group's members do not,
 *	the leader's samples read them (PERF_SAMPLE_READ with
 *	PERF_FORMAT_GROUP | PERF_FORMAT_ID, added when a group has members).
 *	All share one ring.
 * @opts: options; the period or the frequency is required.
 *
 * The events start disabled: call selfmon_sampler__enable().
 * Return: the sampler, or NULL with errno set and selfmon_errmsg() saying why.
 */
struct selfmon_sampler *selfmon_sampler__open(const char *events,
					      const struct selfmon_sampler_opts *opts);

/**
 * selfmon_sampler__attach() - a sampler that reads a ring mapped by someone else
 * @map: the mapping of a sampling event's fd as mmap(2) gave it: the
 *	metadata page, then 2^n data pages (perf_event_open(2), "MMAP layout"),
 *	e.g. the one libperf's perf_evlist__mmap() or perf_evsel__mmap() made
 * @map_len: its bytes
 * @attr: the attr the event was opened with: its records' layout
 *
 * selfmon_sampler__drain(), __drain_signal_safe(), __stats() and __layout()
 * then read that ring with selfmon's reader and parser, moving its data_tail
 * as they do their own. The sampler has no event of its own:
 * selfmon_sampler__nr() is 0, enable, disable and signal have nothing to act
 * on, a drain never waits (no fd to poll), and close leaves @map mapped.
 * The reader moves data_tail, so the ring must be mapped PROT_READ |
 * PROT_WRITE: a read-only mapping (perf's overwrite mode) is refused, found
 * out without faulting. The page's data_offset and data_size must lie inside
 * @map_len; a head and tail no kernel writes are dropped as corrupt
 * (stats.corrupt) at each drain.
 * Return: the sampler, or NULL with errno EINVAL (a NULL argument, a length
 * that is not one page and 2^n data pages, or a page whose data lies outside
 * it), EACCES (mapped read-only) or EFAULT (not readable), and
 * selfmon_errmsg().
 */
struct selfmon_sampler *selfmon_sampler__attach(void *map, size_t map_len,
						const struct perf_event_attr *attr);

/** selfmon_sampler__close() - stop, unmap and close. NULL is fine. */
void selfmon_sampler__close(struct selfmon_sampler *s);

/** selfmon_sampler__enable() - start sampling. Return: 0 or -errno. */
int selfmon_sampler__enable(struct selfmon_sampler *s);

/** selfmon_sampler__disable() - stop sampling; what is in the ring stays. Return: 0 or -errno. */
int selfmon_sampler__disable(struct selfmon_sampler *s);

/**
 * typedef selfmon_record_fn - what selfmon_sampler__drain() calls for each
 * record, in ring order
 * @rec: the record, valid during the call only
 * @ctx: the drain's @ctx
 *
 * Return: 0 to go on, non-zero to stop the drain.
 */
typedef int (*selfmon_record_fn)(const struct selfmon_record *rec, void *ctx);

/**
 * selfmon_sampler__drain() - hand every record in the ring to @fn
 * @timeout_ms: when the ring is empty, wait this long for the kernel's
 *	wakeup (poll(2)): 0 does not wait, -1 waits for ever; a signal
 *	caught meanwhile ends the wait early (and is no error).
 *
 * Malformed records are counted (stats.malformed), not handed on; losses are
 * counted as their records come. A drain in a child process is refused: the
 * ring is not inherited by fork().
 * Return: the number of records handed to @fn, or -errno
 * (-SELFMON_ERRNO__FORKED, or poll(2)'s).
 */
int selfmon_sampler__drain(struct selfmon_sampler *s, selfmon_record_fn fn, void *ctx,
			   int timeout_ms);

/**
 * selfmon_sampler__signal() - signal the opening thread at each wakeup
 * @signo: the signal; a real-time one (SIGRTMIN + n) queues, one per wakeup
 *
 * Sets O_ASYNC, F_SETSIG @signo and F_SETOWN_EX F_OWNER_TID on every
 * sampling fd (perf_event_open(2), "Overflow handling"; fcntl(2)): the
 * kernel then sends @signo, si_code POLL_IN and si_fd the fd, to the thread
 * that opened the sampler, whenever it would wake poll(2): after
 * wakeup_events samples (1: every sample) or wakeup_watermark bytes.
 * Install an SA_SIGINFO handler for @signo first; it may call
 * selfmon_sampler__owns_fd() and selfmon_sampler__drain_signal_safe().
 * All or nothing: when an fcntl(2) fails, every fd's owner, signal and
 * flags are put back as they were. In a forked child, a sampler the child
 * opened signals the child's thread (never the parent's).
 * Return: 0, -SELFMON_ERRNO__THREAD / __FORKED (not the opening thread), or
 * -errno of fcntl(2).
 */
int selfmon_sampler__signal(struct selfmon_sampler *s, int signo);

/** selfmon_sampler__owns_fd() - is @fd (a handler's si_fd) one of @s's? Async-signal-safe. */
int selfmon_sampler__owns_fd(const struct selfmon_sampler *s, int fd);

/**
 * selfmon_sampler__drain_signal_safe() - selfmon_sampler__drain() for a signal handler
 *
 * Async-signal-safe: no poll(2), no allocation, no lock, no message (a
 * malformed record is only counted) and the interrupted code's
 * selfmon_errmsg() left alone. Meant for the handler of
 * selfmon_sampler__signal() on the opening thread.
 * Return: the number of records handed to @fn; -EBUSY when the signal
 * interrupted a drain of the same sampler (the records wait for it);
 * -SELFMON_ERRNO__FORKED in a child.
 */
int selfmon_sampler__drain_signal_safe(struct selfmon_sampler *s, selfmon_record_fn fn, void *ctx);

/**
 * selfmon_sigtrap__data() - the cookie of a TRAP_PERF SIGTRAP
 * (si_perf_data, which C libraries' siginfo_t may not name): the sig_data
 * of selfmon_sampler_opts, as an unsigned long. Async-signal-safe.
 */
unsigned long selfmon_sigtrap__data(const siginfo_t *si);

/** selfmon_sampler__stats() - what was read and lost so far. Return: 0 or -EINVAL. */
int selfmon_sampler__stats(const struct selfmon_sampler *s, struct selfmon_sampler_stats *stats);

/** selfmon_sampler__layout() - the layout the ring's records have (to parse copies of them). */
const struct selfmon_record_layout *selfmon_sampler__layout(const struct selfmon_sampler *s);

/** selfmon_sampler__nr() - the number of events, group members included. */
int selfmon_sampler__nr(const struct selfmon_sampler *s);

/**
 * selfmon_sampler__id() - the kernel's id of event @idx (PERF_EVENT_IOC_ID):
 * what a sample's id / stream_id and a read_format entry's id name.
 * Return: the id, or 0 for a bad @idx.
 */
uint64_t selfmon_sampler__id(const struct selfmon_sampler *s, int idx);

/** selfmon_sampler__attr() - the attr event @idx was opened with, or NULL. */
const struct perf_event_attr *selfmon_sampler__attr(const struct selfmon_sampler *s, int idx);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_SAMPLER_H */
