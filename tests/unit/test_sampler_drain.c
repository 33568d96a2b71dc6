// SPDX-License-Identifier: MIT
/*
 * selfmon_sampler__drain() over a synthetic ring (perf_event_open(2), "MMAP
 * layout"), lap after lap: every record handed on is what the full parser
 * makes of its bytes, whichever way the drain took (the planned SAMPLE's
 * short way, a SAMPLE after a side-band record, one that wraps the ring's
 * end, every other record); a callback that stops the drain leaves data_tail
 * just past its record; the stats a callback asks for count the records so
 * far; a corrupt header empties the ring after the records before it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <selfmon/sample.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

#define TYPE                                                                            \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_PERIOD)
#define SAMPLE 48 /* header and the five words of TYPE */
/* COMM: header, pid and tid, the string (8 bytes or more), the trailer (TID, TIME, IDENTIFIER): 48 or more */
#define MAX_RECS 64

static size_t page;

static const struct perf_event_attr attr = {
	.size = sizeof(struct perf_event_attr),
	.type = PERF_TYPE_SOFTWARE,
	.config = PERF_COUNT_SW_CPU_CLOCK,
	.sample_period = 100000,
	.sample_type = TYPE,
	.sample_id_all = 1,
};

/* The ring, the records written since the last drain, and what the callback saw. */
struct fixture {
	struct perf_event_mmap_page *pg;
	uint8_t *data;
	struct selfmon_sampler *s;
	uint64_t head, seed;
	uint64_t recs[MAX_RECS][64]; /* each record's bytes, aligned */
	uint16_t sizes[MAX_RECS];
	int nr, handed, checked, stop_at;
	uint64_t records_before;
};

static uint64_t next(struct fixture *f)
{
	f->seed = f->seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return f->seed >> 33;
}

/* Append a record of @type and @size, its words made up, at data_head; published later. */
static void put(struct fixture *f, uint32_t type, uint16_t size)
{
	struct perf_event_header h = { .type = type, .size = size };
	uint8_t *b = (uint8_t *)f->recs[f->nr];

	for (uint16_t i = 8; i < size; i += 8) {
		uint64_t w = next(f);

		memcpy(b + i, &w, 8);
	}
	memcpy(b, &h, sizeof(h));
	if (type == PERF_RECORD_COMM) /* pid, tid, "comm" and its NUL, then the trailer */
		memcpy(b + 16, "comm", 5);
	for (uint16_t i = 0; i < size; i++)
		f->data[(f->head + i) % page] = b[i];
	f->sizes[f->nr++] = size;
	f->head += size;
}

/* The record the callback should see next: the next one the full parser accepts. */
static int expected(struct fixture *f, struct selfmon_record *want)
{
	while (f->checked < f->nr) {
		int i = f->checked++;

		if (!selfmon_record__parse(f->recs[i], f->sizes[i], selfmon_sampler__layout(f->s),
					   want))
			return i;
	}
	fail_msg("a record was handed on that the parser refuses");
	return -1;
}

static int check(const struct selfmon_record *got, void *arg)
{
	struct fixture *f = arg;
	struct selfmon_record want;
	struct selfmon_sampler_stats st;
	int i = expected(f, &want);

	/* the right bytes, and what the parser makes of them where they lie (pointers into them) */
	assert_int_equal(got->size, f->sizes[i]);
	assert_memory_equal(got->data, f->recs[i], f->sizes[i]);
	assert_int_equal(selfmon_record__parse(got->data, got->size, selfmon_sampler__layout(f->s),
					       &want),
			 0);
	assert_memory_equal(got, &want, sizeof(want));
	f->handed++;
	assert_int_equal(selfmon_sampler__stats(f->s, &st), 0);
	assert_int_equal(st.records, f->records_before + (uint64_t)f->handed);
	return f->handed == f->stop_at;
}

static void setup(struct fixture *f, uint64_t tail)
{
	memset(f, 0, sizeof(*f));
	f->pg = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(f->pg != MAP_FAILED);
	f->pg->data_offset = page;
	f->pg->data_size = page;
	f->pg->data_tail = f->pg->data_head = f->head = tail;
	f->data = (uint8_t *)f->pg + page;
	f->s = selfmon_sampler__attach(f->pg, 2 * page, &attr);
	assert_non_null(f->s);
	f->seed = tail + 1;
}

static void teardown(struct fixture *f)
{
	selfmon_sampler__close(f->s);
	munmap(f->pg, 2 * page);
}

/* Publish what was put, drain, and check that every accepted record came, in order. */
static void drain_all(struct fixture *f)
{
	struct selfmon_sampler_stats st;
	int n;

	selfmon_sampler__stats(f->s, &st);
	f->records_before = st.records;
	f->pg->data_head = f->head;
	n = selfmon_sampler__drain(f->s, check, f, 0);
	assert_int_equal(n, f->handed);
	assert_int_equal(f->pg->data_tail, f->head);
	while (f->checked < f->nr) { /* the rest must be refused ones */
		struct selfmon_record r;

		assert_int_not_equal(selfmon_record__parse(f->recs[f->checked], f->sizes[f->checked],
							   selfmon_sampler__layout(f->s), &r),
				     0);
		f->checked++;
	}
	f->nr = f->handed = f->checked = 0;
}

static void every_record_is_what_the_parser_makes_of_it_lap_after_lap(void **state)
{
	static struct fixture f;
	struct selfmon_sampler_stats st;
	uint64_t samples = 0;

	(void)state;
	setup(&f, 4000); /* near the end: the first lap wraps soon */
	for (int round = 0; round < 200; round++) {
		for (int i = 0, n = 1 + (int)(next(&f) % 40); i < n && f.head - f.pg->data_tail < page - 512;
		     i++) {
			uint64_t r = next(&f) % 16;

			if (r < 11) {
				put(&f, PERF_RECORD_SAMPLE, SAMPLE);
				samples++;
			} else if (r < 13) {
				put(&f, PERF_RECORD_COMM, 48 + 8 * (uint16_t)(next(&f) % 4));
			} else if (r < 14) {
				put(&f, PERF_RECORD_LOST, 48);
			} else if (r < 15) {
				put(&f, PERF_RECORD_SAMPLE, SAMPLE + 8); /* malformed: not handed on */
			} else {
				put(&f, 0x7777, 16); /* unknown: skipped */
			}
		}
		drain_all(&f);
	}
	selfmon_sampler__stats(f.s, &st);
	assert_int_equal(st.samples, samples);
	assert_int_equal(st.corrupt, 0);
	teardown(&f);
}

static void a_callback_that_stops_leaves_the_tail_past_its_record(void **state)
{
	static struct fixture f;

	(void)state;
	setup(&f, page - 2 * SAMPLE); /* the third sample wraps the end */
	for (int i = 0; i < 6; i++)
		put(&f, PERF_RECORD_SAMPLE, SAMPLE);
	f.pg->data_head = f.head;
	for (int stop = 1; stop <= 6; stop++) {
		f.stop_at = 1;
		f.handed = 0;
		f.records_before = (uint64_t)stop - 1;
		assert_int_equal(selfmon_sampler__drain(f.s, check, &f, 0), 1);
		assert_int_equal(f.pg->data_tail, page - 2 * SAMPLE + (uint64_t)stop * SAMPLE);
	}
	assert_int_equal(selfmon_sampler__drain(f.s, check, &f, 0), 0);
	teardown(&f);
}

static void a_corrupt_header_empties_the_ring_after_the_records_before_it(void **state)
{
	static struct fixture f;
	struct selfmon_sampler_stats st;

	(void)state;
	setup(&f, 0);
	put(&f, PERF_RECORD_SAMPLE, SAMPLE);
	put(&f, PERF_RECORD_SAMPLE, SAMPLE);
	put(&f, PERF_RECORD_SAMPLE, 12); /* not a multiple of 8 */
	put(&f, PERF_RECORD_SAMPLE, SAMPLE);
	f.pg->data_head = f.head;
	f.nr = 2; /* the two before it */
	assert_int_equal(selfmon_sampler__drain(f.s, check, &f, 0), 2);
	assert_int_equal(f.pg->data_tail, f.head);
	selfmon_sampler__stats(f.s, &st);
	assert_int_equal(st.corrupt, 1);
	assert_int_equal(st.samples, 2);
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_record_is_what_the_parser_makes_of_it_lap_after_lap),
		cmocka_unit_test(a_callback_that_stops_leaves_the_tail_past_its_record),
		cmocka_unit_test(a_corrupt_header_empties_the_ring_after_the_records_before_it),
	};

	page = (size_t)sysconf(_SC_PAGESIZE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
