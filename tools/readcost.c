// SPDX-License-Identifier: MIT
/*
 * The read cost of one event, four ways, for `selfmon bench readcost`:
 * selfmon's inline page read, libperf's perf_evsel__read() on an mmapped
 * evsel, read(2), and the selfmon_set__read() call. All read the same event:
 * the attr selfmon prepared (PMU type, format bits), opened three times.
 *
 * libperf reads from user space itself (perf_mmap__read_self) only when the
 * read_format has no PERF_FORMAT_ID, so its evsel here has none: what is
 * measured is libperf's own user read, not a read(2) in disguise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perf/evsel.h>
#include <perf/threadmap.h>

#include <selfmon/selfmon.h>
#include <selfmon/read.h>
#include "cli.h"
#include "../util/err.h"
#include "../util/sort.h"

struct cli_readcost {
	struct selfmon_set *set; /* selfmon's counter of the event */
	const struct perf_event_mmap_page *page;
	struct perf_thread_map *threads;
	struct perf_evsel *evsel; /* libperf's, mmapped, no PERF_FORMAT_ID */
	int fd; /* the plain fd for read(2) */
	uint64_t sink;
};

static int open_libperf(struct cli_readcost *rc, struct perf_event_attr attr)
{
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 1;
	rc->threads = perf_thread_map__new_dummy();
	if (!rc->threads)
		return -ENOMEM;
	perf_thread_map__set_pid(rc->threads, 0, 0);
	rc->evsel = perf_evsel__new(&attr);
	if (!rc->evsel)
		return -ENOMEM;
	if (perf_evsel__open(rc->evsel, NULL, rc->threads)) {
		perf_evsel__delete(rc->evsel);
		rc->evsel = NULL;
		return selfmon_errmsg__set(-errno ? -errno : -EIO,
					   "libperf: cannot open the event: %s", strerror(errno));
	}
	/* Without a mapping libperf has no page to read from: all would be read(2). */
	if (perf_evsel__mmap(rc->evsel, 0))
		return selfmon_errmsg__set(-EIO, "libperf: cannot mmap the event");
	return perf_evsel__enable(rc->evsel) ? -EIO : 0;
}

static int open_fd(struct cli_readcost *rc, struct perf_event_attr attr)
{
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 0;
	rc->fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (rc->fd < 0)
		return selfmon_errmsg__set(-errno, "perf_event_open for read(2): %s",
					   strerror(errno));
	return 0;
}

struct cli_readcost *cli_readcost__open(const struct selfmon_opts *opts)
{
	struct cli_readcost *rc = calloc(1, sizeof(*rc));
	int err;

	if (!rc) {
		errno = ENOMEM;
		return NULL;
	}
	rc->fd = -1;
	rc->set = selfmon_set__open("instructions:u", opts);
	if (!rc->set)
		rc->set = selfmon_set__open("task-clock", opts);
	if (!rc->set) {
		err = -errno;
		goto out;
	}
	err = selfmon_set__enable(rc->set);
	if (err)
		goto out;
	rc->page = selfmon_set__path(rc->set, 0, NULL) == SELFMON_PATH_USER ?
			   selfmon_set__page(rc->set, 0) :
			   NULL;
	err = open_libperf(rc, *selfmon_set__attr(rc->set, 0));
	if (!err)
		err = open_fd(rc, *selfmon_set__attr(rc->set, 0));
out:
	if (err)
		cli_readcost__close(rc);
	return err ? util_null_errno(err) : rc;
}

void cli_readcost__close(struct cli_readcost *rc)
{
	if (!rc)
		return;
	if (rc->evsel) {
		perf_evsel__munmap(rc->evsel);
		perf_evsel__close(rc->evsel);
		perf_evsel__delete(rc->evsel);
	}
	perf_thread_map__put(rc->threads);
	if (rc->fd >= 0)
		close(rc->fd);
	selfmon_set__close(rc->set);
	free(rc);
}

const char *cli_readcost__event(const struct cli_readcost *rc)
{
	return selfmon_set__name(rc->set, 0);
}

bool cli_readcost__inline_ok(const struct cli_readcost *rc, const char **why)
{
	enum selfmon_reason r = SELFMON_REASON_NONE;

	selfmon_set__path(rc->set, 0, &r);
	if (why)
		*why = selfmon_reason__str(r);
	return rc->page != NULL;
}

/*
 * The four loops differ only in their read. The empty asm gives the empty
 * loop a value to sum without a load, as the reads do.
 */
static void body_empty(void *arg, uint64_t n)
{
	struct cli_readcost *rc = arg;
	uint64_t v, sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		__asm__ __volatile__("" : "=r"(v) : "r"(rc->page));
		sum += v;
	}
	rc->sink = sum;
}

static void body_selfmon(void *arg, uint64_t n)
{
	struct cli_readcost *rc = arg;
	const struct perf_event_mmap_page *pg = rc->page;
	uint64_t v, sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (selfmon_page__read_value(pg, &v))
			v = 0;
		sum += v;
	}
	rc->sink = sum;
}

static void body_libperf(void *arg, uint64_t n)
{
	struct cli_readcost *rc = arg;
	struct perf_counts_values c;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		perf_evsel__read(rc->evsel, 0, 0, &c);
		sum += c.val;
	}
	rc->sink = sum;
}

static void body_syscall(void *arg, uint64_t n)
{
	struct cli_readcost *rc = arg;
	uint64_t buf[3] = { 0 }, sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (read(rc->fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			buf[0] = 0;
		sum += buf[0];
	}
	rc->sink = sum;
}

static void body_set(void *arg, uint64_t n)
{
	struct cli_readcost *rc = arg;
	struct selfmon_count c;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (selfmon_set__read(rc->set, 0, &c))
			c.value = 0;
		sum += c.value;
	}
	rc->sink = sum;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds @fn takes for @n reads. */
static double timed(selfmon_bench_fn fn, struct cli_readcost *rc, uint64_t n)
{
	double t = seconds();

	fn(rc, n);
	return seconds() - t;
}

double cli_readcost__interleaved(struct cli_readcost *rc, int rounds, uint64_t n)
{
	double ratio[64], set, sys;
	struct selfmon_count c;

	if (rounds < 1 || rounds > 64 || selfmon_set__read(rc->set, 0, &c))
		return -1;
	for (int i = 0; i < rounds; i++) {
		if (i & 1) {
			sys = timed(body_syscall, rc, n);
			set = timed(body_set, rc, n);
		} else {
			set = timed(body_set, rc, n);
			sys = timed(body_syscall, rc, n);
		}
		ratio[i] = sys > 0 ? set / sys : 1.0;
	}
	return util_median(ratio, (size_t)rounds);
}

const struct cli_cost_row cli_readcost__rows[CLI_READCOST__NR] = {
	[CLI_READCOST_EMPTY] = { "readcost/loop", body_empty },
	[CLI_READCOST_SELFMON] = { "readcost/selfmon", body_selfmon },
	[CLI_READCOST_LIBPERF] = { "readcost/libperf", body_libperf },
	[CLI_READCOST_SYSCALL] = { "readcost/read(2)", body_syscall },
	[CLI_READCOST_SET] = { "readcost/set_read", body_set },
};
