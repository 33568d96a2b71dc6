// SPDX-License-Identifier: MIT
/*
 * The markers' report never floors a figure: a region whose calls counted
 * less than the empty pair subtracted from them reads below 0, as
 * measured, in the table (flagged below resolution), the CSV and the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../bench/marker_int.h"

/* One thread, one region "tiny" of 10 cached calls of 3 each, the empty pair 7: each call -4. */
static struct mk_thread *tiny_region(void)
{
	struct mk_thread *t = calloc(1, sizeof(*t));
	struct selfmon_marker *m;
	struct selfmon_priv_marker_slot *s;

	assert_non_null(t);
	mk.nr = 1;
	snprintf(mk.events, sizeof(mk.events), "instructions:u");
	snprintf(mk.event_name[0], sizeof(mk.event_name[0]), "instructions:u");
	m = mk_lookup("tiny");
	assert_non_null(m);
	t->h.slot = calloc(16, sizeof(*t->h.slot));
	assert_non_null(t->h.slot);
	t->h.nr_slots = 16;
	t->h.nr = 1;
	t->tid = 1;
	s = &t->h.slot[m->id];
	s->calls[MK_CACHED] = 10;
	s->sum[0] = 30;
	s->min[0] = 3;
	s->max[0] = 3;
	t->overhead[MK_CACHED][0] = 7;
	t->overhead[MK_NAMED][0] = 9;
	mk.threads = t;
	return t;
}

static char *report(const char *format)
{
	static char buf[16384];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	assert_int_equal(0, mk_report_to(f, format));
	fclose(f);
	return buf;
}

static void forget(void)
{
	mk__reset();
}

static void test_a_call_below_the_empty_pair_reads_negative_in_the_csv(void **state)
{
	(void)state;
	tiny_region();
	assert_non_null(strstr(report("csv"), "\ntiny,all,instructions:u,10,-40,-4.000,-4,-4,"));
	forget();
}

static void test_a_call_below_the_empty_pair_is_flagged_below_resolution_in_the_table(void **state)
{
	char *out;

	(void)state;
	tiny_region();
	out = report("table");
	assert_non_null(strstr(out, "-4.0"));
	assert_non_null(strstr(out, "below resolution: under the empty pair"));
	forget();
}

static void test_a_call_below_the_empty_pair_reads_negative_in_the_json(void **state)
{
	char *out;

	(void)state;
	tiny_region();
	out = report("json");
	assert_non_null(strstr(out, "\"instructions:u_min\": -4"));
	assert_non_null(strstr(out, "below resolution"));
	forget();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_call_below_the_empty_pair_reads_negative_in_the_csv),
		cmocka_unit_test(test_a_call_below_the_empty_pair_is_flagged_below_resolution_in_the_table),
		cmocka_unit_test(test_a_call_below_the_empty_pair_reads_negative_in_the_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
