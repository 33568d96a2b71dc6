// SPDX-License-Identifier: MIT
/*
 * <selfmon/metric.h> on the skylake fixture (x86 tables): a metric that names
 * other metrics (tma_info_thread_cpi = 1 / tma_info_thread_ipc, itself
 * INST_RETIRED.ANY / tma_info_thread_clks) opens its events as one group
 * each; selfmon_metrics__add_columns() computes every repetition from that
 * repetition's counts of the metric's own group and summarizes them as a
 * column; a group that did not open gets no column and a reason; a group
 * that read nothing says it never ran. Unknown names name the closest.
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
#include "fakeroot.h"

#if defined(CONFIG_PMU_EVENTS) && defined(CONFIG_ARCH_X86_64)
static int on_skylake(void **state)
{
	static char root[PATH_MAX + 16];

	(void)state;
	fakeroot__fixtures(root, PATH_MAX);
	strcat(root, "/skylake");
	return setenv("SELFMON_SYSFS_ROOT", root, 1);
}

/* A bench result: time, task-clock, then @names with @kept repetitions of @v[c][r]. */
static void result(struct selfmon_bench_result *res, const char *const *names, int nr, int kept, const double *v)
{
	memset(res, 0, sizeof(*res));
	res->kept = kept;
	res->nr_cols = nr;
	res->samples = calloc((size_t)nr * (size_t)kept, sizeof(double));
	assert_non_null(res->samples);
	for (int c = 0; c < nr; c++) {
		snprintf(res->col[c].name, sizeof(res->col[c].name), "%s", names[c]);
		res->col[c].unit = "";
		res->col[c].path = SELFMON_PATH_USER;
		for (int r = 0; r < kept; r++)
			res->samples[c * kept + r] = v[c * kept + r];
	}
}

/*
 * Two metrics of the same events open them once: the second reads the
 * first one's group (one instant for both, no counter taken twice).
 */
static void metrics_of_the_same_events_read_one_group(void **state)
{
	static const char *const names[] = {
		"time", "task-clock", "INST_RETIRED.ANY:u", "CPU_CLK_UNHALTED.THREAD:u",
	};
	/* Three repetitions. */
	static const double v[] = {
		10, 10, 10,  10, 10, 10,  300, 400, 600,  200, 200, 300,
	};
	struct selfmon_bench_result res;
	struct selfmon_metrics *m;
	int ipc, cpi;

	(void)state;
	m = selfmon_metrics__new("@tma_info_thread_ipc,tma_info_thread_cpi", 0, "u");
	assert_non_null(m);
	assert_string_equal(selfmon_metrics__core(m, NULL), "skylake");
	assert_string_equal(selfmon_metrics__events(m),
			    "{INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.THREAD:u}");
	result(&res, names, 4, 3, v);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 2);
	ipc = selfmon_bench_result__col(&res, "tma_info_thread_ipc");
	cpi = selfmon_bench_result__col(&res, "tma_info_thread_cpi");
	assert_int_equal(ipc, 4);
	assert_int_equal(cpi, 5);
	/* ipc per repetition 1.5, 2, 2: median 2, min 1.5 */
	assert_float_equal(res.col[ipc].st.median, 2, 1e-12);
	assert_float_equal(res.col[ipc].st.min, 1.5, 1e-12);
	/* cpi from the same group, repetition by repetition: 2/3, 1/2, 1/2 */
	assert_float_equal(res.samples[cpi * 3], 200.0 / 300.0, 1e-12);
	assert_float_equal(res.col[cpi].st.median, 0.5, 1e-12);
	assert_string_equal(selfmon_metrics__why(m, 0), "");
	assert_string_equal(selfmon_metrics__why(m, 1), "");
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

static void a_group_missing_or_never_run_says_so(void **state)
{
	static const char *const names[] = { "time", "task-clock", "INST_RETIRED.ANY:u", "CPU_CLK_UNHALTED.THREAD:u" };
	static const double zero[] = { 10, 10, 10, 10, 0, 0, 0, 0 };
	struct selfmon_bench_result res;
	struct selfmon_metrics *m = selfmon_metrics__new("tma_info_thread_ipc", 0, "u");

	(void)state;
	assert_non_null(m);
	result(&res, names, 2, 2, zero);
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 0);
	assert_non_null(strstr(selfmon_metrics__why(m, 0), "did not open together"));
	selfmon_bench_result__fini(&res);
	result(&res, names, 4, 2, zero);
	res.col[2].path = res.col[3].path = SELFMON_PATH_SYSCALL;
	assert_int_equal(selfmon_metrics__add_columns(m, &res), 0);
	assert_non_null(strstr(selfmon_metrics__why(m, 0), "never ran"));
	selfmon_bench_result__fini(&res);
	selfmon_metrics__delete(m);
}

static void an_unknown_name_is_refused_naming_the_closest(void **state)
{
	(void)state;
	assert_null(selfmon_metrics__new("tma_info_thread_ipcc", 0, "u"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(selfmon_errmsg(), "'tma_info_thread_ipcc'"));
	assert_non_null(strstr(selfmon_errmsg(), "'tma_info_thread_ipc'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(metrics_of_the_same_events_read_one_group),
		cmocka_unit_test(a_group_missing_or_never_run_says_so),
		cmocka_unit_test(an_unknown_name_is_refused_naming_the_closest),
	};

	return cmocka_run_group_tests(tests, on_skylake, NULL);
}
#else
static void needs_x86_tables(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(needs_x86_tables) };

	printf("# SKIP: needs the x86 pmu-events tables (CONFIG_PMU_EVENTS on x86_64)\n");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
