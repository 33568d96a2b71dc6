// SPDX-License-Identifier: MIT
/*
 * Sample the thread's instruction pointer every 100000 cycles (without a
 * PMU: ./a.out task-clock, every 100000 ns).
 */
#include <stdio.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

static int on_record(const struct selfmon_record *rec, void *ctx)
{
	unsigned long *samples = ctx;

	if (rec->type == PERF_RECORD_SAMPLE) {
		(*samples)++;
		printf("ip %#llx tid %u\n", (unsigned long long)rec->sample.ip, rec->sample.tid);
	} else {
		printf("%s record\n", selfmon_record__name(rec->type));
	}
	return 0; /* go on */
}

int main(int argc, char **argv)
{
	struct selfmon_sampler_opts opts = {
		.sz = sizeof(opts),
		.period = 100000,
		.sample_type = SELFMON_SAMPLER_DEFAULT_TYPE,
		.sideband = SELFMON_SIDEBAND_MMAP2 | SELFMON_SIDEBAND_COMM,
	};
	struct selfmon_sampler *s = selfmon_sampler__open(argc > 1 ? argv[1] : "cycles:u", &opts);
	struct selfmon_sampler_stats st;
	unsigned long samples = 0;

	if (!s) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	selfmon_sampler__enable(s);
	for (unsigned long i = 0; i < 10000000; i++)
		sink += i;
	selfmon_sampler__disable(s);
	if (selfmon_sampler__drain(s, on_record, &samples, 0) < 0 ||
	    selfmon_sampler__stats(s, &st)) {
		selfmon_sampler__close(s);
		return 1;
	}
	printf("%lu samples, %llu lost\n", samples, (unsigned long long)st.lost);
	selfmon_sampler__close(s);
	return 0;
}
