// SPDX-License-Identifier: MIT
/*
 * The cursor every PERF_RECORD_* parser reads through (record.c, and
 * record_sample.c for SAMPLE's body): it knows where the record ends, so a
 * malformed record costs an error naming the field, never a read past it.
 * The record type names its messages give live here too.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../core/error.h"
#include "cursor.h"

_Thread_local volatile int selfmon_record__quiet;

static const char *const record_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
};

const char *selfmon_record__name(uint32_t type)
{
	if (type == 0 || type > RECORD_LAST)
		return "unknown";
	return record_names[type];
}

int selfmon_cursor__malformed(const struct selfmon_cursor *c, const char *field, size_t need)
{
	return record_err(-EBADMSG,
			  "PERF_RECORD_%s: field '%s' needs %zu bytes, %zu are left "
			  "before header.size: the record is malformed, or the layout "
			  "(sample_type 0x%llx, read_format 0x%llx, sample_id_all %d) is not "
			  "the one its event was opened with",
			  selfmon_record__name(c->type), field, need, (size_t)(c->end - c->p),
			  (unsigned long long)c->l->sample_type,
			  (unsigned long long)c->l->read_format, c->l->sample_id_all);
}

/* Bytes left where the layout says the record ends. */
int selfmon_cursor__left_over(const struct selfmon_cursor *c)
{
	return record_err(-EBADMSG,
			  "PERF_RECORD_%s: %zu bytes left over after the last field "
			  "the layout names: the record is malformed, or the layout (sample_type "
			  "0x%llx, read_format 0x%llx, sample_id_all %d) is not the one its event "
			  "was opened with",
			  selfmon_record__name(c->type), (size_t)(c->end - c->p),
			  (unsigned long long)c->l->sample_type,
			  (unsigned long long)c->l->read_format, c->l->sample_id_all);
}

/* Take @n bytes at the cursor into *@out; -EBADMSG past the end. */
int selfmon_cursor__take(struct selfmon_cursor *c, size_t n, const void **out, const char *field)
{
	if ((size_t)(c->end - c->p) < n)
		return selfmon_cursor__malformed(c, field, n);
	*out = c->p;
	c->p += n;
	return 0;
}

int selfmon_cursor__u64(struct selfmon_cursor *c, uint64_t *v, const char *field)
{
	const void *p = NULL;
	int err = selfmon_cursor__take(c, 8, &p, field);

	if (!err)
		memcpy(v, p, 8);
	return err;
}

/* Two u32 that share a word: pid/tid, cpu/res, ... */
int selfmon_cursor__u32x2(struct selfmon_cursor *c, uint32_t *a, uint32_t *b, const char *field)
{
	const uint8_t *p = NULL;
	int err = selfmon_cursor__take(c, 8, (const void **)&p, field);

	if (!err) {
		memcpy(a, p, 4);
		memcpy(b, p + 4, 4);
	}
	return err;
}

/* An array of @nr items of @size bytes, @nr from the record: no overflow. */
int selfmon_cursor__array(struct selfmon_cursor *c, uint64_t nr, size_t size, const void **out,
			  const char *field)
{
	size_t left = (size_t)(c->end - c->p);

	if (nr > left / size)
		return record_err(-EBADMSG,
				  "PERF_RECORD_%s: field '%s' says %llu entries of %zu "
				  "bytes, only %zu bytes are left before header.size: the record "
				  "is malformed",
				  selfmon_record__name(c->type), field, (unsigned long long)nr,
				  size, left);
	return selfmon_cursor__take(c, (size_t)nr * size, out, field);
}

int selfmon_cursor__words(struct selfmon_cursor *c, uint64_t type, void *dst,
			  const struct selfmon_cursor_word *words, size_t nr)
{
	char *base = dst;
	int err = 0;

	for (size_t i = 0; i < nr && !err; i++) {
		const struct selfmon_cursor_word *w = &words[i];

		if (!(type & w->bit))
			continue;
		if (w->off2)
			err = selfmon_cursor__u32x2(c, (uint32_t *)(base + w->off),
						    (uint32_t *)(base + w->off2), w->field);
		else
			err = selfmon_cursor__u64(c, (uint64_t *)(base + w->off), w->field);
	}
	return err;
}
