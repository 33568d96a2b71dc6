/* SPDX-License-Identifier: MIT */
/*
 * selfmon sampling: the records a perf event writes into its ring buffer,
 * parsed into typed structs.
 *
 * The record layouts are those of perf_event_open(2), "MMAP layout" (the
 * PERF_RECORD_* types) and the kernel's enum perf_event_type. The parser is
 * a pure function: no I/O, no allocation. Variable-size parts (strings,
 * call chains, register dumps, raw data) are returned as pointers into the
 * record, valid as long as the record's bytes are.
 */
#ifndef SELFMON_SAMPLE_H
#define SELFMON_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What the parser must know of the attr that wrote the records: the layout of
 * a SAMPLE and of the sample_id trailer depend on it, and records do not say.
 */
struct selfmon_record_layout {
	uint64_t sample_type; /**< PERF_SAMPLE_* bits */
	uint64_t read_format; /**< PERF_FORMAT_* bits (PERF_SAMPLE_READ, PERF_RECORD_READ) */
	uint64_t branch_sample_type; /**< PERF_SAMPLE_BRANCH_*: HW_INDEX adds hw_idx */
	uint32_t regs_user_nr; /**< popcount of attr.sample_regs_user */
	uint32_t regs_intr_nr; /**< popcount of attr.sample_regs_intr */
	bool sample_id_all; /**< attr.sample_id_all: non-SAMPLE records end in a sample_id */
};

/**
 * selfmon_record_layout__from_attr() - the layout of the records @attr's event writes
 * @layout: filled in
 * @attr: the attr the event was opened with
 */
void selfmon_record_layout__from_attr(struct selfmon_record_layout *layout,
				      const struct perf_event_attr *attr);

/** The sample_id trailer of non-SAMPLE records (sample_id_all). */
struct selfmon_sample_id {
	uint32_t pid, tid; /**< PERF_SAMPLE_TID */
	uint64_t time; /**< PERF_SAMPLE_TIME */
	uint64_t id; /**< PERF_SAMPLE_ID, or else PERF_SAMPLE_IDENTIFIER */
	uint64_t stream_id; /**< PERF_SAMPLE_STREAM_ID */
	uint32_t cpu, res; /**< PERF_SAMPLE_CPU */
};

/** One value of a read_format. */
struct selfmon_read_entry {
	uint64_t value;
	uint64_t id; /**< PERF_FORMAT_ID, else 0 */
	uint64_t lost; /**< PERF_FORMAT_LOST, else 0 */
};

/**
 * struct selfmon_record_read - a struct read_format (perf_event_open(2),
 * "Reading results"): one value, or with PERF_FORMAT_GROUP @nr of them, each
 * of which selfmon_record_read__entry() gives.
 */
struct selfmon_record_read {
	uint64_t nr; /**< values: 1 without PERF_FORMAT_GROUP */
	uint64_t time_enabled; /**< PERF_FORMAT_TOTAL_TIME_ENABLED */
	uint64_t time_running; /**< PERF_FORMAT_TOTAL_TIME_RUNNING */
	struct selfmon_read_entry single; /**< the value without PERF_FORMAT_GROUP */
	const uint64_t *entries; /**< GROUP: @nr entries of @stride words: value, [id], [lost] */
	uint32_t stride; /**< words per entry */
	uint64_t read_format; /**< the layout's read_format */
};

/**
 * selfmon_record_read__entry() - entry @i of a parsed read_format
 * Return: 0, or -ERANGE when @i >= @read->nr.
 */
int selfmon_record_read__entry(const struct selfmon_record_read *read, uint64_t i,
			       struct selfmon_read_entry *entry);

/** A register dump: PERF_SAMPLE_REGS_USER or PERF_SAMPLE_REGS_INTR. */
struct selfmon_record_regs {
	uint64_t abi; /**< PERF_SAMPLE_REGS_ABI_*; NONE: no registers follow */
	uint32_t nr; /**< registers in @regs (0 when abi is NONE) */
	const uint64_t *regs; /**< in the order of the mask's bits */
};

/** PERF_RECORD_SAMPLE: each field is there when its PERF_SAMPLE_* bit is. */
struct selfmon_sample {
	uint64_t id; /**< IDENTIFIER, or ID (the group leader's id) */
	uint64_t ip; /**< PERF_SAMPLE_IP: the instruction pointer */
	uint32_t pid, tid; /**< PERF_SAMPLE_TID */
	uint64_t time; /**< PERF_SAMPLE_TIME: perf_clock, ns */
	uint64_t addr; /**< PERF_SAMPLE_ADDR */
	uint64_t stream_id; /**< this event's own id */
	uint32_t cpu, res; /**< PERF_SAMPLE_CPU */
	uint64_t period; /**< PERF_SAMPLE_PERIOD: events since the last sample */
	struct selfmon_record_read read; /**< PERF_SAMPLE_READ: see selfmon_record_read__entry() */
	uint64_t callchain_nr; /**< PERF_SAMPLE_CALLCHAIN: entries in @callchain */
	const uint64_t *callchain; /**< its addresses, PERF_CONTEXT_* markers included */
	uint32_t raw_size; /**< bytes of @raw, padding included */
	const void *raw; /**< PERF_SAMPLE_RAW */
	uint64_t branch_nr; /**< PERF_SAMPLE_BRANCH_STACK: entries in @branches */
	uint64_t branch_hw_idx; /**< branch_sample_type PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct perf_branch_entry *branches; /**< the branch records */
	struct selfmon_record_regs regs_user; /**< PERF_SAMPLE_REGS_USER */
	uint64_t stack_size; /**< bytes of @stack (0: nothing, no dyn_size) */
	const void *stack; /**< PERF_SAMPLE_STACK_USER: the dumped stack */
	uint64_t stack_dyn_size; /**< bytes of @stack actually dumped */
	union perf_sample_weight weight; /**< WEIGHT (.full) or WEIGHT_STRUCT (var1_dw...) */
	uint64_t data_src; /**< PERF_SAMPLE_DATA_SRC */
	uint64_t transaction; /**< PERF_SAMPLE_TRANSACTION */
	struct selfmon_record_regs regs_intr; /**< PERF_SAMPLE_REGS_INTR */
	uint64_t phys_addr; /**< PERF_SAMPLE_PHYS_ADDR */
	uint64_t cgroup; /**< PERF_SAMPLE_CGROUP */
	uint64_t data_page_size; /**< PERF_SAMPLE_DATA_PAGE_SIZE */
	uint64_t code_page_size; /**< PERF_SAMPLE_CODE_PAGE_SIZE */
	uint64_t aux_size; /**< PERF_SAMPLE_AUX */
	const void *aux; /**< its data */
};

/** PERF_RECORD_MMAP and PERF_RECORD_MMAP2. */
struct selfmon_record_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	/* MMAP2 only, without PERF_RECORD_MISC_MMAP_BUILD_ID: */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	/* MMAP2 only, with PERF_RECORD_MISC_MMAP_BUILD_ID: */
	uint8_t build_id_size; /**< at most 20 */
	const uint8_t *build_id;
	uint32_t prot, flags; /**< MMAP2 only */
	const char *filename; /**< NUL-terminated within the record */
};

/** PERF_RECORD_LOST. */
struct selfmon_record_lost {
	uint64_t id;
	uint64_t lost;
};

/** PERF_RECORD_COMM. */
struct selfmon_record_comm {
	uint32_t pid, tid;
	const char *comm; /**< NUL-terminated within the record */
};

/** PERF_RECORD_EXIT and PERF_RECORD_FORK. */
struct selfmon_record_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/** PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE. */
struct selfmon_record_throttle {
	uint64_t time, id, stream_id;
};

/** PERF_RECORD_READ. */
struct selfmon_record_read_event {
	uint32_t pid, tid;
	struct selfmon_record_read values;
};

/** PERF_RECORD_AUX. */
struct selfmon_record_aux {
	uint64_t aux_offset, aux_size, flags;
};

/** PERF_RECORD_ITRACE_START. */
struct selfmon_record_itrace_start {
	uint32_t pid, tid;
};

/** PERF_RECORD_LOST_SAMPLES. */
struct selfmon_record_lost_samples {
	uint64_t lost;
};

/** PERF_RECORD_SWITCH_CPU_WIDE (PERF_RECORD_SWITCH has no body). */
struct selfmon_record_switch {
	uint32_t next_prev_pid, next_prev_tid;
};

/** PERF_RECORD_NAMESPACES: @nr pairs of u64 (dev, inode). */
struct selfmon_record_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *dev_inode; /**< dev of namespace i at [2i], inode at [2i+1] */
};

/** PERF_RECORD_KSYMBOL. */
struct selfmon_record_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name; /**< NUL-terminated within the record */
};

/** PERF_RECORD_BPF_EVENT. */
struct selfmon_record_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	const uint8_t *tag; /**< 8 bytes (BPF_TAG_SIZE) */
};

/** PERF_RECORD_CGROUP. */
struct selfmon_record_cgroup {
	uint64_t id;
	const char *path; /**< NUL-terminated within the record */
};

/** PERF_RECORD_TEXT_POKE: @old_len old bytes, then @new_len new ones. */
struct selfmon_record_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;
};

/** PERF_RECORD_AUX_OUTPUT_HW_ID. */
struct selfmon_record_aux_output_hw_id {
	uint64_t hw_id;
};

/** One parsed record: @type says which member of the union holds it. */
struct selfmon_record {
	uint32_t type; /**< PERF_RECORD_* */
	uint16_t misc; /**< PERF_RECORD_MISC_* */
	uint16_t size; /**< header.size: the next record is this many bytes on */
	const void *data; /**< the record's @size bytes as parsed (to copy or write it whole) */
	bool has_sample_id; /**< @sample_id was read (sample_id_all, non-SAMPLE) */
	struct selfmon_sample_id sample_id;
	union {
		struct selfmon_sample sample;
		struct selfmon_record_mmap mmap; /* MMAP, MMAP2 */
		struct selfmon_record_lost lost;
		struct selfmon_record_comm comm;
		struct selfmon_record_task task; /* EXIT, FORK */
		struct selfmon_record_throttle throttle; /* THROTTLE, UNTHROTTLE */
		struct selfmon_record_read_event read;
		struct selfmon_record_aux aux;
		struct selfmon_record_itrace_start itrace_start;
		struct selfmon_record_lost_samples lost_samples;
		struct selfmon_record_switch switch_cpu_wide;
		struct selfmon_record_namespaces namespaces;
		struct selfmon_record_ksymbol ksymbol;
		struct selfmon_record_bpf_event bpf_event;
		struct selfmon_record_cgroup cgroup;
		struct selfmon_record_text_poke text_poke;
		struct selfmon_record_aux_output_hw_id aux_output_hw_id;
	};
};

/**
 * selfmon_record__parse() - parse the record at the start of @buf
 * @buf: the record, 8-byte aligned (the ring's records are; a record
 *	copied out of the ring must be copied to an aligned buffer)
 * @len: bytes readable at @buf; the parser reads no further, and no
 *	further than the record's header.size
 * @layout: how the event that wrote it was opened
 * @rec: out: the record; pointers in it point into @buf
 *
 * Every record type of perf_event_open(2) "MMAP layout" is known, up to
 * PERF_RECORD_AUX_OUTPUT_HW_ID. Sizes are checked exactly: a record whose
 * header.size is not what @layout makes of its fields is malformed, as is a
 * string without its NUL.
 *
 * Whatever the result, @rec->type, @rec->misc and @rec->size hold the
 * header when @len covers one (@rec->size = 0 otherwise). A caller walking a
 * stream of records goes on @rec->size bytes further after an error, as long
 * as @rec->size is at least 8 (sizeof(struct perf_event_header)) and a
 * multiple of 8; else the stream cannot be walked further.
 *
 * Return: 0; -EBADMSG for a malformed record (selfmon_errmsg() names the
 * record type and the field); -ENOMSG for a well-formed header of a type
 * this parser does not know (a newer kernel's): skip it; -EINVAL for a NULL
 * argument or a misaligned @buf.
 */
int selfmon_record__parse(const void *buf, size_t len, const struct selfmon_record_layout *layout,
			  struct selfmon_record *rec);

/** selfmon_record__name() - "SAMPLE", "MMAP2", ... for a PERF_RECORD_* type; "unknown" else. */
const char *selfmon_record__name(uint32_t type);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_SAMPLE_H */
