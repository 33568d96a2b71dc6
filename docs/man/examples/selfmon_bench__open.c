// SPDX-License-Identifier: MIT
/* Benchmark a function, print its median instructions, write the JSON report. */
#include <stdio.h>
#include <selfmon/report.h>

static volatile unsigned long sink;

static void body(void *arg, uint64_t iters)
{
	(void)arg;
	for (uint64_t i = 0; i < iters; i++)
		sink += i;
}

int main(void)
{
	struct selfmon_bench_opts opts = {
		.sz = sizeof(opts), .events = "instructions:u", .repetitions = 20, .warmup = 2
	};
	struct selfmon_bench *b = selfmon_bench__open(&opts);
	struct selfmon_bench_result res;
	struct selfmon_report_context ctx = { 0 };
	struct selfmon_report_entry e = {
		.kind = SELFMON_REPORT_ENTRY_RESULT, .res = &res, .expected_insns = -1
	};
	int c;

	if (!b) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	if (selfmon_bench__note(b))
		fprintf(stderr, "note: %s\n", selfmon_bench__note(b));
	if (selfmon_bench__run(b, "sum", body, NULL, &res)) {
		selfmon_bench__close(b);
		return 1;
	}
	c = selfmon_bench_result__col(&res, "instructions");
	if (c >= 0)
		printf("%.1f instructions per iteration\n", res.col[c].st.median);
	selfmon_report__context_fill(&ctx);
	ctx.version = selfmon_version();
	selfmon_report__json(stdout, &ctx, &e, 1);
	selfmon_bench_result__fini(&res);
	selfmon_bench__close(b);
	return 0;
}
