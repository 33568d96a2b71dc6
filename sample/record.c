// SPDX-License-Identifier: MIT
/*
 * The PERF_RECORD_* parser: one record of a perf ring buffer (or a copy of
 * one) into struct selfmon_record. Layouts: perf_event_open(2), "MMAP
 * layout", and the kernel's enum perf_event_type in
 * include/uapi/linux/perf_event.h (one comment per PERF_RECORD_*);
 * SAMPLE's body is in record_sample.c.
 *
 * Everything is read through a cursor that knows where the record ends
 * (header.size, never beyond the caller's length), so a malformed record
 * costs an error and never an out-of-bounds read. The kernel writes every
 * record, and every variable part inside one, in multiples of 8 bytes
 * (header.size; RAW's size + 4; STACK_USER's and AUX's size; strings
 * NUL-padded); the parser insists on it, so the u64 arrays it hands out
 * are aligned. Sizes are exact: bytes left over mean the record is not
 * what the layout says, which is an error, not something to skip over.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../core/error.h"
#include "cursor.h"
#include "record.h"

/* The rest of the body is a NUL-padded string (kernel pads to 8 bytes). */
static int string(struct selfmon_cursor *c, const char **s, const char *field)
{
	size_t left = (size_t)(c->end - c->p);

	if (!left || !memchr(c->p, '\0', left))
		return record_err(-EBADMSG,
				  "PERF_RECORD_%s: string '%s' has no NUL within the "
				  "%zu bytes before header.size: the record is malformed",
				  selfmon_record__name(c->type), field, left);
	*s = (const char *)c->p;
	c->p = c->end;
	return 0;
}

/* The sample_id trailer's bytes: perf_event_type-records.txt, PERF_RECORD_MMAP (sample_id). */
static size_t sample_id_size(uint64_t t)
{
	static const uint64_t words = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
				      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
				      PERF_SAMPLE_IDENTIFIER;

	return 8 * (size_t)__builtin_popcountll(t & words);
}

#define ID_WORD(bit, m, name)                                                     \
	{                                                                         \
		PERF_SAMPLE_##bit, offsetof(struct selfmon_sample_id, m), 0, name \
	}

/* The sample_id trailer: its words in the order perf_event_open(2) gives them. */
static const struct selfmon_cursor_word sample_id_words[] = {
	{ PERF_SAMPLE_TID, offsetof(struct selfmon_sample_id, pid),
	  offsetof(struct selfmon_sample_id, tid), "sample_id.pid, tid" },
	ID_WORD(TIME, time, "sample_id.time"),
	ID_WORD(ID, id, "sample_id.id"),
	ID_WORD(STREAM_ID, stream_id, "sample_id.stream_id"),
	{ PERF_SAMPLE_CPU, offsetof(struct selfmon_sample_id, cpu),
	  offsetof(struct selfmon_sample_id, res), "sample_id.cpu, res" },
	ID_WORD(IDENTIFIER, id, "sample_id.id (IDENTIFIER)"),
};

static int sample_id_trailer(struct selfmon_cursor *c, struct selfmon_sample_id *id)
{
	return selfmon_cursor__words(c, c->l->sample_type, id, sample_id_words,
				     sizeof(sample_id_words) / sizeof(sample_id_words[0]));
}

/*
 * The bodies of the side-band records, perf_event_open(2) "MMAP layout", one
 * per PERF_RECORD_* type; the sample_id trailer is already cut off.
 */
static int mmap_head(struct selfmon_cursor *c, struct selfmon_record_mmap *m)
{
	int err = selfmon_cursor__u32x2(c, &m->pid, &m->tid, "pid, tid");

	if (!err)
		err = selfmon_cursor__u64(c, &m->addr, "addr");
	if (!err)
		err = selfmon_cursor__u64(c, &m->len, "len");
	if (!err)
		err = selfmon_cursor__u64(c, &m->pgoff, "pgoff");
	return err;
}

static int rec_mmap(struct selfmon_cursor *c, struct selfmon_record *r)
{
	int err = mmap_head(c, &r->mmap);

	return err ? err : string(c, &r->mmap.filename, "filename");
}

/* MMAP2: maj/min/ino/ino_generation, or a build id with PERF_RECORD_MISC_MMAP_BUILD_ID. */
static int rec_mmap2(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_mmap *m = &r->mmap;
	const uint8_t *id = NULL;
	int err = mmap_head(c, m);

	if (!err && (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		err = selfmon_cursor__take(c, 24, (const void **)&id, "build_id");
		if (!err && id[0] > 20)
			return record_err(-EBADMSG,
					  "PERF_RECORD_MMAP2: build_id_size %u is over 20: "
					  "the record is malformed",
					  id[0]);
		if (!err) {
			m->build_id_size = id[0];
			m->build_id = id + 4;
		}
	} else if (!err) {
		err = selfmon_cursor__u32x2(c, &m->maj, &m->min, "maj, min");
		if (!err)
			err = selfmon_cursor__u64(c, &m->ino, "ino");
		if (!err)
			err = selfmon_cursor__u64(c, &m->ino_generation, "ino_generation");
	}
	if (!err)
		err = selfmon_cursor__u32x2(c, &m->prot, &m->flags, "prot, flags");
	return err ? err : string(c, &m->filename, "filename");
}

static int rec_lost(struct selfmon_cursor *c, struct selfmon_record *r)
{
	int err = selfmon_cursor__u64(c, &r->lost.id, "id");

	return err ? err : selfmon_cursor__u64(c, &r->lost.lost, "lost");
}

static int rec_comm(struct selfmon_cursor *c, struct selfmon_record *r)
{
	int err = selfmon_cursor__u32x2(c, &r->comm.pid, &r->comm.tid, "pid, tid");

	return err ? err : string(c, &r->comm.comm, "comm");
}

/* EXIT and FORK. */
static int rec_task(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_task *t = &r->task;
	int err = selfmon_cursor__u32x2(c, &t->pid, &t->ppid, "pid, ppid");

	if (!err)
		err = selfmon_cursor__u32x2(c, &t->tid, &t->ptid, "tid, ptid");
	return err ? err : selfmon_cursor__u64(c, &t->time, "time");
}

/* Three u64 words in a row, @v[i] named @field[i]: THROTTLE's and AUX's bodies. */
static int u64x3(struct selfmon_cursor *c, uint64_t *const v[3], const char *const field[3])
{
	int err = 0;

	for (int i = 0; i < 3 && !err; i++)
		err = selfmon_cursor__u64(c, v[i], field[i]);
	return err;
}

/* THROTTLE and UNTHROTTLE. */
static int rec_throttle(struct selfmon_cursor *c, struct selfmon_record *r)
{
	static const char *const field[3] = { "time", "id", "stream_id" };
	uint64_t *const v[3] = { &r->throttle.time, &r->throttle.id, &r->throttle.stream_id };

	return u64x3(c, v, field);
}

static int rec_read(struct selfmon_cursor *c, struct selfmon_record *r)
{
	int err = selfmon_cursor__u32x2(c, &r->read.pid, &r->read.tid, "pid, tid");

	return err ? err : selfmon_record__read_format(c, &r->read.values);
}

static int rec_sample(struct selfmon_cursor *c, struct selfmon_record *r)
{
	return selfmon_record__sample(c, &r->sample);
}

static int rec_aux(struct selfmon_cursor *c, struct selfmon_record *r)
{
	static const char *const field[3] = { "aux_offset", "aux_size", "flags" };
	uint64_t *const v[3] = { &r->aux.aux_offset, &r->aux.aux_size, &r->aux.flags };

	return u64x3(c, v, field);
}

static int rec_itrace_start(struct selfmon_cursor *c, struct selfmon_record *r)
{
	return selfmon_cursor__u32x2(c, &r->itrace_start.pid, &r->itrace_start.tid, "pid, tid");
}

static int rec_lost_samples(struct selfmon_cursor *c, struct selfmon_record *r)
{
	return selfmon_cursor__u64(c, &r->lost_samples.lost, "lost");
}

static int rec_switch(struct selfmon_cursor *c, struct selfmon_record *r)
{
	(void)c;
	(void)r;
	return 0;
}

static int rec_switch_cpu_wide(struct selfmon_cursor *c, struct selfmon_record *r)
{
	return selfmon_cursor__u32x2(c, &r->switch_cpu_wide.next_prev_pid,
				     &r->switch_cpu_wide.next_prev_tid,
				     "next_prev_pid, next_prev_tid");
}

static int rec_namespaces(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_namespaces *n = &r->namespaces;
	int err = selfmon_cursor__u32x2(c, &n->pid, &n->tid, "pid, tid");

	if (!err)
		err = selfmon_cursor__u64(c, &n->nr, "nr_namespaces");
	return err ? err :
		     selfmon_cursor__array(c, n->nr, 16, (const void **)&n->dev_inode,
					   "namespaces");
}

/* An addr word, then @n bytes of packed smaller fields (@what) at *@p: KSYMBOL's, TEXT_POKE's. */
static int addr_then_packed(struct selfmon_cursor *c, uint64_t *addr, size_t n, const uint8_t **p,
			    const char *what)
{
	int err = selfmon_cursor__u64(c, addr, "addr");

	return err ? err : selfmon_cursor__take(c, n, (const void **)p, what);
}

static int rec_ksymbol(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_ksymbol *k = &r->ksymbol;
	const uint8_t *p = NULL;
	int err = addr_then_packed(c, &k->addr, 8, &p, "len, ksym_type, flags");

	if (err)
		return err;
	memcpy(&k->len, p, 4);
	memcpy(&k->ksym_type, p + 4, 2);
	memcpy(&k->flags, p + 6, 2);
	return string(c, &k->name, "name");
}

static int rec_bpf_event(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_bpf_event *b = &r->bpf_event;
	const uint8_t *p = NULL;
	int err = selfmon_cursor__take(c, 8, (const void **)&p, "type, flags, id");

	if (err)
		return err;
	memcpy(&b->type, p, 2);
	memcpy(&b->flags, p + 2, 2);
	memcpy(&b->id, p + 4, 4);
	return selfmon_cursor__take(c, 8, (const void **)&b->tag, "tag");
}

static int rec_cgroup(struct selfmon_cursor *c, struct selfmon_record *r)
{
	int err = selfmon_cursor__u64(c, &r->cgroup.id, "id");

	return err ? err : string(c, &r->cgroup.path, "path");
}

/* TEXT_POKE: old bytes then new ones, padded so that the u16s and bytes fill whole words. */
static int rec_text_poke(struct selfmon_cursor *c, struct selfmon_record *r)
{
	struct selfmon_record_text_poke *t = &r->text_poke;
	const uint8_t *p = NULL;
	size_t n;
	int err = addr_then_packed(c, &t->addr, 4, &p, "old_len, new_len");

	if (err)
		return err;
	memcpy(&t->old_len, p, 2);
	memcpy(&t->new_len, p + 2, 2);
	n = (size_t)t->old_len + t->new_len;
	err = selfmon_cursor__take(c, n, (const void **)&t->bytes, "bytes");
	if (!err && (size_t)(c->end - c->p) >= 8)
		return selfmon_cursor__left_over(c);
	c->p = c->end; /* the padding */
	return err;
}

static int rec_aux_output_hw_id(struct selfmon_cursor *c, struct selfmon_record *r)
{
	return selfmon_cursor__u64(c, &r->aux_output_hw_id.hw_id, "hw_id");
}

typedef int (*record_fn)(struct selfmon_cursor *c, struct selfmon_record *r);

static const record_fn record_fns[] = {
	[PERF_RECORD_MMAP] = rec_mmap,
	[PERF_RECORD_LOST] = rec_lost,
	[PERF_RECORD_COMM] = rec_comm,
	[PERF_RECORD_EXIT] = rec_task,
	[PERF_RECORD_THROTTLE] = rec_throttle,
	[PERF_RECORD_UNTHROTTLE] = rec_throttle,
	[PERF_RECORD_FORK] = rec_task,
	[PERF_RECORD_READ] = rec_read,
	[PERF_RECORD_SAMPLE] = rec_sample,
	[PERF_RECORD_MMAP2] = rec_mmap2,
	[PERF_RECORD_AUX] = rec_aux,
	[PERF_RECORD_ITRACE_START] = rec_itrace_start,
	[PERF_RECORD_LOST_SAMPLES] = rec_lost_samples,
	[PERF_RECORD_SWITCH] = rec_switch,
	[PERF_RECORD_SWITCH_CPU_WIDE] = rec_switch_cpu_wide,
	[PERF_RECORD_NAMESPACES] = rec_namespaces,
	[PERF_RECORD_KSYMBOL] = rec_ksymbol,
	[PERF_RECORD_BPF_EVENT] = rec_bpf_event,
	[PERF_RECORD_CGROUP] = rec_cgroup,
	[PERF_RECORD_TEXT_POKE] = rec_text_poke,
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = rec_aux_output_hw_id,
};

/*
 * perf_event_type-records.txt, sample_id: with sample_id_all every record
 * but SAMPLE ends in it; read it from the end and leave the body before it.
 */
static int trailer(struct selfmon_cursor *c, struct selfmon_sample_id *id)
{
	size_t size = sample_id_size(c->l->sample_type);
	struct selfmon_cursor t = *c;

	if ((size_t)(c->end - c->p) < size)
		return selfmon_cursor__malformed(c, "sample_id", size);
	t.p = c->end - size;
	c->end = t.p;
	return sample_id_trailer(&t, id);
}

/* The header: readable, a whole number of words, inside @len. */
static int header(const void *buf, size_t len, struct selfmon_record *rec)
{
	struct perf_event_header h;

	if (len < sizeof(h))
		return record_err(-EBADMSG,
				  "record: %zu bytes cannot hold a perf_event_header (8): "
				  "the buffer ends inside one",
				  len);
	memcpy(&h, buf, sizeof(h));
	rec->type = h.type;
	rec->misc = h.misc;
	rec->size = h.size;
	if (h.size < sizeof(h) || h.size % 8)
		return record_err(-EBADMSG,
				  "PERF_RECORD_%s (type %u): header.size %u is not a "
				  "multiple of 8 of at least 8: the stream is corrupt and cannot "
				  "be walked further",
				  selfmon_record__name(h.type), h.type, h.size);
	if (h.size > len)
		return record_err(-EBADMSG,
				  "PERF_RECORD_%s: header.size %u runs past the %zu bytes "
				  "given: the record is truncated",
				  selfmon_record__name(h.type), h.size, len);
	if (h.type == 0 || h.type > RECORD_LAST)
		return record_err(-ENOMSG,
				  "record type %u is unknown to this selfmon (a newer "
				  "kernel's?): skip its %u bytes",
				  h.type, h.size);
	return 0;
}

void selfmon_record_layout__from_attr(struct selfmon_record_layout *layout,
				      const struct perf_event_attr *attr)
{
	memset(layout, 0, sizeof(*layout));
	layout->sample_type = attr->sample_type;
	layout->read_format = attr->read_format;
	layout->branch_sample_type = attr->branch_sample_type;
	layout->regs_user_nr = (uint32_t)__builtin_popcountll(attr->sample_regs_user);
	layout->regs_intr_nr = (uint32_t)__builtin_popcountll(attr->sample_regs_intr);
	layout->sample_id_all = attr->sample_id_all;
}

int selfmon_record__parse(const void *buf, size_t len, const struct selfmon_record_layout *layout,
			  struct selfmon_record *rec)
{
	struct selfmon_cursor c = { .l = layout };
	int err;

	if (!buf || !layout || !rec || (uintptr_t)buf % 8)
		return record_err(-EINVAL, "selfmon_record__parse: %s",
				  !buf || !layout || !rec ?
					  "a NULL argument" :
					  "the buffer is not 8-byte aligned: copy the "
					  "record to an aligned one");
	memset(rec, 0, sizeof(*rec));
	err = header(buf, len, rec);
	rec->data = err ? NULL : buf; /* header.size bytes lie within @len */
	if (err)
		goto out;
	c.type = rec->type;
	c.p = (const uint8_t *)buf + sizeof(struct perf_event_header);
	c.end = (const uint8_t *)buf + rec->size;
	if (rec->type != PERF_RECORD_SAMPLE && layout->sample_id_all) {
		err = trailer(&c, &rec->sample_id);
		rec->has_sample_id = true;
	}
	if (!err)
		err = record_fns[rec->type](&c, rec);
	if (!err && c.p != c.end)
		err = selfmon_cursor__left_over(&c);
	if (!err && !selfmon_record__quiet)
		selfmon__err_clear();
out:
	return err;
}
