// SPDX-License-Identifier: MIT
/* A benchmark with a metric's column (IPC), its events shared with the caller's own. */
#include <stdio.h>
#include <selfmon/metric.h>
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
	const char *mine = "{instructions:u,cycles:u}";
	struct selfmon_metrics *m = selfmon_metrics__new("ipc", -1, "u");
	struct selfmon_bench_opts opts = { .sz = sizeof(opts), .events = mine };
	struct selfmon_bench *b;
	struct selfmon_bench_result res;
	char part[64];

	if (!m || selfmon_metrics__share(m, mine) < 0) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	if (!selfmon_pmu_events__part(-1, part, sizeof(part)))
		printf("part %s, tables %s\n", part, selfmon_pmu_events__core(-1, NULL));
	opts.optional_events = selfmon_metrics__events(m); /* what sharing left to open */
	b = selfmon_bench__open(&opts);
	if (b && selfmon_bench__run(b, "sum", body, NULL, &res) == 0) {
		printf("%d events on the set of %d\n", selfmon_bench__nr_events(b),
		       selfmon_set__nr(selfmon_bench__set(b)));
		if (selfmon_metrics__add_columns(m, &res) > 0)
			printf("ipc: %.2f\n", res.col[res.nr_cols - 1].st.median);
		selfmon_bench_result__fini(&res);
	}
	selfmon_bench__close(b);
	selfmon_metrics__delete(m);
	return 0;
}
