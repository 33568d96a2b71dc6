// SPDX-License-Identifier: MIT
/* Read a ring that another library mapped: here one made with perf_event_open(2) by hand. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

static int count(const struct selfmon_record *rec, void *n)
{
	(void)rec;
	++*(int *)n;
	return 0;
}

int main(void)
{
	struct perf_event_attr attr;
	size_t len = (1 + 8) * (size_t)sysconf(_SC_PAGESIZE);
	struct selfmon_sampler *s;
	void *map;
	int fd, n = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	map = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || !(s = selfmon_sampler__attach(map, len, &attr))) {
		fprintf(stderr, "%s\n", fd < 0 ? "perf_event_open failed" : selfmon_errmsg());
		return 1;
	}
	for (volatile unsigned long i = 0; i < 20000000; i++)
		;
	selfmon_sampler__drain(s, count, &n, 0);
	printf("%d records\n", n);
	selfmon_sampler__close(s); /* leaves the mapping */
	munmap(map, len);
	close(fd);
	return 0;
}
