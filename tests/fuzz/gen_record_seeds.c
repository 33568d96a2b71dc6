// SPDX-License-Identifier: MIT
/*
 * Writes the seed corpus of fuzz_record.c: one file per record type, and
 * SAMPLEs with every variable part, each after the 12 layout bytes
 * fuzz_record.c reads. Not built by make: the seeds are in the tree.
 *   make lib && cc -std=c11 -D_GNU_SOURCE -Iinclude tests/fuzz/gen_record_seeds.c \
 *     build/libselfmon.a -o /tmp/gen && /tmp/gen tests/fuzz/corpus/record
 */
#include <stdio.h>
#include <stdlib.h>

#include "../unit/record_enc.h"

static uint64_t words[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static struct perf_branch_entry br[2] = { { .from = 1, .to = 2 }, { .from = 3, .to = 4 } };

static void write_seed(const char *dir, const char *name, const struct selfmon_record_layout *l,
		       const struct rec_enc *e)
{
	uint8_t head[12] = { 0 };
	char path[512];
	FILE *f;

	memcpy(head, &l->sample_type, 8);
	head[8] = (uint8_t)l->read_format;
	head[9] = (uint8_t)(l->sample_id_all | ((l->branch_sample_type &
						  PERF_SAMPLE_BRANCH_HW_INDEX) ? 2 : 0));
	head[10] = (uint8_t)l->regs_user_nr;
	head[11] = (uint8_t)l->regs_intr_nr;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(head, 1, 12, f) != 12 || fwrite(e->w, 1, e->len, f) != e->len) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

static struct selfmon_record full_record(uint32_t type, const struct selfmon_record_layout *l)
{
	struct selfmon_record r = { .type = type, .misc = PERF_RECORD_MISC_USER };

	r.sample_id = (struct selfmon_sample_id){ .pid = 1, .tid = 2, .time = 3, .id = 4, .cpu = 1 };
	r.sample = (struct selfmon_sample){ .id = 4, .ip = 0x401000, .pid = 1, .tid = 2, .time = 9,
		.period = 1000, .read = { .nr = 2, .stride = 2, .entries = words,
					  .read_format = l->read_format },
		.callchain_nr = 3, .callchain = words, .raw_size = 12, .raw = words,
		.branch_nr = 2, .branches = br, .regs_user = { 2, l->regs_user_nr, words },
		.regs_intr = { 2, l->regs_intr_nr, words }, .stack_size = 16, .stack = words,
		.stack_dyn_size = 8, .aux_size = 8, .aux = words };
	if (type == PERF_RECORD_SAMPLE)
		return r;
	memset(&r.mmap, 0, sizeof(r.sample));
	switch (type) {
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: r.mmap.filename = "/usr/bin/x"; break;
	case PERF_RECORD_COMM: r.comm.comm = "selfmon"; break;
	case PERF_RECORD_READ: r.read.values = r.sample.read; break;
	case PERF_RECORD_NAMESPACES: r.namespaces.nr = 2; r.namespaces.dev_inode = words; break;
	case PERF_RECORD_KSYMBOL: r.ksymbol.name = "bpf_prog"; break;
	case PERF_RECORD_BPF_EVENT: r.bpf_event.tag = (const uint8_t *)words; break;
	case PERF_RECORD_CGROUP: r.cgroup.path = "/"; break;
	case PERF_RECORD_TEXT_POKE: r.text_poke.old_len = 2; r.text_poke.new_len = 3;
		r.text_poke.bytes = (const uint8_t *)words; break;
	}
	return r;
}

int main(int argc, char **argv)
{
	static struct rec_enc e;
	struct selfmon_record_layout l = {
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID, .sample_id_all = 1,
		.regs_user_nr = 3, .regs_intr_nr = 2,
	};
	static struct rec_enc stream;
	char name[64];
	struct selfmon_record r;

	if (argc != 2)
		return 2;
	for (uint32_t type = PERF_RECORD_MMAP; type <= PERF_RECORD_AUX_OUTPUT_HW_ID; type++) {
		r = full_record(type, &l);
		enc_record(&e, &l, &r);
		snprintf(name, sizeof(name), "%02u-%s", type, selfmon_record__name(type));
		write_seed(argv[1], name, &l, &e);
		if (type == PERF_RECORD_MMAP2 || type == PERF_RECORD_COMM ||
		    type == PERF_RECORD_SAMPLE || type == PERF_RECORD_LOST) {
			memcpy((char *)stream.w + stream.len, e.w, e.len);
			stream.len += e.len;
		}
	}
	/* several records back to back, as a ring holds them */
	write_seed(argv[1], "40-stream", &l, &stream);
	/* every variable part of a SAMPLE */
	l.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
			 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT |
			 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX |
			 PERF_SAMPLE_CGROUP | PERF_SAMPLE_CODE_PAGE_SIZE;
	l.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	r = full_record(PERF_RECORD_SAMPLE, &l);
	enc_record(&e, &l, &r);
	write_seed(argv[1], "30-SAMPLE-every-part", &l, &e);
	/* a single-value read_format, no sample_id */
	l.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_LOST;
	l.sample_id_all = 0;
	r = full_record(PERF_RECORD_SAMPLE, &l);
	r.sample.read = (struct selfmon_record_read){ .nr = 1, .single = { 5, 0, 1 } };
	enc_record(&e, &l, &r);
	write_seed(argv[1], "31-SAMPLE-single-read", &l, &e);
	return 0;
}
