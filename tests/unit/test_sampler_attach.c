// SPDX-License-Identifier: MIT
/*
 * selfmon_sampler__attach() over mappings made here, no kernel ring needed:
 * what the reader will load and store is checked before it is trusted. A
 * ring mapped read-only (perf's overwrite mode) or not mapped at all is
 * refused with a named error, never a SIGSEGV at the first drain; a page
 * whose data_offset/data_size lie outside the mapping is refused; a sound
 * one is drained, its data_tail moved past what was read.
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

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>

static size_t page;

static const struct perf_event_attr attr = {
	.size = sizeof(struct perf_event_attr),
	.type = PERF_TYPE_SOFTWARE,
	.config = PERF_COUNT_SW_CPU_CLOCK,
	.sample_period = 100000,
	.sample_type = PERF_SAMPLE_IP,
};

/* A page and @data_pages data pages, filled in as the kernel does, then given @prot. */
static struct perf_event_mmap_page *ring(int data_pages, int prot)
{
	struct perf_event_mmap_page *pg = mmap(NULL, (1 + (size_t)data_pages) * page,
					       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
					       -1, 0);

	assert_true(pg != MAP_FAILED);
	pg->data_offset = page;
	pg->data_size = (size_t)data_pages * page;
	assert_int_equal(mprotect(pg, (1 + (size_t)data_pages) * page, prot), 0);
	return pg;
}

static void says(const char *what)
{
	if (!strstr(selfmon_errmsg(), what))
		fail_msg("the message does not say '%s': %s", what, selfmon_errmsg());
}

static void a_read_only_ring_is_refused_at_attach_not_faulted_at_drain(void **state)
{
	struct perf_event_mmap_page *pg = ring(2, PROT_READ);
	struct selfmon_sampler *s;

	(void)state;
	s = selfmon_sampler__attach(pg, 3 * page, &attr);
	if (s) {
		/* what the drain did before attach checked: a store to data_tail, SIGSEGV */
		selfmon_sampler__drain(s, NULL, NULL, 0);
		selfmon_sampler__close(s);
		fail_msg("a PROT_READ ring was attached");
	}
	assert_int_equal(errno, EACCES);
	says("read-only");
	says("PROT_WRITE");
	munmap(pg, 3 * page);
}

static void a_mapping_that_is_not_there_is_refused_as_efault(void **state)
{
	struct perf_event_mmap_page *pg = ring(2, PROT_READ | PROT_WRITE);

	(void)state;
	/* the length given runs a page past the mapping's end */
	munmap((char *)pg + 2 * page, page);
	assert_null(selfmon_sampler__attach(pg, 3 * page, &attr));
	assert_int_equal(errno, EFAULT);
	says("not all readable");
	munmap(pg, 2 * page);
	pg = ring(1, PROT_NONE);
	assert_null(selfmon_sampler__attach(pg, 2 * page, &attr));
	assert_int_equal(errno, EFAULT);
	munmap(pg, 2 * page);
}

static void a_page_whose_data_lies_past_the_mapping_is_refused(void **state)
{
	struct perf_event_mmap_page *pg = ring(2, PROT_READ | PROT_WRITE);

	(void)state;
	pg->data_size = 4 * page;
	assert_null(selfmon_sampler__attach(pg, 3 * page, &attr));
	assert_int_equal(errno, EINVAL);
	says("data_size");
	pg->data_size = 2 * page;
	pg->data_offset = 2 * page;
	assert_null(selfmon_sampler__attach(pg, 3 * page, &attr));
	assert_int_equal(errno, EINVAL);
	munmap(pg, 3 * page);
}

static int count(const struct selfmon_record *rec, void *ctx)
{
	(void)rec;
	++*(int *)ctx;
	return 0;
}

static void a_sound_ring_is_attached_and_drained_and_its_tail_kept_until_then(void **state)
{
	struct perf_event_mmap_page *pg = ring(2, PROT_READ | PROT_WRITE);
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 16 };
	uint8_t *data = (uint8_t *)pg + page;
	struct selfmon_sampler *s;
	uint64_t ip = 0x1234;
	int n = 0;

	(void)state;
	pg->data_tail = 1024;		/* checking writability must not move it */
	for (int i = 0; i < 3; i++) {
		memcpy(data + 1024 + 16 * i, &h, sizeof(h));
		memcpy(data + 1024 + 16 * i + 8, &ip, sizeof(ip));
	}
	pg->data_head = 1024 + 48;
	s = selfmon_sampler__attach(pg, 3 * page, &attr);
	assert_non_null(s);
	assert_int_equal(pg->data_tail, 1024);
	assert_int_equal(selfmon_sampler__drain(s, count, &n, 0), 3);
	assert_int_equal(n, 3);
	assert_int_equal(pg->data_tail, 1024 + 48);
	selfmon_sampler__close(s);
	munmap(pg, 3 * page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_read_only_ring_is_refused_at_attach_not_faulted_at_drain),
		cmocka_unit_test(a_mapping_that_is_not_there_is_refused_as_efault),
		cmocka_unit_test(a_page_whose_data_lies_past_the_mapping_is_refused),
		cmocka_unit_test(a_sound_ring_is_attached_and_drained_and_its_tail_kept_until_then),
	};

	page = (size_t)sysconf(_SC_PAGESIZE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
