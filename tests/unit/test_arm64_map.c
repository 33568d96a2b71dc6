// SPDX-License-Identifier: MIT
/*
 * Which system register the arm64 read takes for each mmap page index. The
 * kernel publishes index = counter number + 1 for PMEVCNTR<n>_EL0 and 32
 * for the cycle counter (armv8pmu_user_event_idx), so index i must read
 * pmevcntr<i-1>_el0. The read branches to block i - 1 of the asm text
 * SELFMON_ARM64_BLOCKS (arch/arm64/include/selfmon/arch.h); this test reads
 * that text, on any host. The board runs it (tests/selftests/arm64).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static char last_reg[32];
static int mrs_count;

#define SELFMON_ARM64_MRS(reg, v) \
	do { \
		snprintf(last_reg, sizeof(last_reg), "%s", #reg); \
		mrs_count++; \
		(v) = 0x1000 + (uint64_t)mrs_count; \
	} while (0)

/* The timestamp read's isb is an instruction only arm64 assembles. */
#define SELFMON_ARM64_ISB() do { } while (0)
#include "../../arch/arm64/include/selfmon/arch.h"

static const char blocks[] = SELFMON_ARM64_BLOCKS;

/*
 * The register block @n (0-based) reads, in @reg, and its instruction count
 * in @insns: the lines between its "0:" label and the .org that sizes it.
 */
static void block_of(int n, char *reg, size_t size, int *insns)
{
	const char *b = blocks;

	reg[0] = '\0';
	*insns = 0;
	for (int i = 0; i <= n; i++) {
		b = strstr(b, "0:");
		assert_non_null(b);
		b += 2;
	}
	for (const char *l = b; *l && strncmp(l, "\t.org", 5); l = strchr(l, '\n') + 1) {
		const char *v = strstr(l, "%[v], ");

		(*insns)++;
		if (!strncmp(l, "\tmrs\t", 5) && v && v < strchr(l, '\n'))
			snprintf(reg, size, "%.*s", (int)(strchr(v, '\n') - v - 6), v + 6);
	}
}

static void index_i_reads_pmevcntr_i_minus_1(void **state)
{
	(void)state;
	for (uint32_t idx = 1; idx <= 31; idx++) {
		char want[32], reg[32];
		int insns;

		snprintf(want, sizeof(want), "pmevcntr%u_el0", idx - 1);
		block_of((int)idx - 1, reg, sizeof(reg), &insns);
		if (strcmp(reg, want))
			fail_msg("index %u reads '%s', want '%s'", idx, reg, want);
	}
}

/* libperf's read table swaps these two; the kernel's numbering does not. */
static void index_13_and_14_are_not_swapped(void **state)
{
	char reg[32];
	int insns;

	(void)state;
	block_of(12, reg, sizeof(reg), &insns);
	assert_string_equal(reg, "pmevcntr12_el0");
	block_of(13, reg, sizeof(reg), &insns);
	assert_string_equal(reg, "pmevcntr13_el0");
}

static void index_32_reads_the_cycle_counter_in_the_last_block(void **state)
{
	char reg[32];
	int insns;

	(void)state;
	block_of(31, reg, sizeof(reg), &insns);
	assert_string_equal(reg, "pmccntr_el0");
	assert_null(strstr(strstr(blocks, "pmccntr_el0"), "0:"));
	assert_true(SELFMON_ARCH_MAX_INDEX == 32u);
}

/* The cost is the same at every index: each block is mrs and b (and bti j with BTI). */
static void every_block_is_the_same_two_instructions(void **state)
{
	int first = -1;

	(void)state;
	for (int n = 0; n < 32; n++) {
		char reg[32];
		int insns;

		block_of(n, reg, sizeof(reg), &insns);
		if (first < 0)
			first = insns;
		if (insns != first)
			fail_msg("block %d has %d instructions, block 0 has %d", n, insns, first);
	}
	assert_int_equal(first, SELFMON_ARM64_BTI[0] ? 3 : 2);
}

/*
 * Index 0 (no counter now) lands on a block before block 1 that branches to
 * the caller's refusal: one b where the others have mrs and b, so
 * the dispatch needs no index - 1, and blocks 1..32 stay where they were.
 */
static void index_0_lands_on_a_block_that_refuses(void **state)
{
	static const char fail0[] = SELFMON_ARM64_BLOCK_FAIL(refused);
	const char *l = fail0;
	int insns = 0;

	(void)state;
	assert_non_null(strstr(fail0, "\tb\t%l[refused]\n"));
	assert_null(strstr(fail0, "mrs"));
	assert_int_equal(strncmp(fail0, "0:", 2), 0);
	for (l += 2; *l && strncmp(l, "\t.org", 5); l = strchr(l, '\n') + 1)
		insns++;
	/* One instruction (and bti j with BTI), padded by the .org to the blocks' size. */
	assert_int_equal(insns, SELFMON_ARM64_BTI[0] ? 2 : 1);
	assert_non_null(strstr(l, "0b + (1 << " SELFMON_ARM64_SHIFT ")"));
}

/*
 * The set's read dispatches by the index's low byte: a block for each of
 * the 256 values, the refusal's before block 1 and after block 32, so
 * that no byte jumps past the table and every index above 32 refuses.
 */
static void the_byte_dispatch_has_a_refusing_block_for_every_byte_past_32(void **state)
{
	static const char rest[] = SELFMON_ARM64_BLOCKS_FAIL_REST(refused);
	static const char fail0[] = SELFMON_ARM64_BLOCK_FAIL(refused);
	int n = 0;

	(void)state;
	assert_int_equal(sscanf(rest, "\t.rept\t%d\n", &n), 1);
	assert_int_equal(1 + 32 + n, 256);
	/* What is repeated is the refusing block itself, then the repetition ends. */
	assert_int_equal(strncmp(rest + strcspn(rest, "\n") + 1, fail0, strlen(fail0)), 0);
	assert_string_equal(rest + strcspn(rest, "\n") + 1 + strlen(fail0), "\t.endr\n");
}

static void the_timestamp_is_the_virtual_count(void **state)
{
	uint64_t v;

	(void)state;
	last_reg[0] = '\0';
	mrs_count = 0;
	v = selfmon_arch_read_timestamp();
	assert_string_equal(last_reg, "cntvct_el0");
	assert_int_equal(mrs_count, 1);
	assert_true(v == 0x1001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_i_reads_pmevcntr_i_minus_1),
		cmocka_unit_test(index_13_and_14_are_not_swapped),
		cmocka_unit_test(index_32_reads_the_cycle_counter_in_the_last_block),
		cmocka_unit_test(every_block_is_the_same_two_instructions),
		cmocka_unit_test(index_0_lands_on_a_block_that_refuses),
		cmocka_unit_test(the_byte_dispatch_has_a_refusing_block_for_every_byte_past_32),
		cmocka_unit_test(the_timestamp_is_the_virtual_count),
	};

	return cmocka_run_group_tests_name("arm64_map", tests, NULL, NULL);
}
