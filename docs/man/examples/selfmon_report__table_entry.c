// SPDX-License-Identifier: MIT
/*
 * The table printed row by row, as each row is measured; the row's derived
 * metrics, one a line.
 */
#include <stdio.h>
#include <selfmon/report.h>

int main(void)
{
	static const double ns[] = { 1000, 1010 }, insns[] = { 4000, 4000 },
			    cycles[] = { 2000, 2100 };
	const struct selfmon_report_col cols[] = {
		{ .name = "time", .unit = "ns", .values = ns },
		{ .name = "instructions", .values = insns },
		{ .name = "cycles", .values = cycles },
	};
	struct selfmon_report_entry e = { .kind = SELFMON_REPORT_ENTRY_COLUMNS,
					  .name = "loop",
					  .iterations = 100,
					  .repetitions = 2,
					  .kept = 2,
					  .nr_cols = 3,
					  .cols = cols,
					  .expected_insns = 40 };
	struct selfmon_report_context ctx = { 0 };
	struct selfmon_report_derived d;

	selfmon_report__context_fill(&ctx);
	selfmon_report__table_header(stdout, &ctx);
	if (selfmon_report__table_entry(stdout, &e))
		return 1;
	selfmon_report__derived(&e, &d);
	for (int i = 0; i < d.nr; i++)
		printf("%s: %g\n", d.m[i].name, d.m[i].value);
	return 0;
}
