// SPDX-License-Identifier: MIT
/*
 * The sampler of the calling thread: events opened in sampling mode
 * (perf_event_open(2): sample_period / sample_freq, sample_type, the
 * side-band bits, wakeup_events / wakeup_watermark), one ring buffer for all
 * of them (the first sampling event's mmap, the others redirected into it
 * with PERF_EVENT_IOC_SET_OUTPUT), drained by poll(2) and the reader of
 * ring.c, each record parsed by record.c (the drain: sampler_drain.c).
 *
 * Events are opened with the perf_event_open system call itself: a group
 * needs its leader's fd as group_fd and a ring needs SET_OUTPUT, and
 * libperf's evsel API reaches neither without an evlist (see ring.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <generated/autoconf.h>
#include <selfmon/sampler.h>
#include "../core/error.h"
#include "../core/errtext.h"
#include "../core/event.h"
#include "../core/list.h"
#include "../core/owner.h"
#include "../core/pmu.h"
#include "record.h"
#include "ring.h"
#include "../core/sysfs.h"
#include "sampler_int.h"
#include "../util/err.h"
#include "../util/opts.h"


/* Lone events and group leaders sample; members are read by their leader. */
static bool is_sampling(const struct selfmon_sampler *s, int i)
{
	return s->evs[i].leader < 0 || s->evs[i].leader == i;
}

static int check_opts(const struct selfmon_sampler_opts *o)
{
	if (!o || o->sz < offsetof(struct selfmon_sampler_opts, root))
		return selfmon__err(-EINVAL,
				    "selfmon_sampler__open: no options, or .sz too small: "
				    "zero-fill a struct selfmon_sampler_opts and set .sz = sizeof");
	if (!OPTS_VALID(o))
		return selfmon__err(-EINVAL,
				    "selfmon_sampler__open: a field this library does not know "
				    "(past byte %zu of .sz %zu) is set: leave unknown fields zero",
				    sizeof(*o), o->sz);
	if (!o->period == !o->freq)
		return selfmon__err(-EINVAL,
				    "selfmon_sampler__open: give a period (%llu) or a "
				    "frequency (%llu), exactly one of them",
				    (unsigned long long)o->period, (unsigned long long)o->freq);
	if (o->ring_pages & (o->ring_pages - 1))
		return selfmon__err(-EINVAL,
				    "selfmon_sampler__open: ring_pages %u is not a power "
				    "of two (perf_event_open(2), \"MMAP layout\": 2^n data pages)",
				    o->ring_pages);
	if (o->sideband & ~SELFMON_SIDEBAND__ALL)
		return selfmon__err(-EINVAL,
				    "selfmon_sampler__open: sideband 0x%x has bits no "
				    "SELFMON_SIDEBAND_* names",
				    o->sideband);
	return 0;
}

/* Parse the event list into the sampler's events, with their groups. */
static int parse_events(struct selfmon_sampler *s, const char *events, const char *root)
{
	struct selfmon_spec *specs = calloc(CONFIG_MAX_EVENTS, sizeof(*specs));
	struct selfmon_pmus pmus = { 0 };
	int nr, err;

	nr = specs ? selfmon_list__split(events, specs, CONFIG_MAX_EVENTS) :
		     selfmon__err(-ENOMEM, "selfmon_sampler__open: out of memory");
	err = nr < 0 ? nr : selfmon_pmus__load(&pmus, selfmon_root__get(root));
	if (err && nr >= 0)
		err = selfmon__err(err, "cannot list %s/sys/bus/event_source/devices: %s",
				   selfmon_root__get(root), selfmon_errtext__str(-err));
	if (err)
		goto out;
	for (int i = 0; i < nr && !err; i++) {
		struct sampler_event *e = &s->evs[i];

		err = selfmon_event__parse_mods(specs[i].name, specs[i].mods, &pmus, &e->ev);
		e->leader = specs[i].group < 0 ? -1 : specs[i].leader ? i : s->evs[i - 1].leader;
		if (specs[i].leader) {
			e->ev.attr.pinned |= specs[i].pinned;
			e->ev.attr.exclusive |= specs[i].exclusive;
		}
		s->nr = i + 1;
	}
out:
	selfmon_pmus__free(&pmus);
	free(specs);
	return err;
}

static bool has_members(const struct selfmon_sampler *s)
{
	for (int i = 0; i < s->nr; i++)
		if (s->evs[i].leader >= 0 && s->evs[i].leader != i)
			return true;
	return false;
}

/* perf_event_open(2), the attr's side-band bits. */
static void set_sideband(struct perf_event_attr *a, uint32_t sb)
{
	a->mmap = !!(sb &
		     (SELFMON_SIDEBAND_MMAP | SELFMON_SIDEBAND_MMAP2 | SELFMON_SIDEBAND_MMAP_DATA));
	a->mmap2 = !!(sb & SELFMON_SIDEBAND_MMAP2);
	a->mmap_data = !!(sb & SELFMON_SIDEBAND_MMAP_DATA);
	a->comm = a->comm_exec = !!(sb & SELFMON_SIDEBAND_COMM);
	a->task = !!(sb & SELFMON_SIDEBAND_TASK);
	a->context_switch = !!(sb & SELFMON_SIDEBAND_SWITCH);
	a->namespaces = !!(sb & SELFMON_SIDEBAND_NAMESPACES);
	a->ksymbol = !!(sb & SELFMON_SIDEBAND_KSYMBOL);
	a->bpf_event = !!(sb & SELFMON_SIDEBAND_BPF_EVENT);
	a->cgroup = !!(sb & SELFMON_SIDEBAND_CGROUP);
	a->text_poke = !!(sb & SELFMON_SIDEBAND_TEXT_POKE);
}

/* The sampling part of every attr; side-band records from the first sampler only. */
static void set_attrs(struct selfmon_sampler *s, const struct selfmon_sampler_opts *o, size_t ring)
{
	uint64_t type = o->sample_type ? o->sample_type : SELFMON_SAMPLER_DEFAULT_TYPE;
	bool first = true;

	if (has_members(s))
		type |= PERF_SAMPLE_READ;
	for (int i = 0; i < s->nr; i++) {
		struct perf_event_attr *a = &s->evs[i].ev.attr;

		a->size = sizeof(*a);
		a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a->sample_type = type;
		a->sample_id_all = !!o->sample_id_all;
		a->sample_regs_user = o->sample_regs_user;
		a->sample_regs_intr = o->sample_regs_intr;
		a->sample_stack_user = o->sample_stack_user;
		a->branch_sample_type = o->branch_sample_type;
		/* Members start with their leader (perf_event_open(2), "disabled"). */
		a->disabled = is_sampling(s, i);
		if (!is_sampling(s, i))
			continue;
		a->freq = !!o->freq;
		a->sample_period = o->freq ? o->freq : o->period;
		if (o->wakeup_events) {
			a->wakeup_events = o->wakeup_events;
		} else {
			a->watermark = 1;
			a->wakeup_watermark = o->wakeup_watermark ? o->wakeup_watermark :
								    (uint32_t)(ring / 4);
		}
		if (OPTS_HAS(o, sig_data) && o->sigtrap) {
			/* perf_event_open(2): sigtrap needs remove_on_exec */
			a->sigtrap = a->remove_on_exec = 1;
			a->sig_data = o->sig_data;
		}
		if (first)
			set_sideband(a, o->sideband);
		first = false;
	}
}

/*
 * The running kernel's release, read once for the process (it cannot change
 * under it): not a thread variable, so that libselfmon.so's thread data stays
 * small (docs/markers.md, "Shared objects and plugins").
 */
static struct utsname kernel_uts;
static int kernel_uts_err;
static pthread_once_t kernel_uts_once = PTHREAD_ONCE_INIT;

static void kernel_uts_read(void)
{
	kernel_uts_err = uname(&kernel_uts);
}

static const char *kernel_release(void)
{
	pthread_once(&kernel_uts_once, kernel_uts_read);
	return kernel_uts_err ? "unknown" : kernel_uts.release;
}

/* kernel.perf_event_max_sample_rate now (the kernel lowers it itself when sampling runs long); 0: unknown. */
static unsigned long long max_sample_rate(void)
{
	long v = 0;

	if (selfmon_sysfs__read_long(selfmon_root__get(NULL),
				     "/proc/sys/kernel/perf_event_max_sample_rate", &v) ||
	    v < 0)
		v = 0;
	return (unsigned long long)v;
}

static int open_error(const struct sampler_event *e, int err)
{
	unsigned long long max;

	switch (err) {
	case -EACCES:
	case -EPERM:
		return selfmon__err(err,
				    "event '%s': perf_event_open: %s: sampling needs "
				    "kernel.perf_event_paranoid <= 2 for user space (':u'), <= 1 "
				    "with the kernel, or CAP_PERFMON",
				    e->ev.name, selfmon_errtext__str(-err));
	case -ENOENT:
	case -ENODEV:
	case -EOPNOTSUPP:
		return selfmon__err(
			err, "event '%s': perf_event_open: %s: %s", e->ev.name, selfmon_errtext__str(-err),
			e->ev.hardware && !e->ev.pmu ?
				"no hardware PMU here (a VM without a virtual PMU?): sample "
				"'cpu-clock' or 'task-clock'" :
				"the PMU cannot sample this event "
				"(no overflow interrupt?) or lacks a sample_type bit asked for");
	case -EINVAL:
	case -E2BIG:
		if (e->ev.attr.sigtrap)
			return selfmon__err(
				err,
				"event '%s': perf_event_open: %s with attr.sigtrap: "
				"synchronous SIGTRAP on overflow needs Linux 5.13 or later "
				"(this kernel: %s); use selfmon_sampler__signal() instead",
				e->ev.name, selfmon_errtext__str(-err), kernel_release());
		/*
		 * A frequency above /proc/sys/kernel/perf_event_max_sample_rate
		 * (perf_event_open(2), "/proc/sys/kernel/perf_event_max_sample_rate")
		 * is refused with EINVAL: name the limit when it is the cause.
		 */
		max = e->ev.attr.freq ? max_sample_rate() : 0;
		if (max && e->ev.attr.sample_freq > max)
			return selfmon__err(
				err,
				"event '%s': perf_event_open: %s: %llu samples a "
				"second is above kernel.perf_event_max_sample_rate, %llu "
				"here: ask for %llu or fewer, or raise the limit as root "
				"(sysctl -w kernel.perf_event_max_sample_rate=N)",
				e->ev.name, selfmon_errtext__str(-err),
				(unsigned long long)e->ev.attr.sample_freq, max, max);
		return selfmon__err(
			err,
			"event '%s': perf_event_open: %s: a sample_type, "
			"side-band or branch bit this kernel or PMU does not take, or a "
			"frequency above kernel.perf_event_max_sample_rate",
			e->ev.name, selfmon_errtext__str(-err));
	default:
		return selfmon__err(err, "event '%s': perf_event_open: %s", e->ev.name,
				    selfmon_errtext__str(-err));
	}
}

/* Open event @i for this thread, any CPU; user space only if the kernel is refused. */
static int open_one(struct selfmon_sampler *s, int i)
{
	struct sampler_event *e = &s->evs[i];
	int group_fd = e->leader >= 0 && e->leader != i ? s->evs[e->leader].fd : -1;
	long fd = syscall(SYS_perf_event_open, &e->ev.attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) && !e->ev.levels_given &&
	    !e->ev.attr.exclude_kernel) {
		/* perf_event_paranoid 2: as selfmon_set__open() does, fall back to ':u' */
		e->ev.attr.exclude_kernel = e->ev.attr.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &e->ev.attr, 0, -1, group_fd,
			     PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return open_error(e, -errno);
	e->fd = (int)fd;
	if (ioctl(e->fd, PERF_EVENT_IOC_ID, &e->id))
		return selfmon__err(-errno, "event '%s': PERF_EVENT_IOC_ID: %s", e->ev.name,
				    selfmon_errtext__str(errno));
	return 0;
}

/* Map the first sampler's ring and point the other samplers' output at it. */
static int map_ring(struct selfmon_sampler *s, uint32_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int err = 0;

	s->map_len = (1 + (size_t)pages) * page;
	s->map = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, s->ring_fd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		return selfmon__err(-errno, "mmap of a %u-page ring: %s%s", pages, selfmon_errtext__str(errno),
				    errno == EPERM ? ": above kernel.perf_event_mlock_kb (ask "
						     "for fewer ring_pages, or raise it)" :
						     "");
	}
	err = selfmon_ring__init(&s->ring, s->map, s->map_len);
	for (int i = 0; i < s->nr && !err; i++)
		if (is_sampling(s, i) && s->evs[i].fd != s->ring_fd &&
		    ioctl(s->evs[i].fd, PERF_EVENT_IOC_SET_OUTPUT, s->ring_fd))
			err = selfmon__err(-errno, "event '%s': PERF_EVENT_IOC_SET_OUTPUT: %s",
					   s->evs[i].ev.name, selfmon_errtext__str(errno));
	return err;
}

static int open_all(struct selfmon_sampler *s, const struct selfmon_sampler_opts *o)
{
	uint32_t pages = o->ring_pages ? o->ring_pages : 64;
	int err = 0;

	set_attrs(s, o, (size_t)pages * (size_t)sysconf(_SC_PAGESIZE));
	for (int i = 0; i < s->nr && !err; i++)
		err = open_one(s, i);
	if (err)
		return err;
	for (int i = 0; i < s->nr; i++)
		if (is_sampling(s, i)) {
			s->ring_fd = s->evs[i].fd;
			selfmon_record_layout__from_attr(&s->layout, &s->evs[i].ev.attr);
			selfmon_sample_plan__init(&s->plan, &s->layout);
			break;
		}
	return map_ring(s, pages);
}

/*
 * A sampler with nothing open yet: no fd (-1, so that close closes none),
 * owned by this process. Return: 0 or -ENOMEM (said).
 */
static int sampler_new(struct selfmon_sampler **sp)
{
	struct selfmon_sampler *s = calloc(1, sizeof(*s));

	*sp = s;
	if (!s)
		return selfmon__err(-ENOMEM, "out of memory");
	for (int i = 0; i < CONFIG_MAX_EVENTS; i++)
		s->evs[i].fd = -1;
	s->ring_fd = -1;
	selfmon_owner__init(&s->owner);
	return 0;
}

struct selfmon_sampler *selfmon_sampler__open(const char *events,
					      const struct selfmon_sampler_opts *opts)
{
	struct selfmon_sampler *s = NULL;
	int err;

	selfmon__err_clear();
	err = check_opts(opts);
	if (!err && !events)
		err = selfmon__err(-EINVAL, "selfmon_sampler__open: no events");
	if (!err)
		err = sampler_new(&s);
	if (err)
		goto out;
	err = parse_events(s, events, OPTS_HAS(opts, root) ? opts->root : NULL);
	if (!err)
		err = open_all(s, opts);
out:
	if (err)
		selfmon_sampler__close(s);
	return err ? util_null_errno(err) : s;
}

/*
 * Another library's mapping of a sampling fd (libperf's, say): only the
 * reader and the parser are selfmon's. No fd is kept, so nothing polls, and
 * the mapping is left to its owner.
 */
struct selfmon_sampler *selfmon_sampler__attach(void *map, size_t map_len,
						const struct perf_event_attr *attr)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), data = map_len > page ? map_len - page : 0;
	struct selfmon_sampler *s = NULL;
	int err = 0;

	selfmon__err_clear();
	if (!map || !attr)
		err = selfmon__err(-EINVAL, "selfmon_sampler__attach: no %s given",
				   map ? "attr" : "mapping");
	else if (!data || data % page || (data & (data - 1)))
		err = selfmon__err(-EINVAL,
				   "selfmon_sampler__attach: a mapping of %zu bytes is not "
				   "one page and 2^n data pages of %zu bytes (perf_event_open(2), "
				   "\"MMAP layout\"): pass the length given to mmap(2)",
				   map_len, page);
	if (!err)
		err = selfmon_ring__check_access(map, map_len);
	if (!err)
		err = sampler_new(&s);
	if (!err)
		err = selfmon_ring__init(&s->ring, map, map_len);
	if (err)
		goto out;
	s->attached = true;
	s->map = map;
	s->map_len = map_len;
	selfmon_record_layout__from_attr(&s->layout, attr);
	selfmon_sample_plan__init(&s->plan, &s->layout);
out:
	if (err)
		free(s);
	return err ? util_null_errno(err) : s;
}

void selfmon_sampler__close(struct selfmon_sampler *s)
{
	if (!s)
		return;
	/* A child has no mapping to unmap (perf's mmap is not inherited): only its fds. */
	if (s->map && !s->attached && selfmon_owner__same_process(&s->owner))
		munmap(s->map, s->map_len);
	for (int i = s->nr - 1; i >= 0; i--)
		if (s->evs[i].fd >= 0)
			close(s->evs[i].fd);
	free(s);
}

static int ioctl_all(struct selfmon_sampler *s, unsigned long req, const char *what)
{
	if (!s)
		return -EINVAL;
	for (int i = 0; i < s->nr; i++)
		if (is_sampling(s, i) && ioctl(s->evs[i].fd, req, PERF_IOC_FLAG_GROUP))
			return selfmon__err(-errno, "event '%s': %s: %s", s->evs[i].ev.name, what,
					    selfmon_errtext__str(errno));
	return 0;
}

int selfmon_sampler__enable(struct selfmon_sampler *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_ENABLE, "PERF_EVENT_IOC_ENABLE");
}

int selfmon_sampler__disable(struct selfmon_sampler *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE, "PERF_EVENT_IOC_DISABLE");
}

int selfmon_sampler__stats(const struct selfmon_sampler *s, struct selfmon_sampler_stats *stats)
{
	if (!s || !stats)
		return -EINVAL;
	*stats = s->stats;
	/* a drain in progress (a callback asking) counts its planned SAMPLEs apart */
	stats->records += s->planned;
	stats->samples += s->planned;
	return 0;
}

const struct selfmon_record_layout *selfmon_sampler__layout(const struct selfmon_sampler *s)
{
	return s ? &s->layout : NULL;
}

int selfmon_sampler__nr(const struct selfmon_sampler *s)
{
	return s ? s->nr : -EINVAL;
}

uint64_t selfmon_sampler__id(const struct selfmon_sampler *s, int idx)
{
	return s && idx >= 0 && idx < s->nr ? s->evs[idx].id : 0;
}

const struct perf_event_attr *selfmon_sampler__attr(const struct selfmon_sampler *s, int idx)
{
	return s && idx >= 0 && idx < s->nr ? &s->evs[idx].ev.attr : NULL;
}

/* What fcntl(2) had set on a sampling fd before selfmon_sampler__signal(). */
struct fd_signal {
	struct f_owner_ex owner;
	int sig, fl;
};

/* Put back what set_signal() found, errno kept for the caller's message. */
static void restore_signal(int fd, const struct fd_signal *was)
{
	int e = errno;

	fcntl(fd, F_SETFL, was->fl);
	fcntl(fd, F_SETSIG, was->sig);
	fcntl(fd, F_SETOWN_EX, &was->owner);
	errno = e;
}

/* Owner, signal, O_ASYNC on @fd; on failure -1 with errno, and @fd as it was. */
static int set_signal(int fd, const struct f_owner_ex *owner, int signo, struct fd_signal *was)
{
	if (fcntl(fd, F_GETOWN_EX, &was->owner))
		return -1;
	was->sig = fcntl(fd, F_GETSIG);
	was->fl = was->sig < 0 ? -1 : fcntl(fd, F_GETFL);
	if (was->fl < 0)
		return -1;
	if (fcntl(fd, F_SETOWN_EX, owner) || fcntl(fd, F_SETSIG, signo) ||
	    fcntl(fd, F_SETFL, was->fl | O_ASYNC)) {
		restore_signal(fd, was);
		return -1;
	}
	return 0;
}

/*
 * Overflow signals (perf_event_open(2), "Overflow handling"; fcntl(2),
 * F_SETSIG, F_SETOWN_EX): every sampling fd raises @signo at each wakeup
 * (wakeup_events / wakeup_watermark), sent to the opening thread alone
 * (F_OWNER_TID), with si_fd naming the fd and si_code POLL_IN. All or
 * nothing: a failed fcntl puts every fd back as it was.
 */
int selfmon_sampler__signal(struct selfmon_sampler *s, int signo)
{
	struct fd_signal was[CONFIG_MAX_EVENTS];
	struct f_owner_ex owner;
	int err, i;

	if (!s)
		return -EINVAL;
	err = selfmon_owner__check(&s->owner);
	if (err)
		return err;
	owner = (struct f_owner_ex){ .type = F_OWNER_TID, .pid = s->owner.tid };
	for (i = 0; i < s->nr; i++) {
		int fd = s->evs[i].fd;

		if (!is_sampling(s, i))
			continue;
		if (set_signal(fd, &owner, signo, &was[i])) {
			err = selfmon__err(-errno, "event '%s': fcntl for overflow signal %d: %s",
					   s->evs[i].ev.name, signo, selfmon_errtext__str(errno));
			break;
		}
	}
	/* The fds before the one that failed are put back (that one put itself back). */
	while (err && --i >= 0)
		if (is_sampling(s, i))
			restore_signal(s->evs[i].fd, &was[i]);
	return err;
}

int selfmon_sampler__owns_fd(const struct selfmon_sampler *s, int fd)
{
	for (int i = 0; s && i < s->nr; i++)
		if (s->evs[i].fd == fd)
			return 1;
	return 0;
}

/*
 * The kernel's siginfo puts si_perf_data right after si_addr, in the union
 * that also holds si_addr_lsb (asm-generic/siginfo.h, _sigfault._perf).
 */
unsigned long selfmon_sigtrap__data(const siginfo_t *si)
{
	unsigned long data;

	memcpy(&data, (const char *)&si->si_addr + sizeof(void *), sizeof(data));
	return data;
}
