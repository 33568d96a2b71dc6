// SPDX-License-Identifier: MIT
/* A measurement of your own (two columns, three repetitions) in selfmon's JSON, CSV and table. */
#include <stdio.h>
#include <selfmon/report.h>

int main(void)
{
	static const double ns[] = { 10.5, 10.1, 10.3 }, insns[] = { 42, 42, 43 };
	const struct selfmon_report_col cols[] = {
		{ .name = "time", .unit = "ns", .values = ns },
		{ .name = "instructions:u", .unit = "", .path = "user", .values = insns },
	};
	struct selfmon_report_entry e = {
		.kind = SELFMON_REPORT_ENTRY_COLUMNS,
		.name = "parse",
		.iterations = 1000,
		.repetitions = 3,
		.kept = 3,
		.nr_cols = 2,
		.cols = cols,
		.expected_insns = -1,
	};
	struct selfmon_report_context ctx = { 0 };

	selfmon_report__context_fill(&ctx);
	ctx.version = selfmon_version();
	if (selfmon_report__json(stdout, &ctx, &e, 1) || selfmon_report__csv(stdout, &ctx, &e, 1))
		return 1;
	return selfmon_report__table(stdout, &ctx, &e, 1) ? 1 : 0;
}
