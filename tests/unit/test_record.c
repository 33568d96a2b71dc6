// SPDX-License-Identifier: MIT
/*
 * The PERF_RECORD_* parser against a test encoder (record_enc.h) that
 * writes what the kernel writes: every record type, every sample_type bit
 * alone and in combination, every read_format; and records cut short,
 * stretched or corrupted give a named error, never a read past the record
 * (ASan runs this suite with buffers of the exact size).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include <selfmon/sample.h>
#include "record_enc.h"

/* The sample_type bits whose fields have a fixed size. */
static const uint64_t fixed_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE,
	PERF_SAMPLE_CODE_PAGE_SIZE,
};
#define NFIXED (sizeof(fixed_bits) / sizeof(fixed_bits[0]))

/* The ones whose size the record says. */
static const uint64_t var_bits[] = {
	PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW, PERF_SAMPLE_BRANCH_STACK,
	PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER, PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_AUX,
};
#define NVAR (sizeof(var_bits) / sizeof(var_bits[0]))

static const uint64_t id_bits[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_IDENTIFIER,
};

static uint64_t bits_of(const uint64_t *bits, size_t n, unsigned long mask)
{
	uint64_t t = 0;

	for (size_t i = 0; i < n; i++)
		if (mask & (1ul << i))
			t |= bits[i];
	return t;
}

/* Array contents every test sample points to. */
static uint64_t callchain[5] = { 0xffffffff81000001ull, 0x401000, 0x401100, 0x401200, 0x401300 };
static uint8_t raw_data[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 0 };
static struct perf_branch_entry branches[3] = {
	{ .from = 0x400100, .to = 0x400200, .mispred = 1, .cycles = 7 },
	{ .from = 0x400300, .to = 0x400400, .predicted = 1, .type = 3 },
	{ .from = 0x400500, .to = 0x400600, .in_tx = 1, .priv = 1 },
};
static uint64_t regs_u[3] = { 0x1111, 0x2222, 0x3333 };
static uint64_t regs_i[2] = { 0xaaaa, 0xbbbb };
static uint8_t stack[32] = "stack bytes of the user thread!";
static uint8_t aux[16] = "aux snapshot 123";
static uint64_t group[3 * 3] = { 100, 11, 0, 200, 22, 1, 300, 33, 2 };

static struct selfmon_record_read want_read(uint64_t f)
{
	struct selfmon_record_read r = {
		.nr = (f & PERF_FORMAT_GROUP) ? 3 : 1, .read_format = f,
		.time_enabled = (f & PERF_FORMAT_TOTAL_TIME_ENABLED) ? 5000 : 0,
		.time_running = (f & PERF_FORMAT_TOTAL_TIME_RUNNING) ? 4000 : 0,
	};
	static uint64_t entries[9];
	uint32_t k = 0;

	if (!(f & PERF_FORMAT_GROUP)) {
		r.single.value = 12345;
		r.single.id = (f & PERF_FORMAT_ID) ? 77 : 0;
		r.single.lost = (f & PERF_FORMAT_LOST) ? 3 : 0;
		return r;
	}
	r.stride = 1 + !!(f & PERF_FORMAT_ID) + !!(f & PERF_FORMAT_LOST);
	for (uint32_t i = 0; i < 3; i++) {
		entries[k++] = group[3 * i];
		if (f & PERF_FORMAT_ID)
			entries[k++] = group[3 * i + 1];
		if (f & PERF_FORMAT_LOST)
			entries[k++] = group[3 * i + 2];
	}
	r.entries = entries;
	return r;
}

/* A sample with a distinct value in every field the layout has, and zero elsewhere. */
static struct selfmon_sample want_sample(const struct selfmon_record_layout *l)
{
	uint64_t t = l->sample_type;
	struct selfmon_sample s = { 0 };

#define SET(bit, ...) do { if (t & (bit)) { __VA_ARGS__; } } while (0)
	SET(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID, s.id = 0x1d);
	SET(PERF_SAMPLE_IP, s.ip = 0x401234);
	SET(PERF_SAMPLE_TID, s.pid = 4242; s.tid = 4243);
	SET(PERF_SAMPLE_TIME, s.time = 987654321);
	SET(PERF_SAMPLE_ADDR, s.addr = 0x7fff0000);
	SET(PERF_SAMPLE_STREAM_ID, s.stream_id = 0x5d);
	SET(PERF_SAMPLE_CPU, s.cpu = 3; s.res = 0);
	SET(PERF_SAMPLE_PERIOD, s.period = 100000);
	SET(PERF_SAMPLE_READ, s.read = want_read(l->read_format));
	SET(PERF_SAMPLE_CALLCHAIN, s.callchain_nr = 5; s.callchain = callchain);
	SET(PERF_SAMPLE_RAW, s.raw_size = 20; s.raw = raw_data);
	SET(PERF_SAMPLE_BRANCH_STACK, s.branch_nr = 3; s.branches = branches;
	    s.branch_hw_idx = (l->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) ? 9 : 0);
	SET(PERF_SAMPLE_REGS_USER, s.regs_user = (struct selfmon_record_regs){
		PERF_SAMPLE_REGS_ABI_64, l->regs_user_nr, regs_u });
	SET(PERF_SAMPLE_STACK_USER, s.stack_size = 32; s.stack = stack; s.stack_dyn_size = 24);
	SET(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, s.weight.full = 0x0003000200000001ull);
	SET(PERF_SAMPLE_DATA_SRC, s.data_src = 0x68100142ull);
	SET(PERF_SAMPLE_TRANSACTION, s.transaction = 0x22);
	SET(PERF_SAMPLE_REGS_INTR, s.regs_intr = (struct selfmon_record_regs){
		PERF_SAMPLE_REGS_ABI_64, l->regs_intr_nr, regs_i });
	SET(PERF_SAMPLE_PHYS_ADDR, s.phys_addr = 0x12345000);
	SET(PERF_SAMPLE_CGROUP, s.cgroup = 0xc9);
	SET(PERF_SAMPLE_DATA_PAGE_SIZE, s.data_page_size = 4096);
	SET(PERF_SAMPLE_CODE_PAGE_SIZE, s.code_page_size = 2 << 20);
	SET(PERF_SAMPLE_AUX, s.aux_size = 16; s.aux = aux);
#undef SET
	return s;
}

static void assert_mem(const void *got, const void *want, size_t n)
{
	if (n) {
		assert_non_null(got);
		assert_memory_equal(got, want, n);
	}
}

static void assert_read_equal(const struct selfmon_record_read *got,
			      const struct selfmon_record_read *want)
{
	struct selfmon_read_entry g, w;

	assert_int_equal(got->nr, want->nr);
	assert_int_equal(got->time_enabled, want->time_enabled);
	assert_int_equal(got->time_running, want->time_running);
	for (uint64_t i = 0; i < want->nr; i++) {
		assert_int_equal(selfmon_record_read__entry(got, i, &g), 0);
		assert_int_equal(selfmon_record_read__entry(want, i, &w), 0);
		assert_int_equal(g.value, w.value);
		assert_int_equal(g.id, w.id);
		assert_int_equal(g.lost, w.lost);
	}
	assert_int_equal(selfmon_record_read__entry(got, want->nr, &g), -ERANGE);
}

static void assert_regs_equal(const struct selfmon_record_regs *g, const struct selfmon_record_regs *w)
{
	assert_int_equal(g->abi, w->abi);
	assert_int_equal(g->nr, w->nr);
	assert_mem(g->regs, w->regs, 8 * w->nr);
}

static void assert_sample_equal(const struct selfmon_sample *g, const struct selfmon_sample *w)
{
	assert_int_equal(g->id, w->id);
	assert_int_equal(g->ip, w->ip);
	assert_int_equal(g->pid, w->pid);
	assert_int_equal(g->tid, w->tid);
	assert_int_equal(g->time, w->time);
	assert_int_equal(g->addr, w->addr);
	assert_int_equal(g->stream_id, w->stream_id);
	assert_int_equal(g->cpu, w->cpu);
	assert_int_equal(g->period, w->period);
	if (w->read.nr)
		assert_read_equal(&g->read, &w->read);
	assert_int_equal(g->callchain_nr, w->callchain_nr);
	assert_mem(g->callchain, w->callchain, 8 * w->callchain_nr);
	assert_int_equal(g->raw_size, w->raw_size);
	assert_mem(g->raw, w->raw, w->raw_size);
	assert_int_equal(g->branch_nr, w->branch_nr);
	assert_int_equal(g->branch_hw_idx, w->branch_hw_idx);
	assert_mem(g->branches, w->branches, sizeof(*w->branches) * w->branch_nr);
	assert_regs_equal(&g->regs_user, &w->regs_user);
	assert_int_equal(g->stack_size, w->stack_size);
	assert_mem(g->stack, w->stack, w->stack_size);
	assert_int_equal(g->stack_dyn_size, w->stack_dyn_size);
	assert_int_equal(g->weight.full, w->weight.full);
	assert_int_equal(g->data_src, w->data_src);
	assert_int_equal(g->transaction, w->transaction);
	assert_regs_equal(&g->regs_intr, &w->regs_intr);
	assert_int_equal(g->phys_addr, w->phys_addr);
	assert_int_equal(g->cgroup, w->cgroup);
	assert_int_equal(g->data_page_size, w->data_page_size);
	assert_int_equal(g->code_page_size, w->code_page_size);
	assert_int_equal(g->aux_size, w->aux_size);
	assert_mem(g->aux, w->aux, w->aux_size);
}

/* Encode @want's sample under @l, parse it back, compare every field. */
static void sample_round_trip(const struct selfmon_record_layout *l)
{
	static struct rec_enc e;
	struct selfmon_sample want = want_sample(l);
	struct selfmon_record got;

	enc_sample(&e, l, &want);
	if (selfmon_record__parse(e.w, e.len, l, &got))
		fail_msg("sample_type 0x%llx read_format 0x%llx: %s",
			 (unsigned long long)l->sample_type, (unsigned long long)l->read_format,
			 selfmon_errmsg());
	assert_int_equal(got.type, PERF_RECORD_SAMPLE);
	assert_int_equal(got.size, e.len);
	assert_false(got.has_sample_id);
	assert_sample_equal(&got.sample, &want);
}

static void every_combination_of_fixed_size_sample_fields_parses_back(void **state)
{
	struct selfmon_record_layout l = { 0 };

	(void)state;
	for (unsigned long m = 0; m < (1ul << NFIXED); m++) {
		l.sample_type = bits_of(fixed_bits, NFIXED, m);
		sample_round_trip(&l);
	}
}

static void every_combination_of_variable_sample_fields_parses_back(void **state)
{
	static const unsigned long fixed_sets[] = { 0, (1ul << NFIXED) - 1, 0x5555, 0xaaaa };
	struct selfmon_record_layout l = {
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED,
		.regs_user_nr = 3, .regs_intr_nr = 2,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
	};

	(void)state;
	for (size_t f = 0; f < sizeof(fixed_sets) / sizeof(fixed_sets[0]); f++)
		for (unsigned long m = 0; m < (1ul << NVAR); m++) {
			l.sample_type = bits_of(fixed_bits, NFIXED, fixed_sets[f]) |
					bits_of(var_bits, NVAR, m);
			sample_round_trip(&l);
		}
}

static void every_read_format_single_and_group_parses_back(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ |
							  PERF_SAMPLE_CALLCHAIN };

	(void)state;
	for (uint64_t f = 0; f < PERF_FORMAT_MAX; f++) {
		l.read_format = f;
		sample_round_trip(&l);
	}
}

static void weight_struct_is_the_same_word_as_weight(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_WEIGHT_STRUCT |
							  PERF_SAMPLE_DATA_SRC };
	static struct rec_enc e;
	struct selfmon_sample want = want_sample(&l);
	struct selfmon_record got;

	(void)state;
	enc_sample(&e, &l, &want);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &l, &got), 0);
	assert_int_equal(got.sample.weight.var1_dw, 1);
	assert_int_equal(got.sample.weight.var2_w, 2);
	assert_int_equal(got.sample.weight.var3_w, 3);
	assert_int_equal(got.sample.data_src, want.data_src);
}

static void branch_stack_has_hw_idx_only_with_branch_hw_index(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_BRANCH_STACK };

	(void)state;
	sample_round_trip(&l);
	l.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	sample_round_trip(&l);
}

static void regs_with_abi_none_carry_no_registers_and_empty_stack_no_dyn_size(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_REGS_USER |
		PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PERIOD,
		.regs_user_nr = 3, .regs_intr_nr = 2 };
	static struct rec_enc e;
	struct selfmon_sample want = want_sample(&l);
	struct selfmon_record got;

	(void)state;
	want.regs_user = (struct selfmon_record_regs){ PERF_SAMPLE_REGS_ABI_NONE, 0, NULL };
	want.regs_intr = (struct selfmon_record_regs){ PERF_SAMPLE_REGS_ABI_NONE, 0, NULL };
	want.stack_size = 0;
	want.stack_dyn_size = 0;
	enc_sample(&e, &l, &want);
	/* abi word, stack size word, abi word, period: nothing else */
	assert_int_equal(e.len, 8 + 4 * 8);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &l, &got), 0);
	assert_sample_equal(&got.sample, &want);
}

static const uint64_t namespaces[2 * 7] = { 1, 0xf0000001, 1, 0xf0000002, 1, 0xf0000003, 1,
					     0xf0000004, 1, 0xf0000005, 1, 0xf0000006, 1, 0xf0000007 };
static const uint8_t build_id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
				      11, 12, 13, 14, 15, 16 };
static const uint8_t tag[8] = { 8, 7, 6, 5, 4, 3, 2, 1 };
static const uint8_t poke[5] = { 0x90, 0x90, 0xe8, 0x01, 0x02 };

/* A record of @type with a distinct value in every field. */
static struct selfmon_record want_record(uint32_t type, const struct selfmon_record_layout *l)
{
	struct selfmon_record r = { .type = type, .misc = PERF_RECORD_MISC_USER };

	switch (type) {
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2:
		r.mmap = (struct selfmon_record_mmap){ .pid = 10, .tid = 11, .addr = 0x400000,
			.len = 0x2000, .pgoff = 0x1000, .filename = "/usr/lib/libfoo.so.1" };
		if (type == PERF_RECORD_MMAP2)
			r.mmap = (struct selfmon_record_mmap){ .pid = 10, .tid = 11, .addr = 0x400000,
				.len = 0x2000, .pgoff = 0x1000, .maj = 8, .min = 1, .ino = 123456,
				.ino_generation = 7, .prot = 5, .flags = 2, .filename = "/bin/x" };
		break;
	case PERF_RECORD_LOST: r.lost = (struct selfmon_record_lost){ 0x1d, 17 }; break;
	case PERF_RECORD_COMM: r.comm = (struct selfmon_record_comm){ 20, 21, "selfmon-tes" }; break;
	case PERF_RECORD_EXIT: case PERF_RECORD_FORK:
		r.task = (struct selfmon_record_task){ 30, 31, 32, 33, 34000 }; break;
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		r.throttle = (struct selfmon_record_throttle){ 40000, 41, 42 }; break;
	case PERF_RECORD_READ:
		r.read.pid = 50;
		r.read.tid = 51;
		r.read.values = want_read(l->read_format);
		break;
	case PERF_RECORD_SAMPLE: r.sample = want_sample(l); r.misc = PERF_RECORD_MISC_USER; break;
	case PERF_RECORD_AUX: r.aux = (struct selfmon_record_aux){ 4096, 512, 1 }; break;
	case PERF_RECORD_ITRACE_START: r.itrace_start = (struct selfmon_record_itrace_start){ 60, 61 }; break;
	case PERF_RECORD_LOST_SAMPLES: r.lost_samples.lost = 99; break;
	case PERF_RECORD_SWITCH: r.misc |= PERF_RECORD_MISC_SWITCH_OUT; break;
	case PERF_RECORD_SWITCH_CPU_WIDE: r.switch_cpu_wide = (struct selfmon_record_switch){ 70, 71 }; break;
	case PERF_RECORD_NAMESPACES:
		r.namespaces = (struct selfmon_record_namespaces){ 80, 81, 7, namespaces }; break;
	case PERF_RECORD_KSYMBOL:
		r.ksymbol = (struct selfmon_record_ksymbol){ 0xffffffffc0001000ull, 256,
			PERF_RECORD_KSYMBOL_TYPE_BPF, 0, "bpf_prog_0123456789abcdef_x" }; break;
	case PERF_RECORD_BPF_EVENT:
		r.bpf_event = (struct selfmon_record_bpf_event){ PERF_BPF_EVENT_PROG_LOAD, 0, 90, tag };
		break;
	case PERF_RECORD_CGROUP: r.cgroup = (struct selfmon_record_cgroup){ 100, "/user.slice" }; break;
	case PERF_RECORD_TEXT_POKE:
		r.text_poke = (struct selfmon_record_text_poke){ 0xffffffff81000000ull, 2, 3, poke };
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID: r.aux_output_hw_id.hw_id = 110; break;
	}
	if (type != PERF_RECORD_SAMPLE)
		r.sample_id = (struct selfmon_sample_id){ .pid = 1000, .tid = 1001, .time = 1002,
			.id = 1003, .stream_id = 1004, .cpu = 5, .res = 0 };
	return r;
}

/* Only the trailer fields the layout has are expected back. */
static void assert_sample_id_equal(const struct selfmon_record_layout *l,
				   const struct selfmon_sample_id *g, const struct selfmon_sample_id *w)
{
	uint64_t t = l->sample_type;

	assert_int_equal(g->pid, (t & PERF_SAMPLE_TID) ? w->pid : 0);
	assert_int_equal(g->tid, (t & PERF_SAMPLE_TID) ? w->tid : 0);
	assert_int_equal(g->time, (t & PERF_SAMPLE_TIME) ? w->time : 0);
	assert_int_equal(g->id, (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) ? w->id : 0);
	assert_int_equal(g->stream_id, (t & PERF_SAMPLE_STREAM_ID) ? w->stream_id : 0);
	assert_int_equal(g->cpu, (t & PERF_SAMPLE_CPU) ? w->cpu : 0);
}

static void assert_mmap_equal(const struct selfmon_record_mmap *g, const struct selfmon_record_mmap *w)
{
	assert_int_equal(g->pid, w->pid);
	assert_int_equal(g->tid, w->tid);
	assert_int_equal(g->addr, w->addr);
	assert_int_equal(g->len, w->len);
	assert_int_equal(g->pgoff, w->pgoff);
	assert_int_equal(g->maj, w->maj);
	assert_int_equal(g->min, w->min);
	assert_int_equal(g->ino, w->ino);
	assert_int_equal(g->ino_generation, w->ino_generation);
	assert_int_equal(g->build_id_size, w->build_id_size);
	assert_mem(g->build_id, w->build_id, w->build_id_size);
	assert_int_equal(g->prot, w->prot);
	assert_int_equal(g->flags, w->flags);
	assert_string_equal(g->filename, w->filename);
}

/* Bytes of the union that hold an all-scalar body. */
static size_t fixed_body_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_LOST: return sizeof(struct selfmon_record_lost);
	case PERF_RECORD_EXIT: case PERF_RECORD_FORK: return sizeof(struct selfmon_record_task);
	case PERF_RECORD_THROTTLE: case PERF_RECORD_UNTHROTTLE:
		return sizeof(struct selfmon_record_throttle);
	case PERF_RECORD_AUX: return sizeof(struct selfmon_record_aux);
	case PERF_RECORD_ITRACE_START: return sizeof(struct selfmon_record_itrace_start);
	case PERF_RECORD_LOST_SAMPLES: return sizeof(struct selfmon_record_lost_samples);
	case PERF_RECORD_SWITCH_CPU_WIDE: return sizeof(struct selfmon_record_switch);
	case PERF_RECORD_AUX_OUTPUT_HW_ID: return sizeof(struct selfmon_record_aux_output_hw_id);
	default: return 0;	/* SWITCH */
	}
}

static void assert_body_equal(const struct selfmon_record *g, const struct selfmon_record *w)
{
	switch (w->type) {
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: assert_mmap_equal(&g->mmap, &w->mmap); break;
	case PERF_RECORD_COMM:
		assert_int_equal(g->comm.pid, w->comm.pid);
		assert_int_equal(g->comm.tid, w->comm.tid);
		assert_string_equal(g->comm.comm, w->comm.comm);
		break;
	case PERF_RECORD_READ:
		assert_int_equal(g->read.pid, w->read.pid);
		assert_int_equal(g->read.tid, w->read.tid);
		assert_read_equal(&g->read.values, &w->read.values);
		break;
	case PERF_RECORD_SAMPLE: assert_sample_equal(&g->sample, &w->sample); break;
	case PERF_RECORD_NAMESPACES:
		assert_int_equal(g->namespaces.pid, w->namespaces.pid);
		assert_int_equal(g->namespaces.tid, w->namespaces.tid);
		assert_int_equal(g->namespaces.nr, w->namespaces.nr);
		assert_mem(g->namespaces.dev_inode, w->namespaces.dev_inode, 16 * w->namespaces.nr);
		break;
	case PERF_RECORD_KSYMBOL:
		assert_int_equal(g->ksymbol.addr, w->ksymbol.addr);
		assert_int_equal(g->ksymbol.len, w->ksymbol.len);
		assert_int_equal(g->ksymbol.ksym_type, w->ksymbol.ksym_type);
		assert_int_equal(g->ksymbol.flags, w->ksymbol.flags);
		assert_string_equal(g->ksymbol.name, w->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		assert_int_equal(g->bpf_event.type, w->bpf_event.type);
		assert_int_equal(g->bpf_event.flags, w->bpf_event.flags);
		assert_int_equal(g->bpf_event.id, w->bpf_event.id);
		assert_mem(g->bpf_event.tag, w->bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		assert_int_equal(g->cgroup.id, w->cgroup.id);
		assert_string_equal(g->cgroup.path, w->cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		assert_int_equal(g->text_poke.addr, w->text_poke.addr);
		assert_int_equal(g->text_poke.old_len, w->text_poke.old_len);
		assert_int_equal(g->text_poke.new_len, w->text_poke.new_len);
		assert_mem(g->text_poke.bytes, w->text_poke.bytes, 5);
		break;
	default:	/* all-scalar bodies: the union's bytes are the fields */
		if (fixed_body_size(w->type))
			assert_memory_equal(&g->lost, &w->lost, fixed_body_size(w->type));
	}
}

static void record_round_trip(uint32_t type, const struct selfmon_record_layout *l)
{
	static struct rec_enc e;
	struct selfmon_record want = want_record(type, l), got;

	enc_record(&e, l, &want);
	if (selfmon_record__parse(e.w, e.len, l, &got))
		fail_msg("PERF_RECORD_%s, sample_type 0x%llx, sample_id_all %d: %s",
			 selfmon_record__name(type), (unsigned long long)l->sample_type,
			 l->sample_id_all, selfmon_errmsg());
	assert_int_equal(got.type, type);
	assert_int_equal(got.misc, want.misc);
	assert_int_equal(got.size, e.len);
	assert_int_equal(got.has_sample_id, type != PERF_RECORD_SAMPLE && l->sample_id_all);
	if (got.has_sample_id)
		assert_sample_id_equal(l, &got.sample_id, &want.sample_id);
	assert_body_equal(&got, &want);
}

static void every_record_type_with_every_sample_id_trailer_parses_back(void **state)
{
	struct selfmon_record_layout l = { .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
					   PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_RUNNING };

	(void)state;
	for (uint32_t type = PERF_RECORD_MMAP; type <= PERF_RECORD_AUX_OUTPUT_HW_ID; type++)
		for (unsigned long m = 0; m < 64; m++)
			for (int all = 0; all < 2; all++) {
				l.sample_type = bits_of(id_bits, 6, m) | PERF_SAMPLE_IP;
				l.sample_id_all = all;
				record_round_trip(type, &l);
			}
}

static void mmap2_with_build_id_gives_the_build_id_instead_of_the_inode(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_TID, .sample_id_all = true };
	static struct rec_enc e;
	struct selfmon_record want = want_record(PERF_RECORD_MMAP2, &l), got;

	(void)state;
	want.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	want.mmap.maj = want.mmap.min = 0;
	want.mmap.ino = want.mmap.ino_generation = 0;
	want.mmap.build_id_size = 20;
	want.mmap.build_id = build_id;
	enc_record(&e, &l, &want);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &l, &got), 0);
	assert_mmap_equal(&got.mmap, &want.mmap);
	assert_int_equal(got.sample_id.tid, 1001);
}

static void record_names_follow_the_perf_record_enum(void **state)
{
	(void)state;
	assert_string_equal(selfmon_record__name(PERF_RECORD_SAMPLE), "SAMPLE");
	assert_string_equal(selfmon_record__name(PERF_RECORD_MMAP2), "MMAP2");
	assert_string_equal(selfmon_record__name(PERF_RECORD_AUX_OUTPUT_HW_ID), "AUX_OUTPUT_HW_ID");
	assert_string_equal(selfmon_record__name(0), "unknown");
	assert_string_equal(selfmon_record__name(PERF_RECORD_AUX_OUTPUT_HW_ID + 1), "unknown");
}

static void the_layout_of_an_attr_counts_its_register_masks(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER,
		.read_format = PERF_FORMAT_GROUP, .sample_regs_user = 0xf0f, .sample_regs_intr = 1,
		.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX, .sample_id_all = 1 };
	struct selfmon_record_layout l;

	(void)state;
	selfmon_record_layout__from_attr(&l, &a);
	assert_int_equal(l.sample_type, a.sample_type);
	assert_int_equal(l.read_format, PERF_FORMAT_GROUP);
	assert_int_equal(l.regs_user_nr, 8);
	assert_int_equal(l.regs_intr_nr, 1);
	assert_int_equal(l.branch_sample_type, PERF_SAMPLE_BRANCH_HW_INDEX);
	assert_true(l.sample_id_all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_combination_of_fixed_size_sample_fields_parses_back),
		cmocka_unit_test(every_combination_of_variable_sample_fields_parses_back),
		cmocka_unit_test(every_read_format_single_and_group_parses_back),
		cmocka_unit_test(weight_struct_is_the_same_word_as_weight),
		cmocka_unit_test(branch_stack_has_hw_idx_only_with_branch_hw_index),
		cmocka_unit_test(regs_with_abi_none_carry_no_registers_and_empty_stack_no_dyn_size),
		cmocka_unit_test(every_record_type_with_every_sample_id_trailer_parses_back),
		cmocka_unit_test(mmap2_with_build_id_gives_the_build_id_instead_of_the_inode),
		cmocka_unit_test(record_names_follow_the_perf_record_enum),
		cmocka_unit_test(the_layout_of_an_attr_counts_its_register_masks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
