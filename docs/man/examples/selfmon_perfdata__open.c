// SPDX-License-Identifier: MIT
/* Samples into a perf.data file that perf report reads. */
#include <stdio.h>
#include <selfmon/perfdata.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

static int write_one(const struct selfmon_record *rec, void *pd)
{
	return selfmon_perfdata__write(pd, rec); /* non-zero stops the drain */
}

int main(void)
{
	struct selfmon_sampler_opts opts = { .sz = sizeof(opts),
					     .period = 1000000,
					     .sideband = SELFMON_SIDEBAND_MMAP2 |
							 SELFMON_SIDEBAND_COMM,
					     .sample_id_all = 1 };
	struct selfmon_sampler *s = selfmon_sampler__open("task-clock", &opts);
	struct selfmon_perfdata *pd = s ? selfmon_perfdata__open("perf.data", s) : NULL;

	if (!pd) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		selfmon_sampler__close(s);
		return 1;
	}
	selfmon_sampler__enable(s);
	for (unsigned long i = 0; i < 50000000; i++)
		sink += i;
	selfmon_sampler__disable(s);
	selfmon_sampler__drain(s, write_one, pd, 0);
	if (selfmon_perfdata__close(pd))
		fprintf(stderr, "%s\n", selfmon_errmsg());
	selfmon_sampler__close(s);
	return 0;
}
