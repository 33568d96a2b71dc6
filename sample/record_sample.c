// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_SAMPLE's body and struct read_format, in the order of
 * perf_event_open(2), "MMAP layout", PERF_RECORD_SAMPLE, and of
 * the kernel's enum perf_event_type (include/uapi/linux/perf_event.h),
 * PERF_RECORD_SAMPLE.
 * Each field is there when its PERF_SAMPLE_* bit is; the cursor
 * (record.h) bounds every read.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "../core/error.h"
#include "cursor.h"
#include "record.h"

/* perf_event_open(2), "Reading results": struct read_format. */
int selfmon_record__read_format(struct selfmon_cursor *c, struct selfmon_record_read *r)
{
	uint64_t f = c->l->read_format;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->read_format = f;
	r->nr = 1;
	if (f & PERF_FORMAT_GROUP) {
		r->stride = 1 + !!(f & PERF_FORMAT_ID) + !!(f & PERF_FORMAT_LOST);
		err = selfmon_cursor__u64(c, &r->nr, "read_format.nr");
	} else {
		err = selfmon_cursor__u64(c, &r->single.value, "read_format.value");
	}
	if (!err && (f & PERF_FORMAT_TOTAL_TIME_ENABLED))
		err = selfmon_cursor__u64(c, &r->time_enabled, "read_format.time_enabled");
	if (!err && (f & PERF_FORMAT_TOTAL_TIME_RUNNING))
		err = selfmon_cursor__u64(c, &r->time_running, "read_format.time_running");
	if (err)
		return err;
	if (f & PERF_FORMAT_GROUP)
		return selfmon_cursor__array(c, r->nr, 8 * (size_t)r->stride,
					     (const void **)&r->entries, "read_format.values");
	if (f & PERF_FORMAT_ID)
		err = selfmon_cursor__u64(c, &r->single.id, "read_format.id");
	if (!err && (f & PERF_FORMAT_LOST))
		err = selfmon_cursor__u64(c, &r->single.lost, "read_format.lost");
	return err;
}

int selfmon_record_read__entry(const struct selfmon_record_read *read, uint64_t i,
			       struct selfmon_read_entry *entry)
{
	const uint64_t *e;

	if (!read || !entry || i >= read->nr)
		return -ERANGE;
	if (!(read->read_format & PERF_FORMAT_GROUP)) {
		*entry = read->single;
		return 0;
	}
	e = read->entries + i * read->stride;
	entry->value = e[0];
	entry->id = (read->read_format & PERF_FORMAT_ID) ? e[1] : 0;
	entry->lost = (read->read_format & PERF_FORMAT_LOST) ? e[read->stride - 1] : 0;
	return 0;
}

/* REGS_USER / REGS_INTR: an abi word, then the registers unless abi is NONE. */
static int regs(struct selfmon_cursor *c, uint32_t nr, struct selfmon_record_regs *r,
		const char *field)
{
	int err = selfmon_cursor__u64(c, &r->abi, field);

	if (err || r->abi == PERF_SAMPLE_REGS_ABI_NONE)
		return err;
	r->nr = nr;
	return selfmon_cursor__array(c, nr, 8, (const void **)&r->regs, field);
}

/* A size word and that many bytes, which keep the record 8-byte aligned. */
static int sized_blob(struct selfmon_cursor *c, uint64_t *size, const void **data,
		      const char *field)
{
	int err = selfmon_cursor__u64(c, size, field);

	if (err)
		return err;
	if (*size % 8)
		return record_err(-EBADMSG,
				  "PERF_RECORD_%s: '%s' size %llu is not a multiple of 8 "
				  "(the kernel pads it): the record is malformed",
				  selfmon_record__name(c->type), field, (unsigned long long)*size);
	return selfmon_cursor__array(c, *size, 1, data, field);
}

/* PERF_SAMPLE_RAW: u32 size, data[size], size + 4 a multiple of 8. */
static int raw(struct selfmon_cursor *c, struct selfmon_sample *s)
{
	const void *p = NULL;
	int err = selfmon_cursor__take(c, 4, &p, "raw.size");

	if (err)
		return err;
	memcpy(&s->raw_size, p, 4);
	if ((s->raw_size + 4u) % 8)
		return record_err(-EBADMSG,
				  "PERF_RECORD_SAMPLE: raw size %u + 4 is not a multiple "
				  "of 8 (the kernel pads it): the record is malformed",
				  s->raw_size);
	return selfmon_cursor__array(c, s->raw_size, 1, &s->raw, "raw.data");
}

/* PERF_SAMPLE_BRANCH_STACK: nr, hw_idx with PERF_SAMPLE_BRANCH_HW_INDEX, lbr[nr]. */
static int branch_stack(struct selfmon_cursor *c, struct selfmon_sample *s)
{
	int err = selfmon_cursor__u64(c, &s->branch_nr, "branch_stack.nr");

	if (!err && (c->l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX))
		err = selfmon_cursor__u64(c, &s->branch_hw_idx, "branch_stack.hw_idx");
	if (err)
		return err;
	return selfmon_cursor__array(c, s->branch_nr, sizeof(struct perf_branch_entry),
				     (const void **)&s->branches, "branch_stack.lbr");
}

/* PERF_SAMPLE_STACK_USER: size, data[size] and dyn_size, or a lone 0. */
static int stack_user(struct selfmon_cursor *c, struct selfmon_sample *s)
{
	int err = sized_blob(c, &s->stack_size, &s->stack, "stack_user");

	if (err || !s->stack_size)
		return err;
	err = selfmon_cursor__u64(c, &s->stack_dyn_size, "stack_user.dyn_size");
	if (!err && s->stack_dyn_size > s->stack_size)
		return record_err(-EBADMSG,
				  "PERF_RECORD_SAMPLE: stack_user.dyn_size %llu exceeds "
				  "its size %llu: the record is malformed",
				  (unsigned long long)s->stack_dyn_size,
				  (unsigned long long)s->stack_size);
	return err;
}

/* WEIGHT or WEIGHT_STRUCT: one word either way (union perf_sample_weight). */
static int weight(struct selfmon_cursor *c, struct selfmon_sample *s)
{
	uint64_t w = 0;
	int err = selfmon_cursor__u64(c, &w, "weight");

	s->weight.full = w;
	return err;
}

#define SAMPLE_WORD(bit, m, name)                                              \
	{                                                                      \
		PERF_SAMPLE_##bit, offsetof(struct selfmon_sample, m), 0, name \
	}
#define SAMPLE_WORDS(bit, a, b, name)                                  \
	{                                                              \
		PERF_SAMPLE_##bit, offsetof(struct selfmon_sample, a), \
			offsetof(struct selfmon_sample, b), name       \
	}

/* IDENTIFIER to PERIOD: the fixed words at the head of a sample. */
static const struct selfmon_cursor_word sample_head_words[] = {
	SAMPLE_WORD(IDENTIFIER, id, "id (IDENTIFIER)"),
	SAMPLE_WORD(IP, ip, "ip"),
	SAMPLE_WORDS(TID, pid, tid, "pid, tid"),
	SAMPLE_WORD(TIME, time, "time"),
	SAMPLE_WORD(ADDR, addr, "addr"),
	SAMPLE_WORD(ID, id, "id"),
	SAMPLE_WORD(STREAM_ID, stream_id, "stream_id"),
	SAMPLE_WORDS(CPU, cpu, res, "cpu, res"),
	SAMPLE_WORD(PERIOD, period, "period"),
};

static int sample_head(struct selfmon_cursor *c, uint64_t t, struct selfmon_sample *s)
{
	int err = selfmon_cursor__words(c, t, s, sample_head_words,
					sizeof(sample_head_words) / sizeof(sample_head_words[0]));

	if (!err && (t & PERF_SAMPLE_READ))
		err = selfmon_record__read_format(c, &s->read);
	if (!err && (t & PERF_SAMPLE_CALLCHAIN))
		err = selfmon_cursor__u64(c, &s->callchain_nr, "callchain.nr");
	if (!err && (t & PERF_SAMPLE_CALLCHAIN))
		err = selfmon_cursor__array(c, s->callchain_nr, 8, (const void **)&s->callchain,
					    "callchain.ips");
	return err;
}

/*
 * PERF_RECORD_SAMPLE, in the order of perf_event_open(2) "MMAP layout",
 * PERF_RECORD_SAMPLE (which is the kernel's perf_output_sample() order:
 * PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, then AUX).
 */
int selfmon_record__sample(struct selfmon_cursor *c, struct selfmon_sample *s)
{
	uint64_t t = c->l->sample_type;
	int err = sample_head(c, t, s);

	if (!err && (t & PERF_SAMPLE_RAW))
		err = raw(c, s);
	if (!err && (t & PERF_SAMPLE_BRANCH_STACK))
		err = branch_stack(c, s);
	if (!err && (t & PERF_SAMPLE_REGS_USER))
		err = regs(c, c->l->regs_user_nr, &s->regs_user, "regs_user");
	if (!err && (t & PERF_SAMPLE_STACK_USER))
		err = stack_user(c, s);
	if (!err && (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)))
		err = weight(c, s);
	if (!err && (t & PERF_SAMPLE_DATA_SRC))
		err = selfmon_cursor__u64(c, &s->data_src, "data_src");
	if (!err && (t & PERF_SAMPLE_TRANSACTION))
		err = selfmon_cursor__u64(c, &s->transaction, "transaction");
	if (!err && (t & PERF_SAMPLE_REGS_INTR))
		err = regs(c, c->l->regs_intr_nr, &s->regs_intr, "regs_intr");
	if (!err && (t & PERF_SAMPLE_PHYS_ADDR))
		err = selfmon_cursor__u64(c, &s->phys_addr, "phys_addr");
	if (!err && (t & PERF_SAMPLE_CGROUP))
		err = selfmon_cursor__u64(c, &s->cgroup, "cgroup");
	if (!err && (t & PERF_SAMPLE_DATA_PAGE_SIZE))
		err = selfmon_cursor__u64(c, &s->data_page_size, "data_page_size");
	if (!err && (t & PERF_SAMPLE_CODE_PAGE_SIZE))
		err = selfmon_cursor__u64(c, &s->code_page_size, "code_page_size");
	if (!err && (t & PERF_SAMPLE_AUX))
		err = sized_blob(c, &s->aux_size, &s->aux, "aux");
	return err;
}

/* pid/tid and cpu/res share a word, as the record's u32 pairs do. */
_Static_assert(offsetof(struct selfmon_sample, tid) == offsetof(struct selfmon_sample, pid) + 4,
	       "pid, tid: one word");
_Static_assert(offsetof(struct selfmon_sample, res) == offsetof(struct selfmon_sample, cpu) + 4,
	       "cpu, res: one word");
_Static_assert(offsetof(struct selfmon_record, type) == 0 &&
		       offsetof(struct selfmon_record, misc) == 4 &&
		       offsetof(struct selfmon_record, size) == 6,
	       "type, misc, size: a perf_event_header");

/* The head words selfmon_sample_plan__parse() tests bit by bit. */
#define HEAD_WORDS                                                                      \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD)

/*
 * The one-word fields after the variable parts, in the record's order
 * (selfmon_record__sample()); WEIGHT and WEIGHT_STRUCT are one word, either
 * or both.
 */
#define WORD(bits, field)                                    \
	{                                                    \
		bits, offsetof(struct selfmon_sample, field) \
	}
static const struct {
	uint64_t bits;
	uint16_t off;
} tail_words[] = {
	WORD(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, weight),
	WORD(PERF_SAMPLE_DATA_SRC, data_src),
	WORD(PERF_SAMPLE_TRANSACTION, transaction),
	WORD(PERF_SAMPLE_PHYS_ADDR, phys_addr),
	WORD(PERF_SAMPLE_CGROUP, cgroup),
	WORD(PERF_SAMPLE_DATA_PAGE_SIZE, data_page_size),
	WORD(PERF_SAMPLE_CODE_PAGE_SIZE, code_page_size),
};
#undef WORD
#define NR_TAIL (sizeof(tail_words) / sizeof(tail_words[0]))

void selfmon_sample_plan__init(struct selfmon_sample_plan *p, const struct selfmon_record_layout *l)
{
	uint64_t t = l->sample_type, words = HEAD_WORDS;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < NR_TAIL; i++)
		words |= tail_words[i].bits;
	if (t & ~words)
		return;
	for (size_t i = 0; i < NR_TAIL; i++)
		if (t & tail_words[i].bits)
			p->off_tail[p->nr_tail++] = tail_words[i].off;
	p->type = t;
	p->size = (uint16_t)(sizeof(struct perf_event_header) +
			     8 * ((size_t)__builtin_popcountll(t & HEAD_WORDS) + p->nr_tail));
}
