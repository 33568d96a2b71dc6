// SPDX-License-Identifier: MIT
/*
 * One counter of a set: opened through libperf with the arch's and the
 * paranoid fallbacks, and read by its page or by read(2).
 */
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <perf/evsel.h>

#include <generated/autoconf.h>
#include <selfmon/read.h>
#include "arch_int.h"
#include "error.h"
#include "errtext.h"
#include "counter.h"
#include "dir.h"
#include "group.h"
#include "refusal.h"
#include "set.h"
#include "sysfs.h"
#include "fmt.h"

static long paranoid_level(const char *root)
{
	long v = 2; /* the kernel's default where the file cannot be read */

	selfmon_sysfs__read_long(root, "/proc/sys/kernel/perf_event_paranoid", &v);
	return v;
}

/*
 * EACCES/EPERM: the levels the sysctl allows to a user without
 * CAP_PERFMON (perf_event_open(2), "perf_event_paranoid"): 2 user space
 * only, 1 the kernel too, and Debian's 3 nothing. Suggest the value that
 * would do, never the one in force.
 */
static int access_error(const struct selfmon_counter *c, int err, const char *root)
{
	long now = paranoid_level(root), need = c->ev.attr.exclude_kernel ? 2 : 1;

	/* The sysctl binds users without CAP_PERFMON; root is refused for other reasons. */
	if (geteuid() == 0)
		return selfmon__err(
			err,
			"event '%s': perf_event_open: %s, even for root: not "
			"kernel.perf_event_paranoid but something else forbids it (a "
			"security module, lockdown, a container's seccomp profile, or an "
			"event that needs more, such as a tracepoint's id)",
			c->ev.name, selfmon_errtext__str(-err));
	if (now <= need)
		return selfmon__err(err,
				    "event '%s': perf_event_open: %s, although "
				    "kernel.perf_event_paranoid is %ld: something else forbids it "
				    "(a security module, lockdown, a container's seccomp profile)",
				    c->ev.name, selfmon_errtext__str(-err), now);
	return selfmon__err(
		err,
		"event '%s': perf_event_open: %s: kernel.perf_event_paranoid is "
		"%ld; %s needs %ld or less: 'sysctl -w kernel.perf_event_paranoid=%ld', "
		"or run with CAP_PERFMON (root)",
		c->ev.name, selfmon_errtext__str(-err), now,
		need == 1 ? "counting the kernel" : "counting user space", need, need);
}

static int open_error(const struct selfmon_counter *c, int err, const char *root)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return access_error(c, err, root);
	case -ENOENT:
	case -EOPNOTSUPP:
	case -ENODEV:
		if (c->ev.hardware && !c->ev.pmu)
			return selfmon__err(err,
					    "event '%s': no hardware PMU on this machine (a VM "
					    "without a virtual PMU?): only software events can be "
					    "counted",
					    c->ev.name);
		return selfmon__err(err,
				    "event '%s': perf_event_open: %s: the PMU does not offer "
				    "this event",
				    c->ev.name, selfmon_errtext__str(-err));
	case -EMFILE:
		return selfmon__err(err, "event '%s': out of file descriptors (ulimit -n)",
				    c->ev.name);
	case -ENOSYS:
		/* No event opens at all, not even a software one: the call itself is missing. */
		return selfmon__err(err,
				    "event '%s': perf_event_open is not available here (ENOSYS: "
				    "qemu-user, a seccomp filter, or a kernel without "
				    "CONFIG_PERF_EVENTS)",
				    c->ev.name);
	case -EINVAL:
		/* The kernel checks that a whole group fits the PMU as each member joins. */
		if (c->leader >= 0)
			return selfmon__err(
				err,
				"event '%s': perf_event_open: %s: the kernel refused "
				"it in its group: a group must fit the PMU's counters at "
				"once, and this one would have more events than the PMU has "
				"counters (or events of different PMUs): split the group",
				c->ev.name, selfmon_errtext__str(-err));
		if (c->ev.pmu_named && !c->ev.hardware)
			return selfmon__err(
				err,
				"event '%s': perf_event_open: %s: its PMU is not a "
				"CPU's: it may count only system-wide, not one thread as "
				"selfmon does, or not take a modifier (:u :k :h) or term given",
				c->ev.name, selfmon_errtext__str(-err));
		return selfmon__err(
			err,
			"event '%s': perf_event_open: %s: the kernel refused this "
			"event's attributes (a modifier or term the PMU does not support)",
			c->ev.name, selfmon_errtext__str(-err));
	default:
		return selfmon__err(err, "event '%s': perf_event_open: %s", c->ev.name,
				    selfmon_errtext__str(-err));
	}
}

/*
 * perf's fallback for users at perf_event_paranoid 2: an event whose
 * privilege levels were not chosen counts user space only. Said through
 * selfmon_set__note(); never done to an event whose caller chose ":k".
 */
static bool user_only_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	if ((err != -EACCES && err != -EPERM) || ev->levels_given || ev->attr.exclude_kernel)
		return false;
	ev->attr.exclude_kernel = 1;
	ev->attr.exclude_hv = 1;
	*notes |= SELFMON_NOTE_USER_ONLY;
	return true;
}

static int evsel_new(struct selfmon_counter *c, struct selfmon_event *ev, struct perf_evsel **out)
{
	/* Members start with their leader (perf_event_open(2), "disabled"). */
	ev->attr.disabled = c->leader < 0 || c->nr_members > 0;
	/*
	 * PERF_FORMAT_ID also keeps libperf's perf_evsel__read() from trying a
	 * user-space read of its own: our slow path is always read(2).
	 */
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			       PERF_FORMAT_ID | (c->nr_members > 0 ? PERF_FORMAT_GROUP : 0);
	*out = perf_evsel__new(&ev->attr);
	if (!*out)
		return selfmon__err(-ENOMEM, "event '%s': out of memory", ev->name);
	return 0;
}

/* Open @e for the calling thread; the arch, then the paranoid fallback, may adjust and retry. */
static int evsel_open(struct selfmon_set *set, struct selfmon_counter *c, struct selfmon_event *ev,
		      struct perf_evsel *e, const char *root)
{
	const struct selfmon_arch *arch = selfmon_arch__host();
	int err;

	for (;;) {
		err = perf_evsel__open(e, set->cpus, set->threads);
		if (!err)
			return 0;
		if (!arch->retry(ev, err, &c->notes) && !user_only_retry(ev, err, &c->notes))
			return open_error(c, err, root);
		*perf_evsel__attr(e) = ev->attr;
	}
}

/*
 * The arm64 perf document ("About heterogeneous systems"): a generic event
 * of an unpinned thread counts on the first PMU's cores only. Rather than
 * undercount, open it on every core PMU and sum: whichever core type the
 * thread runs on counts it. No user read: no single register holds the sum.
 */
static int open_sum(struct selfmon_set *set, struct selfmon_counter *c, const struct open_ctx *ctx)
{
	struct selfmon_event ev;
	struct perf_evsel **e;
	int err;

	if (c->leader >= 0)
		return selfmon__err(
			-EINVAL,
			"event '%s': a group needs its thread pinned to one core "
			"type on this machine (unpinned, each event is summed over every "
			"core PMU, which no group can be): SELFMON_PIN=current",
			c->ev.name);
	c->reason = SELFMON_REASON_HETEROGENEOUS;
	for (int k = 0; k < ctx->topo->nr; k++) {
		ev = c->ev;
		err = selfmon_event__for_pmu(&ev, ctx->pmus, ctx->topo->cl[k].pmu);
		if (err)
			return err;
		e = k ? &c->more[k - 1] : &c->evsel;
		err = evsel_new(c, &ev, e);
		if (!err)
			err = evsel_open(set, c, &ev, *e, ctx->root);
		if (err)
			return err;
		c->nr_more = k;
	}
	return 0;
}

static enum selfmon_reason gate_reason(const struct selfmon_counter *c, const struct open_ctx *ctx,
				       struct selfmon_counter *mut)
{
	if (c->ev.attr.type == PERF_TYPE_SOFTWARE || c->ev.attr.type == PERF_TYPE_TRACEPOINT)
		return SELFMON_REASON_SOFTWARE;
	if (!c->ev.hardware)
		return SELFMON_REASON_NOT_CPU_PMU;
	if (!ctx->user_read)
		return SELFMON_REASON_CONFIG;
	return selfmon_arch__host()->prepare(ctx->root, &mut->ev, ctx->want_long, &mut->notes);
}

int selfmon_counter__open(struct selfmon_set *set, int idx, const struct open_ctx *ctx)
{
	struct selfmon_counter *c = &set->ctr[idx];
	int err;

	/* A PMU's own event counts there alone. */
	if (ctx->sum && c->ev.hardware && !c->ev.pmu_named)
		return open_sum(set, c, ctx);
	c->reason = gate_reason(c, ctx, c);
	err = evsel_new(c, &c->ev, &c->evsel);
	if (!err && c->leader >= 0)
		err = selfmon_group__link(set, idx);
	if (!err)
		err = evsel_open(set, c, &c->ev, c->evsel, ctx->root);
	if (err)
		return err;

	/* A reason that is not the page's own means the page is never used. */
	if (c->reason != SELFMON_REASON_NONE && c->reason != SELFMON_REASON_SYSCTL &&
	    c->reason != SELFMON_REASON_SYSFS_RDPMC)
		return 0;
	if (perf_evsel__mmap(c->evsel, 0)) {
		c->reason = SELFMON_REASON_MMAP;
		return 0;
	}
	c->page = perf_evsel__mmap_base(c->evsel, 0, 0);
	if (!c->page)
		c->reason = SELFMON_REASON_MMAP;
	else
		selfmon_arch__guard_user_reads();
	return 0;
}

void selfmon_counter__close(struct selfmon_counter *c, bool unmap)
{
	for (int k = 0; k < c->nr_more; k++) {
		perf_evsel__close(c->more[k]);
		perf_evsel__delete(c->more[k]);
	}
	if (!c->evsel)
		return;
	/*
	 * perf pages are not inherited (VM_DONTCOPY): in a forked child their
	 * addresses may hold the child's own mappings, so it only closes fds.
	 */
	if (unmap)
		perf_evsel__munmap(c->evsel);
	perf_evsel__close(c->evsel);
	/* A group's evsels belong to its list, which deletes them. */
	if (c->leader < 0)
		perf_evsel__delete(c->evsel);
	c->evsel = NULL;
}

/* The error of read(2)'s end of file on a pinned event: it is in error state. */
static int pinned_eof(const struct selfmon_counter *c)
{
	return selfmon__err(-SELFMON_ERRNO__PINNED,
			    "event '%s': read(2) hit end of file: "
			    "the pinned event could not be put on the PMU and counts nothing "
			    "(too few free counters): fewer events, or no ':D'",
			    c->ev.name);
}

/*
 * read(2) of a pinned event in error state returns 0 bytes (end of file),
 * which libperf's perf_evsel__read() reports as success with a zero count.
 * errno is set to a sentinel first: a 0-byte read leaves it there.
 */
static int evsel_read(struct perf_evsel *e, const struct selfmon_counter *c,
		      struct perf_counts_values *v)
{
	int err;

	errno = ENODATA;
	err = perf_evsel__read(e, 0, 0, v);
	if (err == -ENODATA)
		return pinned_eof(c);
	if (err)
		return selfmon__err(err, "event '%s': read: %s", c->ev.name, selfmon_errtext__str(-err));
	return 0;
}

/* Which counters need an fd of their own: lone ones read alone, and groups' leaders. */
static bool wants_fd(const struct selfmon_counter *c, int i)
{
	return c->evsel && !c->nr_more && (c->leader < 0 || c->leader == i);
}

/* Is @fd a perf event (its link in /proc/self/fd), and which is its id (PERF_EVENT_IOC_ID)? */
static bool perf_fd_id(int fd, uint64_t *id)
{
	char path[64], target[64];
	ssize_t n;

	selfmon_fmt__print(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:[perf_event]") && !ioctl(fd, PERF_EVENT_IOC_ID, id);
}

/*
 * Give each counter of @set with id @ids[i] the fd that answers to it, and
 * mark every fd of the set (@all, @nr_all ids) close-on-exec: libperf opens
 * them without PERF_FLAG_FD_CLOEXEC, and a program that execs must not hand
 * its counters to the next one.
 */
static int match_fds(struct selfmon_set *set, const uint64_t *ids, const uint64_t *all, int nr_all)
{
	struct selfmon_dir dir;
	const char *name;
	uint64_t id;
	int err = selfmon_dir__open(&dir, "/proc/self/fd");

	if (err)
		return err;
	while ((name = selfmon_dir__next(&dir))) {
		int fd = atoi(name);

		if (name[0] < '0' || name[0] > '9' || fd == dir.fd || !perf_fd_id(fd, &id))
			continue;
		for (int i = 0; i < set->nr; i++)
			if (ids[i] == id && wants_fd(&set->ctr[i], i))
				set->ctr[i].fd = fd;
		for (int i = 0; i < nr_all; i++)
			if (all[i] == id)
				fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	if (!name && errno)
		err = -errno;
	selfmon_dir__close(&dir);
	return err;
}

/*
 * libperf keeps its fds to itself, and its perf_evsel__read() returns a
 * group's leader alone. The kernel names each event by an id
 * (PERF_FORMAT_ID, perf_event_open(2) "read_format"): a counter's fd is the
 * perf fd of this process that answers PERF_EVENT_IOC_ID with its id. One
 * scan of /proc/self/fd per set, at open; then the fallback read is a bare
 * read(2), and a group's reads every member at once.
 */
int selfmon_counter__find_fds(struct selfmon_set *set)
{
	uint64_t ids[CONFIG_MAX_EVENTS] = { 0 }, all[CONFIG_MAX_EVENTS * SELFMON_MAX_CLUSTERS];
	struct perf_counts_values v;
	int err, nr_all = 0;

	for (int i = 0; i < set->nr; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		for (int k = -1; k < c->nr_more; k++) {
			struct perf_evsel *e = k < 0 ? c->evsel : c->more[k];

			if (!e || perf_evsel__read(e, 0, 0, &v))
				continue;
			all[nr_all++] = v.id;
			if (k < 0 && wants_fd(c, i))
				ids[i] = v.id;
		}
	}
	err = nr_all ? match_fds(set, ids, all, nr_all) : 0;
	for (int i = 0; i < set->nr && !err; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		/* A lone counter can still be read through libperf; a group cannot. */
		if (c->leader == i && c->fd < 0)
			err = -ENOENT;
	}
	if (err)
		return selfmon__err(err,
				    "cannot find the fds of the set's events in /proc/self/fd "
				    "(is /proc mounted?): %s",
				    selfmon_errtext__str(-err));
	return 0;
}

int selfmon_counter__read_fd(const struct selfmon_counter *c, struct selfmon_count *count)
{
	uint64_t buf[4];
	ssize_t n = read(c->fd, buf, sizeof(buf));

	if (n == (ssize_t)sizeof(buf)) {
		count->value = buf[0];
		count->enabled = buf[1];
		count->running = buf[2];
		count->flags = 0;
		count->reason = c->reason;
		return 0;
	}
	if (n == 0)
		return pinned_eof(c);
	return selfmon__err(n < 0 ? -errno : -EIO, "event '%s': read: %s", c->ev.name,
			    n < 0 ? selfmon_errtext__str(errno) : "short read");
}

int selfmon_counter__read_syscall(struct selfmon_counter *c, struct selfmon_count *count)
{
	struct perf_counts_values v;
	int err;

	if (c->fd >= 0)
		return selfmon_counter__read_fd(c, count);
	memset(count, 0, sizeof(*count));
	for (int k = -1; k < c->nr_more; k++) {
		err = evsel_read(k < 0 ? c->evsel : c->more[k], c, &v);
		if (err)
			return err;
		/*
		 * Summed over core PMUs, each ran while the thread was on its
		 * cores: the total ran as long as any, and was enabled as long
		 * as the longest.
		 */
		count->value += v.val;
		count->running += v.run;
		if (v.ena > count->enabled)
			count->enabled = v.ena;
	}
	if (count->running > count->enabled)
		count->running = count->enabled;
	count->reason = c->reason;
	return 0;
}

int selfmon_counter__read_kernel(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	struct selfmon_counter *c = &set->ctr[idx];
	struct selfmon_count group[CONFIG_MAX_EVENTS];
	int err;

	if (c->leader < 0)
		return selfmon_counter__read_syscall(c, count);
	/* A member's read(2) is its group's: every member from one instant. */
	err = selfmon_group__read(set, c->leader, group);
	if (!err)
		*count = group[idx - c->leader];
	return err;
}

int selfmon_counter__read_raw(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	struct selfmon_counter *c = &set->ctr[idx];
	int err;

	if (c->page && selfmon_page__read(c->page, count) == 0)
		return 0;
	/* One member off its counter: the whole group is, read it as one. */
	err = selfmon_counter__read_kernel(set, idx, count);
	if (!err && c->leader < 0 && c->page && c->reason == SELFMON_REASON_NONE) {
		/* The gates were open but the page said no at this moment. */
		count->reason = selfmon_refusal__why(set, c);
		c->fallbacks++;
	}
	return err;
}
