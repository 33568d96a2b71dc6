// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: a stream of PERF_RECORD_* records (selfmon_record__parse)
 * walked as the sampler's drain walks a ring. The first 12 bytes choose the
 * layout: u64 sample_type, u8 read_format, u8 flags (bit 0 sample_id_all,
 * bit 1 PERF_SAMPLE_BRANCH_HW_INDEX), u8 and u8 register counts (user,
 * intr); the rest is the records, copied to an aligned heap buffer of
 * exactly that size so that ASan sees any read past it.
 *
 * A record that parses must keep every pointer it returns inside itself,
 * and its counts must fit its header.size; the walk must end. A SAMPLE the
 * drain's fast path would take (sample/record.h, selfmon_sample_plan: the
 * layout's one size) must parse, and the fast path must give the same bytes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/sample.h>
#include "../../sample/record.h"

#define LAYOUT_BYTES 12

static void inside(const void *p, size_t n, const uint8_t *rec, size_t size)
{
	const uint8_t *b = p;

	if (!n)
		return;
	if (!b || b < rec + sizeof(struct perf_event_header) || b > rec + size ||
	    n > (size_t)(rec + size - b))
		abort();
}

static void check_sample(const struct selfmon_sample *s, const uint8_t *rec, size_t size)
{
	const struct selfmon_record_read *r = &s->read;
	struct selfmon_read_entry e;

	if (r->read_format & PERF_FORMAT_GROUP)
		inside(r->entries, r->nr * r->stride * 8, rec, size);
	for (uint64_t i = 0; i < r->nr && i < 4; i++)
		if (selfmon_record_read__entry(r, i, &e))
			abort();
	inside(s->callchain, s->callchain_nr * 8, rec, size);
	inside(s->raw, s->raw_size, rec, size);
	inside(s->branches, s->branch_nr * sizeof(*s->branches), rec, size);
	inside(s->regs_user.regs, s->regs_user.nr * 8ul, rec, size);
	inside(s->regs_intr.regs, s->regs_intr.nr * 8ul, rec, size);
	inside(s->stack, s->stack_size, rec, size);
	inside(s->aux, s->aux_size, rec, size);
	if (s->stack_dyn_size > s->stack_size)
		abort();
}

static void check(const struct selfmon_record *r, const uint8_t *rec)
{
	const char *str = NULL;

	switch (r->type) {
	case PERF_RECORD_SAMPLE: check_sample(&r->sample, rec, r->size); break;
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2:
		str = r->mmap.filename;
		inside(r->mmap.build_id, r->mmap.build_id_size, rec, r->size);
		break;
	case PERF_RECORD_COMM: str = r->comm.comm; break;
	case PERF_RECORD_KSYMBOL: str = r->ksymbol.name; break;
	case PERF_RECORD_CGROUP: str = r->cgroup.path; break;
	case PERF_RECORD_NAMESPACES:
		inside(r->namespaces.dev_inode, r->namespaces.nr * 16, rec, r->size);
		break;
	case PERF_RECORD_TEXT_POKE:
		inside(r->text_poke.bytes, (size_t)r->text_poke.old_len + r->text_poke.new_len,
		       rec, r->size);
		break;
	}
	if (str)	/* the NUL lies inside the record */
		inside(str, strlen(str) + 1, rec, r->size);
}

static void check_plan(const struct selfmon_sample_plan *p, const uint8_t *buf, size_t left,
		       const struct selfmon_record *rec, int err)
{
	struct selfmon_record fast;

	if (!p->size || left < sizeof(struct perf_event_header) || rec->type != PERF_RECORD_SAMPLE ||
	    rec->size != p->size || rec->size > left)
		return;
	if (err)	/* the fast path would hand on what the parser refuses */
		abort();
	memset(&fast, 0, sizeof(fast));
	selfmon_sample_plan__parse(p, buf, &fast);
	if (memcmp(&fast, rec, sizeof(fast)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct selfmon_record_layout l = { 0 };
	struct selfmon_sample_plan plan;
	struct selfmon_record rec;
	uint8_t *buf;
	size_t off = 0, len;

	if (size < LAYOUT_BYTES)
		return 0;
	memcpy(&l.sample_type, data, 8);
	l.read_format = data[8] & (PERF_FORMAT_MAX - 1);
	l.sample_id_all = data[9] & 1;
	l.branch_sample_type = (data[9] & 2) ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
	l.regs_user_nr = data[10] % 65;
	l.regs_intr_nr = data[11] % 65;
	selfmon_sample_plan__init(&plan, &l);
	len = size - LAYOUT_BYTES;
	buf = malloc(len ? len : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + LAYOUT_BYTES, len);
	while (off < len) {
		int err = selfmon_record__parse(buf + off, len - off, &l, &rec);

		check_plan(&plan, buf + off, len - off, &rec, err);
		if (!err)
			check(&rec, buf + off);
		else if (err != -EBADMSG && err != -ENOMSG)
			abort();
		if (rec.size < 8 || rec.size % 8 || rec.size > len - off)
			break;	/* the stream cannot be walked further */
		off += rec.size;
	}
	free(buf);
	return 0;
}
