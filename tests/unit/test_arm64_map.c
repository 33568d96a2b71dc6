// SPDX-License-Identifier: MIT
/*
 * Which system register the arm64 read takes for each mmap page index. The
 * kernel publishes index = counter number + 1 for PMEVCNTR<n>_EL0 and 32
 * for the cycle counter (armv8pmu_user_event_idx), so index i must read
 * pmevcntr<i-1>_el0. The mrs is replaced by a recorder; this runs on any host.
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

static void read_index(uint32_t idx, uint64_t *v)
{
	last_reg[0] = '\0';
	mrs_count = 0;
	*v = selfmon_arch_read_counter(idx);
}

static void index_i_reads_pmevcntr_i_minus_1(void **state)
{
	(void)state;
	for (uint32_t idx = 1; idx <= 31; idx++) {
		char want[32];
		uint64_t v;

		snprintf(want, sizeof(want), "pmevcntr%u_el0", idx - 1);
		read_index(idx, &v);
		if (strcmp(last_reg, want))
			fail_msg("index %u reads '%s', want '%s'", idx, last_reg, want);
		assert_int_equal(mrs_count, 1);
		assert_true(v == 0x1001);	/* the value the mrs gave */
	}
}

/* libperf's read table swaps these two; the kernel's numbering does not. */
static void index_13_and_14_are_not_swapped(void **state)
{
	uint64_t v;

	(void)state;
	read_index(13, &v);
	assert_string_equal(last_reg, "pmevcntr12_el0");
	read_index(14, &v);
	assert_string_equal(last_reg, "pmevcntr13_el0");
}

static void index_32_reads_the_cycle_counter(void **state)
{
	uint64_t v;

	(void)state;
	read_index(32, &v);
	assert_string_equal(last_reg, "pmccntr_el0");
	assert_int_equal(mrs_count, 1);
	assert_true(SELFMON_ARCH_MAX_INDEX == 32u);
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
		cmocka_unit_test(index_32_reads_the_cycle_counter),
		cmocka_unit_test(the_timestamp_is_the_virtual_count),
	};

	return cmocka_run_group_tests_name("arm64_map", tests, NULL, NULL);
}
