// SPDX-License-Identifier: MIT
/* Parse records by hand: the layout from the event's attr, a group read's values. */
#include <stdio.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

static int show(const struct selfmon_record *rec, void *ctx)
{
	const struct selfmon_record_layout *layout = ctx;
	struct selfmon_record again;
	struct selfmon_read_entry e;

	/* rec->data holds the record as it was: parse it again, as a reader of a copy does */
	if (selfmon_record__parse(rec->data, rec->size, layout, &again))
		return 0;
	if (again.type == PERF_RECORD_SAMPLE)
		for (uint64_t i = 0; selfmon_record_read__entry(&again.sample.read, i, &e) == 0;
		     i++)
			printf("value %llu id %llu\n", (unsigned long long)e.value,
			       (unsigned long long)e.id);
	return 0;
}

int main(void)
{
	struct selfmon_sampler_opts opts = { .sz = sizeof(opts),
					     .period = 1000000,
					     .sample_type = SELFMON_SAMPLER_DEFAULT_TYPE |
							    PERF_SAMPLE_READ };
	struct selfmon_sampler *s = selfmon_sampler__open("{task-clock,page-faults}", &opts);
	struct selfmon_record_layout layout;

	if (!s) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	for (int i = 0; i < selfmon_sampler__nr(s); i++)
		printf("event %d: id %llu\n", i, (unsigned long long)selfmon_sampler__id(s, i));
	selfmon_record_layout__from_attr(&layout, selfmon_sampler__attr(s, 0));
	printf("same layout as the sampler's: %d\n",
	       layout.sample_type == selfmon_sampler__layout(s)->sample_type);
	selfmon_sampler__enable(s);
	for (volatile unsigned long i = 0; i < 20000000; i++)
		;
	selfmon_sampler__disable(s);
	selfmon_record_fn fn = show; /* the callback's type */

	selfmon_sampler__drain(s, fn, &layout, 0);
	selfmon_sampler__close(s);
	return 0;
}
