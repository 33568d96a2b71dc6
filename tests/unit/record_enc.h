/* SPDX-License-Identifier: MIT */
/*
 * A test encoder of PERF_RECORD_* records: writes what the kernel writes,
 * from the same structs the parser fills, so that a test can compare the
 * parser's output with the encoder's input. Layouts: perf_event_open(2),
 * "MMAP layout"; the kernel's enum perf_event_type (include/uapi/linux/perf_event.h).
 * Shared by the unit tests and the fuzz seed generator.
 */
#ifndef SELFMON_TESTS_RECORD_ENC_H
#define SELFMON_TESTS_RECORD_ENC_H

#include <stdint.h>
#include <string.h>

#include <selfmon/sample.h>

#define REC_ENC_WORDS 1024

struct rec_enc {
	uint64_t w[REC_ENC_WORDS];	/* u64: the record is 8-byte aligned */
	size_t len;			/* bytes written, header included */
};

static inline void enc_begin(struct rec_enc *e)
{
	memset(e->w, 0, sizeof(e->w));
	e->len = sizeof(struct perf_event_header);
}

static inline void enc_put(struct rec_enc *e, const void *p, size_t n)
{
	if (n)
		memcpy((char *)e->w + e->len, p, n);
	e->len += n;
}

/* Zeros up to the next multiple of 8, as the kernel pads. */
static inline void enc_pad(struct rec_enc *e)
{
	while (e->len % 8)
		((char *)e->w)[e->len++] = 0;
}

static inline void enc_u64(struct rec_enc *e, uint64_t v)
{
	enc_put(e, &v, 8);
}

static inline void enc_u32x2(struct rec_enc *e, uint32_t a, uint32_t b)
{
	enc_put(e, &a, 4);
	enc_put(e, &b, 4);
}

/* A NUL-terminated string, padded to 8 bytes with NULs (at least one). */
static inline void enc_str(struct rec_enc *e, const char *s)
{
	enc_put(e, s, strlen(s) + 1);
	enc_pad(e);
}

static inline void enc_end(struct rec_enc *e, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)e->len };

	memcpy(e->w, &h, sizeof(h));
}

static inline void enc_sample_id(struct rec_enc *e, const struct selfmon_record_layout *l,
				 const struct selfmon_sample_id *id)
{
	uint64_t t = l->sample_type;

	if (!l->sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID)
		enc_u32x2(e, id->pid, id->tid);
	if (t & PERF_SAMPLE_TIME)
		enc_u64(e, id->time);
	if (t & PERF_SAMPLE_ID)
		enc_u64(e, id->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		enc_u64(e, id->stream_id);
	if (t & PERF_SAMPLE_CPU)
		enc_u32x2(e, id->cpu, id->res);
	if (t & PERF_SAMPLE_IDENTIFIER)
		enc_u64(e, id->id);
}

static inline void enc_read(struct rec_enc *e, uint64_t f, const struct selfmon_record_read *r)
{
	if (f & PERF_FORMAT_GROUP)
		enc_u64(e, r->nr);
	else
		enc_u64(e, r->single.value);
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		enc_u64(e, r->time_enabled);
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		enc_u64(e, r->time_running);
	if (f & PERF_FORMAT_GROUP) {
		enc_put(e, r->entries, 8 * r->nr * r->stride);
		return;
	}
	if (f & PERF_FORMAT_ID)
		enc_u64(e, r->single.id);
	if (f & PERF_FORMAT_LOST)
		enc_u64(e, r->single.lost);
}

static inline void enc_regs(struct rec_enc *e, const struct selfmon_record_regs *r)
{
	enc_u64(e, r->abi);
	if (r->abi != PERF_SAMPLE_REGS_ABI_NONE)
		enc_put(e, r->regs, 8 * r->nr);
}

static inline void enc_sample_head(struct rec_enc *e, uint64_t t, const struct selfmon_sample *s)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		enc_u64(e, s->id);
	if (t & PERF_SAMPLE_IP)
		enc_u64(e, s->ip);
	if (t & PERF_SAMPLE_TID)
		enc_u32x2(e, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		enc_u64(e, s->time);
	if (t & PERF_SAMPLE_ADDR)
		enc_u64(e, s->addr);
	if (t & PERF_SAMPLE_ID)
		enc_u64(e, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		enc_u64(e, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		enc_u32x2(e, s->cpu, s->res);
	if (t & PERF_SAMPLE_PERIOD)
		enc_u64(e, s->period);
}

/* PERF_RECORD_SAMPLE in perf_event_open(2)'s order (the kernel's perf_output_sample()). */
static inline void enc_sample(struct rec_enc *e, const struct selfmon_record_layout *l,
			      const struct selfmon_sample *s)
{
	uint64_t t = l->sample_type;

	enc_begin(e);
	enc_sample_head(e, t, s);
	if (t & PERF_SAMPLE_READ)
		enc_read(e, l->read_format, &s->read);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		enc_u64(e, s->callchain_nr);
		enc_put(e, s->callchain, 8 * s->callchain_nr);
	}
	if (t & PERF_SAMPLE_RAW) {
		enc_put(e, &s->raw_size, 4);
		enc_put(e, s->raw, s->raw_size);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		enc_u64(e, s->branch_nr);
		if (l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			enc_u64(e, s->branch_hw_idx);
		enc_put(e, s->branches, sizeof(struct perf_branch_entry) * s->branch_nr);
	}
	if (t & PERF_SAMPLE_REGS_USER)
		enc_regs(e, &s->regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		enc_u64(e, s->stack_size);
		enc_put(e, s->stack, s->stack_size);
		if (s->stack_size)
			enc_u64(e, s->stack_dyn_size);
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		enc_u64(e, s->weight.full);
	if (t & PERF_SAMPLE_DATA_SRC)
		enc_u64(e, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		enc_u64(e, s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR)
		enc_regs(e, &s->regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		enc_u64(e, s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		enc_u64(e, s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		enc_u64(e, s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		enc_u64(e, s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		enc_u64(e, s->aux_size);
		enc_put(e, s->aux, s->aux_size);
	}
	enc_end(e, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

static inline void enc_mmap(struct rec_enc *e, uint32_t type, uint16_t misc,
			    const struct selfmon_record_mmap *m)
{
	enc_u32x2(e, m->pid, m->tid);
	enc_u64(e, m->addr);
	enc_u64(e, m->len);
	enc_u64(e, m->pgoff);
	if (type == PERF_RECORD_MMAP2 && (misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		uint8_t b[24] = { m->build_id_size };

		memcpy(b + 4, m->build_id, 20);
		enc_put(e, b, sizeof(b));
	} else if (type == PERF_RECORD_MMAP2) {
		enc_u32x2(e, m->maj, m->min);
		enc_u64(e, m->ino);
		enc_u64(e, m->ino_generation);
	}
	if (type == PERF_RECORD_MMAP2)
		enc_u32x2(e, m->prot, m->flags);
	enc_str(e, m->filename);
}

static inline void enc_small(struct rec_enc *e, const void *a, size_t an, const void *b, size_t bn,
			     const void *c, size_t cn)
{
	enc_put(e, a, an);
	enc_put(e, b, bn);
	enc_put(e, c, cn);
}

/* The body of a side-band record: perf_event_open(2), "MMAP layout", by type. */
static inline void enc_body(struct rec_enc *e, const struct selfmon_record_layout *l,
			    const struct selfmon_record *r)
{
	switch (r->type) {
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2:
		enc_mmap(e, r->type, r->misc, &r->mmap);
		break;
	case PERF_RECORD_LOST:
		enc_u64(e, r->lost.id);
		enc_u64(e, r->lost.lost);
		break;
	case PERF_RECORD_COMM:
		enc_u32x2(e, r->comm.pid, r->comm.tid);
		enc_str(e, r->comm.comm);
		break;
	case PERF_RECORD_EXIT: case PERF_RECORD_FORK:
		enc_u32x2(e, r->task.pid, r->task.ppid);
		enc_u32x2(e, r->task.tid, r->task.ptid);
		enc_u64(e, r->task.time);
		break;
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		enc_u64(e, r->throttle.time);
		enc_u64(e, r->throttle.id);
		enc_u64(e, r->throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		enc_u32x2(e, r->read.pid, r->read.tid);
		enc_read(e, l->read_format, &r->read.values);
		break;
	case PERF_RECORD_AUX:
		enc_u64(e, r->aux.aux_offset);
		enc_u64(e, r->aux.aux_size);
		enc_u64(e, r->aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		enc_u32x2(e, r->itrace_start.pid, r->itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		enc_u64(e, r->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		enc_u32x2(e, r->switch_cpu_wide.next_prev_pid, r->switch_cpu_wide.next_prev_tid);
		break;
	case PERF_RECORD_NAMESPACES:
		enc_u32x2(e, r->namespaces.pid, r->namespaces.tid);
		enc_u64(e, r->namespaces.nr);
		enc_put(e, r->namespaces.dev_inode, 16 * r->namespaces.nr);
		break;
	case PERF_RECORD_KSYMBOL:
		enc_u64(e, r->ksymbol.addr);
		enc_small(e, &r->ksymbol.len, 4, &r->ksymbol.ksym_type, 2, &r->ksymbol.flags, 2);
		enc_str(e, r->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		enc_small(e, &r->bpf_event.type, 2, &r->bpf_event.flags, 2, &r->bpf_event.id, 4);
		enc_put(e, r->bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		enc_u64(e, r->cgroup.id);
		enc_str(e, r->cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		enc_u64(e, r->text_poke.addr);
		enc_small(e, &r->text_poke.old_len, 2, &r->text_poke.new_len, 2, r->text_poke.bytes,
			  (size_t)r->text_poke.old_len + r->text_poke.new_len);
		enc_pad(e);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		enc_u64(e, r->aux_output_hw_id.hw_id);
		break;
	default:	/* SWITCH: no body */
		break;
	}
}

/* Any record: a SAMPLE from r->sample, else the body and the sample_id trailer. */
static inline void enc_record(struct rec_enc *e, const struct selfmon_record_layout *l,
			      const struct selfmon_record *r)
{
	if (r->type == PERF_RECORD_SAMPLE) {
		enc_sample(e, l, &r->sample);
		return;
	}
	enc_begin(e);
	enc_body(e, l, r);
	enc_sample_id(e, l, &r->sample_id);
	enc_end(e, r->type, r->misc);
}

#endif
