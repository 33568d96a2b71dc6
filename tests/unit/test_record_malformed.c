// SPDX-License-Identifier: MIT
/*
 * Malformed records: cut short, stretched, or lying about a count. Each
 * gives -EBADMSG with a message naming the record type, and the parser
 * never reads past header.size nor the length it is given: every record is
 * copied to a heap buffer of exactly that length, so ASan (make check's
 * asan build) sees any byte read beyond it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include <selfmon/sample.h>
#include "record_enc.h"
#include "../../sample/record.h"

static uint64_t chain[4] = { 1, 2, 3, 4 };
static uint64_t regs[2] = { 5, 6 };
static uint8_t stack[16] = "0123456789abcdef";
static uint64_t group[4] = { 100, 1, 200, 2 };
static const uint64_t ns[2] = { 1, 2 };
static const uint8_t tag[8] = { 1 };
static const uint8_t poke[3] = { 1, 2, 3 };

/* Every variable part of a SAMPLE at once, with a sample_id-all layout. */
static const struct selfmon_record_layout full = {
	.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		       PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		       PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		       PERF_SAMPLE_WEIGHT | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX |
		       PERF_SAMPLE_CODE_PAGE_SIZE,
	.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
	.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX,
	.regs_user_nr = 2, .regs_intr_nr = 1, .sample_id_all = true,
};

static struct selfmon_record make(uint32_t type)
{
	static struct perf_branch_entry br[2] = { { .from = 1, .to = 2 }, { .from = 3, .to = 4 } };
	struct selfmon_record r = { .type = type };

	r.sample_id = (struct selfmon_sample_id){ .pid = 1, .tid = 2, .time = 3, .id = 4 };
	switch (type) {
	case PERF_RECORD_SAMPLE:
		r.sample = (struct selfmon_sample){ .id = 9, .ip = 0x400000, .pid = 1, .tid = 2,
			.read = { .nr = 2, .stride = 2, .entries = group,
				  .read_format = full.read_format },
			.callchain_nr = 4, .callchain = chain, .raw_size = 12, .raw = stack,
			.branch_nr = 2, .branches = br, .branch_hw_idx = 1,
			.regs_user = { PERF_SAMPLE_REGS_ABI_64, 2, regs },
			.regs_intr = { PERF_SAMPLE_REGS_ABI_64, 1, regs },
			.stack_size = 16, .stack = stack, .stack_dyn_size = 8,
			.aux_size = 8, .aux = stack, .code_page_size = 4096 };
		break;
	case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: r.mmap.filename = "/lib/x.so"; break;
	case PERF_RECORD_COMM: r.comm.comm = "comm"; break;
	case PERF_RECORD_READ:
		r.read.values = (struct selfmon_record_read){ .nr = 2, .stride = 2, .entries = group };
		break;
	case PERF_RECORD_NAMESPACES: r.namespaces.nr = 1; r.namespaces.dev_inode = ns; break;
	case PERF_RECORD_KSYMBOL: r.ksymbol.name = "ksym"; break;
	case PERF_RECORD_BPF_EVENT: r.bpf_event.tag = tag; break;
	case PERF_RECORD_CGROUP: r.cgroup.path = "/"; break;
	case PERF_RECORD_TEXT_POKE: r.text_poke.old_len = 1; r.text_poke.new_len = 2;
		r.text_poke.bytes = poke; break;
	}
	return r;
}

/* Parse @len bytes of @src from a heap buffer of exactly @len bytes. */
static int parse_exact(const void *src, size_t len, const struct selfmon_record_layout *l,
		       struct selfmon_record *rec)
{
	void *buf = malloc(len ? len : 1);	/* malloc aligns to 16 */
	int err;

	assert_non_null(buf);
	memcpy(buf, src, len);
	err = selfmon_record__parse(buf, len, l, rec);
	free(buf);
	return err;
}

static void set_size(struct rec_enc *e, uint16_t size)
{
	memcpy((char *)e->w + offsetof(struct perf_event_header, size), &size, 2);
}

/* Does @type's body end in a string, whose NUL padding may absorb a size change? */
static int has_string(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 || type == PERF_RECORD_COMM ||
	       type == PERF_RECORD_KSYMBOL || type == PERF_RECORD_CGROUP ||
	       type == PERF_RECORD_TEXT_POKE;
}

static void assert_named(int err, uint32_t type)
{
	char want[48];

	assert_int_equal(err, -EBADMSG);
	snprintf(want, sizeof(want), "PERF_RECORD_%s", selfmon_record__name(type));
	if (!strstr(selfmon_errmsg(), want))
		fail_msg("message does not name %s: %s", want, selfmon_errmsg());
}

static void every_truncation_of_every_record_type_is_a_named_error(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r, got;

	(void)state;
	for (uint32_t type = PERF_RECORD_MMAP; type <= PERF_RECORD_AUX_OUTPUT_HW_ID; type++) {
		r = make(type);
		enc_record(&e, &full, &r);
		assert_int_equal(parse_exact(e.w, e.len, &full, &got), 0);
		for (size_t len = 0; len < e.len; len++) {
			int err = parse_exact(e.w, len, &full, &got);

			assert_int_equal(err, -EBADMSG);
			if (len >= 8)
				assert_named(err, type);
		}
	}
}

/*
 * header.size made smaller (the buffer with it) or larger (zeros after): a
 * record of fixed layout no longer adds up, which is an error; a string
 * record may still parse (its NUL padding takes up the slack) but never
 * reads past the new size.
 */
static void a_wrong_header_size_is_a_named_error_and_never_read_past(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r, got;

	(void)state;
	for (uint32_t type = PERF_RECORD_MMAP; type <= PERF_RECORD_AUX_OUTPUT_HW_ID; type++) {
		r = make(type);
		for (size_t size = 8; size <= 8 * 64; size += 8) {
			enc_record(&e, &full, &r);
			if (size == e.len)
				continue;
			set_size(&e, (uint16_t)size);
			int err = parse_exact(e.w, size, &full, &got);

			if (!has_string(type) || err)
				assert_named(err, type);
			else
				assert_int_equal(got.size, size);
		}
	}
}

static void a_header_size_below_8_or_not_a_multiple_of_8_stops_the_walk(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_LOST), got;
	static const uint16_t bad[] = { 0, 4, 7, 9, 12, 33 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enc_record(&e, &full, &r);
		set_size(&e, bad[i]);
		assert_int_equal(parse_exact(e.w, e.len, &full, &got), -EBADMSG);
		assert_int_equal(got.size, bad[i]);
		assert_non_null(strstr(selfmon_errmsg(), "cannot be walked further"));
	}
}

static void an_unknown_type_is_enomsg_with_its_size_to_skip(void **state)
{
	static struct rec_enc e;
	struct selfmon_record got;

	(void)state;
	enc_begin(&e);
	enc_u64(&e, 1);
	enc_end(&e, PERF_RECORD_AUX_OUTPUT_HW_ID + 1, 0);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &full, &got), -ENOMSG);
	assert_int_equal(got.size, 16);
	enc_end(&e, 0, 0);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &full, &got), -ENOMSG);
}

static void a_misaligned_buffer_or_a_null_argument_is_einval(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_LOST), got;

	(void)state;
	enc_record(&e, &full, &r);
	assert_int_equal(selfmon_record__parse((char *)e.w + 4, e.len, &full, &got), -EINVAL);
	assert_non_null(strstr(selfmon_errmsg(), "aligned"));
	assert_int_equal(selfmon_record__parse(NULL, e.len, &full, &got), -EINVAL);
	assert_int_equal(selfmon_record__parse(e.w, e.len, NULL, &got), -EINVAL);
	assert_int_equal(selfmon_record__parse(e.w, e.len, &full, NULL), -EINVAL);
}

/* Patch the u64 at byte @off of a SAMPLE of the full layout and expect @field named. */
static void assert_patched_sample_fails(size_t off, uint64_t v, const char *field)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_SAMPLE), got;

	enc_record(&e, &full, &r);
	memcpy((char *)e.w + off, &v, 8);
	assert_named(parse_exact(e.w, e.len, &full, &got), PERF_RECORD_SAMPLE);
	if (!strstr(selfmon_errmsg(), field))
		fail_msg("message does not name '%s': %s", field, selfmon_errmsg());
}

static void counts_that_overrun_the_record_are_named_errors(void **state)
{
	/* header, IDENTIFIER, IP, TID, TIME: the read_format's nr is at byte 40 */
	size_t nr = 40, chain_nr = nr + 8 + 4 * 8;

	(void)state;
	assert_patched_sample_fails(nr, 1000, "read_format.values");
	assert_patched_sample_fails(nr, UINT64_MAX / 4, "read_format.values");
	assert_patched_sample_fails(chain_nr, 1000, "callchain");
	assert_patched_sample_fails(chain_nr, UINT64_MAX, "callchain");
	assert_patched_sample_fails(chain_nr, 1ull << 61, "callchain");
}

static void a_raw_size_the_kernel_would_not_pad_is_a_named_error(void **state)
{
	/* raw's u32 size follows the 4 callchain ips */
	size_t raw = 40 + 8 + 4 * 8 + 8 + 4 * 8;
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_SAMPLE), got;
	uint32_t bad = 13;

	(void)state;
	enc_record(&e, &full, &r);
	memcpy((char *)e.w + raw, &bad, 4);
	assert_named(parse_exact(e.w, e.len, &full, &got), PERF_RECORD_SAMPLE);
	assert_non_null(strstr(selfmon_errmsg(), "raw"));
}

static void a_stack_dyn_size_above_its_size_is_a_named_error(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_SAMPLE), got;

	(void)state;
	r.sample.stack_dyn_size = 17;
	enc_record(&e, &full, &r);
	assert_named(parse_exact(e.w, e.len, &full, &got), PERF_RECORD_SAMPLE);
	assert_non_null(strstr(selfmon_errmsg(), "dyn_size"));
}

static void a_string_without_its_nul_is_a_named_error(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_COMM), got;
	const struct selfmon_record_layout l = { 0 };

	(void)state;
	r.comm.comm = "1234567";	/* 8 bytes with its NUL: exactly one word */
	enc_record(&e, &l, &r);
	((char *)e.w)[8 + 8 + 7] = 'x';
	assert_named(parse_exact(e.w, e.len, &l, &got), PERF_RECORD_COMM);
	assert_non_null(strstr(selfmon_errmsg(), "NUL"));
}

static void a_build_id_longer_than_20_bytes_is_a_named_error(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_MMAP2), got;
	static const uint8_t id[20];

	(void)state;
	r.misc = PERF_RECORD_MISC_MMAP_BUILD_ID;
	r.mmap.build_id = id;
	r.mmap.build_id_size = 21;
	enc_record(&e, &full, &r);
	assert_named(parse_exact(e.w, e.len, &full, &got), PERF_RECORD_MMAP2);
}

/* A stream with a bad record in the middle: the walker skips it by header.size. */
static void a_stream_walk_goes_on_after_a_malformed_record(void **state)
{
	static struct rec_enc e;
	static uint64_t stream[64];
	struct selfmon_record r = make(PERF_RECORD_LOST), got;
	size_t len = 0, off = 0;
	int ok = 0, bad = 0;

	(void)state;
	for (int i = 0; i < 3; i++) {
		r.lost.lost = (uint64_t)i;
		enc_record(&e, &full, &r);
		if (i == 1)	/* one word short of its sample_id: a size the layout does not make */
			set_size(&e, (uint16_t)(e.len - 8));
		memcpy((char *)stream + len, e.w, e.len - (i == 1 ? 8 : 0));
		len += e.len - (i == 1 ? 8 : 0);
	}
	while (off < len) {
		int err = selfmon_record__parse((char *)stream + off, len - off, &full, &got);

		if (err)
			bad++;
		else
			assert_int_equal(got.lost.lost, ok++ ? 2 : 0);
		assert_true(got.size >= 8);
		off += got.size;
	}
	assert_int_equal(ok, 2);
	assert_int_equal(bad, 1);
	assert_int_equal(off, len);
}

/* In a signal handler: no message formatted, and the interrupted code's one kept. */
static void a_quiet_parse_leaves_the_interrupted_codes_message_alone(void **state)
{
	static struct rec_enc e;
	struct selfmon_record r = make(PERF_RECORD_LOST), got;
	char before[512];

	(void)state;
	enc_record(&e, &full, &r);
	assert_int_equal(parse_exact(e.w, e.len - 8, &full, &got), -EBADMSG);
	snprintf(before, sizeof(before), "%s", selfmon_errmsg());
	selfmon_record__quiet = 1;
	assert_int_equal(parse_exact(e.w, e.len - 16, &full, &got), -EBADMSG);
	assert_int_equal(parse_exact(e.w, e.len, &full, &got), 0);
	selfmon_record__quiet = 0;
	assert_string_equal(selfmon_errmsg(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_truncation_of_every_record_type_is_a_named_error),
		cmocka_unit_test(a_wrong_header_size_is_a_named_error_and_never_read_past),
		cmocka_unit_test(a_header_size_below_8_or_not_a_multiple_of_8_stops_the_walk),
		cmocka_unit_test(an_unknown_type_is_enomsg_with_its_size_to_skip),
		cmocka_unit_test(a_misaligned_buffer_or_a_null_argument_is_einval),
		cmocka_unit_test(counts_that_overrun_the_record_are_named_errors),
		cmocka_unit_test(a_raw_size_the_kernel_would_not_pad_is_a_named_error),
		cmocka_unit_test(a_stack_dyn_size_above_its_size_is_a_named_error),
		cmocka_unit_test(a_string_without_its_nul_is_a_named_error),
		cmocka_unit_test(a_build_id_longer_than_20_bytes_is_a_named_error),
		cmocka_unit_test(a_stream_walk_goes_on_after_a_malformed_record),
		cmocka_unit_test(a_quiet_parse_leaves_the_interrupted_codes_message_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
