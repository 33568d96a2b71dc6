// SPDX-License-Identifier: MIT
/* Sample a function of this thread into a perf.data that `perf report` opens. */
#define _POSIX_C_SOURCE 200809L	/* <selfmon/sampler.h> names POSIX's siginfo_t */
#include <stdio.h>
#include <selfmon/perfdata.h>
#include <selfmon/selfmon.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hot_loop(void)
{
	for (unsigned long i = 0; i < 20000000; i++)
		sink += i;
}

static int write_record(const struct selfmon_record *rec, void *pd)
{
	return selfmon_perfdata__write(pd, rec);
}

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "cpu-clock:u";  /* or cycles:u with a PMU */
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .freq = 4000, .sample_id_all = 1 };
	struct selfmon_sampler *s = selfmon_sampler__open(event, &o);
	struct selfmon_perfdata *pd = s ? selfmon_perfdata__open("perf.data", s) : NULL;
	struct selfmon_sampler_stats st;

	if (!pd) {
		fprintf(stderr, "sample: %s\n", selfmon_errmsg());
		selfmon_sampler__close(s);
		return 1;
	}
	selfmon_sampler__enable(s);
	hot_loop();
	selfmon_sampler__disable(s);
	if (selfmon_sampler__drain(s, write_record, pd, 0) < 0 || selfmon_perfdata__close(pd)) {
		fprintf(stderr, "sample: %s\n", selfmon_errmsg());
		return 1;
	}
	selfmon_sampler__stats(s, &st);
	printf("%llu samples, %llu lost: perf report -i perf.data\n",
	       (unsigned long long)st.samples, (unsigned long long)st.lost);
	selfmon_sampler__close(s);
	return 0;
}
