// SPDX-License-Identifier: MIT
/*
 * The drain's fast path for the common sample (sample/record.h,
 * selfmon_sample_plan): for every sample_type made of one-word fields it
 * gives what the full parser gives, field for field and byte for byte, also
 * when it parses into the record it filled before; a sample_type with a
 * variable part has no plan, and its samples go to the full parser.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include <selfmon/sample.h>
#include "../../sample/record.h"
#include "record_enc.h"

/* Every sample_type bit whose field is one word, in the parser's order. */
static const uint64_t word_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE,
	PERF_SAMPLE_CODE_PAGE_SIZE,
};
#define NWORDS (sizeof(word_bits) / sizeof(word_bits[0]))

static const uint64_t var_bits[] = {
	PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW, PERF_SAMPLE_BRANCH_STACK,
	PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER, PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_AUX,
};

/* A sample whose every one-word field has its own value, @k apart from another's. */
static struct selfmon_sample sample_k(uint64_t k)
{
	return (struct selfmon_sample){
		.id = 0x1d00 + k, .ip = 0x401000 + k, .pid = 100 + (uint32_t)k, .tid = 200 + (uint32_t)k,
		.time = 0x7100 + k, .addr = 0xadd0 + k, .stream_id = 0x5700 + k, .cpu = 3 + (uint32_t)k,
		.res = 0, .period = 100000 + k, .weight = { .full = 0x3e00 + k }, .data_src = 0xd500 + k,
		.transaction = 0x7800 + k, .phys_addr = 0xf000 + k, .cgroup = 0xc600 + k,
		.data_page_size = 4096 + k, .code_page_size = 8192 + k,
	};
}

static void the_plan_parses_every_one_word_sample_type_as_the_parser_does(void **state)
{
	static struct rec_enc e;
	struct selfmon_record_layout l = { 0 };
	struct selfmon_sample_plan p;
	struct selfmon_record full, fast;

	(void)state;
	for (unsigned long m = 0; m < (1ul << NWORDS); m++) {
		l.sample_type = 0;
		for (size_t i = 0; i < NWORDS; i++)
			if (m & (1ul << i))
				l.sample_type |= word_bits[i];
		selfmon_sample_plan__init(&p, &l);
		memset(&fast, 0, sizeof(fast));
		/* two samples into the same record: the second overwrites all of the first */
		for (uint64_t k = 1; k <= 2; k++) {
			struct selfmon_sample want = sample_k(k);

			enc_sample(&e, &l, &want);
			assert_int_equal(p.size, e.len);
			assert_int_equal(0, selfmon_record__parse(e.w, e.len, &l, &full));
			selfmon_sample_plan__parse(&p, e.w, &fast);
			if (memcmp(&full, &fast, sizeof(full)))
				fail_msg("sample_type 0x%llx, sample %llu: the plan's record differs "
					 "from the parser's", (unsigned long long)l.sample_type,
					 (unsigned long long)k);
		}
	}
}

static void a_sample_type_with_a_variable_part_has_no_plan(void **state)
{
	struct selfmon_record_layout l = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct selfmon_sample_plan p;

	(void)state;
	selfmon_sample_plan__init(&p, &l);
	assert_int_equal(8 + 16, p.size);
	for (size_t i = 0; i < sizeof(var_bits) / sizeof(var_bits[0]); i++) {
		l.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | var_bits[i];
		selfmon_sample_plan__init(&p, &l);
		assert_int_equal(0, p.size);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_plan_parses_every_one_word_sample_type_as_the_parser_does),
		cmocka_unit_test(a_sample_type_with_a_variable_part_has_no_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
