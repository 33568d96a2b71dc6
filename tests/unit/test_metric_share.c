// SPDX-License-Identifier: MIT
/*
 * A metric reads the events the caller counts already (selfmon_metrics__share()):
 * two spellings of one counter are one event (arm64's generic "instructions"
 * and the PMU's inst_retired on the qemu-virt fixture; x86's generic names
 * and Intel's fixed-counter table names on the skylake fixture; AMD's
 * generic names and its tables' names on the zen3 fixture), at the same
 * privilege levels only. A metric shares one group of the caller's that
 * counts all its events, or an ungrouped list; else it keeps its own group.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <generated/autoconf.h>
#include <selfmon/metric.h>
#include <selfmon/selfmon.h>
#include "../../core/event.h"
#include "fakeroot.h"

/* @a and @b parsed on fixture board @board, compared on its default core PMU. */
static bool same_on(const char *board, const char *a, const char *b)
{
	struct selfmon_pmus pmus;
	struct selfmon_event x, y;
	char root[PATH_MAX + 16];
	bool same;

	fakeroot__fixtures(root, PATH_MAX);
	strcat(root, "/");
	strcat(root, board);
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	if (selfmon_event__parse(a, &pmus, &x) || selfmon_event__parse(b, &pmus, &y))
		fail_msg("%s: '%s' or '%s' does not parse: %s", board, a, b, selfmon_errmsg());
	same = selfmon_event__same_counter(&x, &y, &pmus, selfmon_pmus__default_core(&pmus), false);
	selfmon_pmus__free(&pmus);
	return same;
}

static void a_generic_event_is_the_arm64_pmus_alias_of_the_kernels_map(void **state)
{
	(void)state;
	assert_true(same_on("qemu-virt", "instructions:u", "armv8_pmuv3/inst_retired/u"));
	assert_true(same_on("qemu-virt", "cycles:u", "armv8_pmuv3/cpu_cycles/u"));
	assert_true(same_on("qemu-virt", "r08:u", "instructions:u"));
	assert_false(same_on("qemu-virt", "instructions:u", "armv8_pmuv3/cpu_cycles/u"));
	assert_false(same_on("qemu-virt", "instructions:k", "armv8_pmuv3/inst_retired/u"));
	assert_false(same_on("qemu-virt", "instructions", "armv8_pmuv3/inst_retired/u"));
	assert_true(same_on("qemu-virt", "task-clock", "task-clock"));
	assert_false(same_on("qemu-virt", "task-clock", "cpu-clock"));
}

static void a_generic_event_is_the_x86_pmus_alias_of_the_same_name(void **state)
{
	(void)state;
	assert_true(same_on("skylake", "instructions:u", "cpu/event=0xc0/u"));
	assert_true(same_on("skylake", "cycles:u", "cpu/cpu-cycles/u"));
	assert_false(same_on("skylake", "cycles:u", "cpu/instructions/u"));
}

/* AMD's map (arch/x86/events/amd/core.c): cycles are event 0x76, not Intel's 0x3c. */
static void a_generic_event_is_the_amd_pmus_alias_of_the_same_name(void **state)
{
	(void)state;
	assert_true(same_on("zen3", "instructions:u", "cpu/event=0xc0/u"));
	assert_true(same_on("zen3", "cycles:u", "cpu/cpu-cycles/u"));
	assert_true(same_on("zen3", "cycles:u", "cpu/event=0x76/u"));
	assert_true(same_on("zen3", "branch-misses:u", "cpu/event=0xc3/u"));
	assert_false(same_on("zen3", "cycles:u", "cpu/event=0x3c/u"));
	assert_false(same_on("zen3", "cycles:u", "cpu/instructions/u"));
}

#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
/* amdzen3's core.json and memory.json: ex_ret_instr 0xc0, ls_not_halted_cyc 0x76. */
static void an_amd_table_name_is_the_generic_event_of_its_encoding(void **state)
{
	(void)state;
	assert_true(same_on("zen3", "instructions:u", "ex_ret_instr:u"));
	assert_true(same_on("zen3", "cycles:u", "ls_not_halted_cyc:u"));
	assert_true(same_on("zen3", "branch-instructions:u", "ex_ret_brn:u"));
	assert_true(same_on("zen3", "branch-misses:u", "ex_ret_brn_misp:u"));
	assert_false(same_on("zen3", "cycles:u", "ex_ret_instr:u"));
	assert_false(same_on("zen3", "instructions:k", "ex_ret_instr:u"));
	/* a 12-bit event select (cache.json's PMCx18E) keeps its top nibble */
	assert_true(same_on("zen3", "ic_tag_hit_miss.all_instruction_cache_accesses:u",
			    "cpu/event=0x18e,umask=0x1f/u"));
	assert_false(same_on("zen3", "ic_tag_hit_miss.all_instruction_cache_accesses:u",
			     "cpu/event=0x8e,umask=0x1f/u"));
}

static int on_skylake(void **state)
{
	static char root[PATH_MAX + 16];

	(void)state;
	fakeroot__fixtures(root, PATH_MAX);
	strcat(root, "/skylake");
	return setenv("SELFMON_SYSFS_ROOT", root, 1);
}

static int off_board(void **state)
{
	(void)state;
	return unsetenv("SELFMON_SYSFS_ROOT");
}

static int on_zen3(void **state)
{
	static char root[PATH_MAX + 16];

	(void)state;
	fakeroot__fixtures(root, PATH_MAX);
	strcat(root, "/zen3");
	return setenv("SELFMON_SYSFS_ROOT", root, 1);
}

/* A bench result of one repetition: @nr columns @names counting @v. */
static void result(struct selfmon_bench_result *res, const char *const *names, int nr,
		   const double *v)
{
	memset(res, 0, sizeof(*res));
	res->kept = 1;
	res->nr_cols = nr;
	res->samples = calloc((size_t)nr + 4, sizeof(double));
	assert_non_null(res->samples);
	for (int c = 0; c < nr; c++) {
		snprintf(res->col[c].name, sizeof(res->col[c].name), "%s", names[c]);
		res->col[c].unit = "";
		res->col[c].path = SELFMON_PATH_USER;
		res->col[c].st.min = res->col[c].st.max = v[c];
		res->samples[c] = v[c];
	}
}

static struct selfmon_metrics *ipc(void)
{
	struct selfmon_metrics *m = selfmon_metrics__new("tma_info_thread_ipc", 0, "u");

	if (!m)
		fail_msg("tma_info_thread_ipc on skylake: %s", selfmon_errmsg());
	assert_string_equal(selfmon_metrics__events(m),
			    "{INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.THREAD:u}");
	return m;
}

static void ipc_reads_instructions_and_cycles_of_the_callers_group_on_intel(void **state)
{
	static const char *const names[] = { "time", "instructions:u", "cycles:u" };
	static const double v[] = { 10, 3000, 2000 };
	struct selfmon_metrics *m = ipc();
	struct selfmon_bench_result res;
	int col;

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{instructions:u,cycles:u}"), 1);
	assert_string_equal(selfmon_metrics__events(m), "");
	result(&res, names, 3, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 1);
	col = selfmon_bench_result__col(&res, "tma_info_thread_ipc");
	assert_int_equal(col, 3);
	assert_float_equal(res.samples[col], 1.5, 1e-12);
	assert_string_equal(selfmon_metrics__why(m, 0), "");
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

/* @names on zen3: the events it opens on its own. */
static struct selfmon_metrics *on_amd(const char *names, const char *events)
{
	struct selfmon_metrics *m = selfmon_metrics__new(names, 0, "u");

	if (!m)
		fail_msg("%s on zen3: %s", names, selfmon_errmsg());
	assert_string_equal(selfmon_metrics__core(m, NULL), "amdzen3");
	assert_string_equal(selfmon_metrics__events(m), events);
	return m;
}

static void ipc_and_cpi_read_the_callers_group_by_either_spelling_on_amd(void **state)
{
	static const char *const names[] = { "time", "ex_ret_instr:u", "ls_not_halted_cyc:u" };
	static const double v[] = { 10, 3000, 2000 };
	struct selfmon_metrics *m =
		on_amd("ipc,cpi", "{instructions:u,cycles:u}");
	struct selfmon_bench_result res;

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{instructions:u,cycles:u}"), 2);
	assert_int_equal(selfmon_metrics__share(m, "{ex_ret_instr:u,ls_not_halted_cyc:u}"), 2);
	assert_string_equal(selfmon_metrics__events(m), "");
	result(&res, names, 3, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 2);
	assert_float_equal(res.samples[selfmon_bench_result__col(&res, "ipc")], 1.5, 1e-12);
	assert_float_equal(res.samples[selfmon_bench_result__col(&res, "cpi")], 2000.0 / 3000.0,
			   1e-12);
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

/* amdzen3's recommended.json: d_ratio(ex_ret_brn_misp, ex_ret_brn), over the generic one. */
static void amds_own_branch_miss_ratio_reads_the_callers_generic_branch_events(void **state)
{
	static const char *const names[] = { "time", "branch-misses:u", "branch-instructions:u" };
	static const double v[] = { 10, 50, 1000 };
	struct selfmon_metrics *m =
		on_amd("branch_misprediction_ratio", "{ex_ret_brn_misp:u,ex_ret_brn:u}");
	struct selfmon_bench_result res;

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{branch-misses:u,branch-instructions:u}"), 1);
	assert_string_equal(selfmon_metrics__events(m), "");
	result(&res, names, 3, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 1);
	assert_float_equal(res.samples[3], 50.0 / 1000.0, 1e-12);
	assert_int_equal(selfmon_metrics__share(m, "{branch-misses:u,cycles:u}"), 0);
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

static void a_groups_modifiers_and_an_ungrouped_list_share_too(void **state)
{
	static const char *const names[] = { "time", "cycles", "instructions" };
	static const double v[] = { 10, 4000, 1000 };
	struct selfmon_metrics *m = ipc();
	struct selfmon_bench_result res;

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{cycles,instructions}:u"), 1);
	result(&res, names, 3, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 1);
	assert_float_equal(res.samples[3], 0.25, 1e-12);
	selfmon_bench_result__fini(&res);
	assert_int_equal(selfmon_metrics__share(m, "task-clock,instructions:u,cycles:u"), 1);
	assert_string_equal(selfmon_metrics__events(m), "");
	selfmon_metrics__delete(m);
}

static void a_metric_split_across_groups_or_half_counted_keeps_its_own_group(void **state)
{
	struct selfmon_metrics *m = ipc();

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{instructions:u},{cycles:u}"), 0);
	assert_int_equal(selfmon_metrics__share(m, "{instructions:u,branches:u},cycles:u"), 0);
	assert_int_equal(selfmon_metrics__share(m, "instructions:u"), 0);
	assert_string_equal(selfmon_metrics__events(m),
			    "{INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.THREAD:u}");
	selfmon_metrics__delete(m);
}

static void other_privilege_levels_are_other_counts(void **state)
{
	struct selfmon_metrics *m = ipc();

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "{instructions:k,cycles:k}"), 0);
	assert_int_equal(selfmon_metrics__share(m, "{instructions,cycles}"), 0);
	assert_int_equal(selfmon_metrics__share(m, "{instructions:u,cycles:k}"), 0);
	assert_string_equal(selfmon_metrics__events(m),
			    "{INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.THREAD:u}");
	selfmon_metrics__delete(m);
}

static void a_shared_event_left_out_makes_the_metric_unavailable_with_the_reason(void **state)
{
	static const char *const names[] = { "time", "instructions:u" };
	static const double v[] = { 10, 3000 };
	struct selfmon_metrics *m = ipc();
	struct selfmon_bench_result res;

	(void)state;
	assert_int_equal(selfmon_metrics__share(m, "instructions:u,cycles:u"), 1);
	result(&res, names, 2, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 0);
	assert_non_null(strstr(selfmon_metrics__why(m, 0), "'cycles:u'"));
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_generic_event_is_the_arm64_pmus_alias_of_the_kernels_map),
		cmocka_unit_test(a_generic_event_is_the_x86_pmus_alias_of_the_same_name),
		cmocka_unit_test(a_generic_event_is_the_amd_pmus_alias_of_the_same_name),
#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
		cmocka_unit_test(an_amd_table_name_is_the_generic_event_of_its_encoding),
		cmocka_unit_test_setup_teardown(
			ipc_and_cpi_read_the_callers_group_by_either_spelling_on_amd, on_zen3,
			off_board),
		cmocka_unit_test_setup_teardown(
			amds_own_branch_miss_ratio_reads_the_callers_generic_branch_events, on_zen3,
			off_board),
		cmocka_unit_test_setup_teardown(
			ipc_reads_instructions_and_cycles_of_the_callers_group_on_intel, on_skylake,
			off_board),
		cmocka_unit_test_setup_teardown(a_groups_modifiers_and_an_ungrouped_list_share_too,
						on_skylake, off_board),
		cmocka_unit_test_setup_teardown(
			a_metric_split_across_groups_or_half_counted_keeps_its_own_group,
			on_skylake, off_board),
		cmocka_unit_test_setup_teardown(other_privilege_levels_are_other_counts, on_skylake,
						off_board),
		cmocka_unit_test_setup_teardown(
			a_shared_event_left_out_makes_the_metric_unavailable_with_the_reason,
			on_skylake, off_board),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
