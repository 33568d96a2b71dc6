// SPDX-License-Identifier: MIT
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include <generated/autoconf.h>
#include <selfmon/read.h>
#include "arch.h"
#include "error.h"
#include "list.h"
#include "pin.h"
#include "set.h"
#include "sysfs.h"

/* Does @opts, of the caller's size, reach @field? (libbpf's OPTS_HAS) */
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))

/* Bumped in the child of every fork(): sets opened before it are not ours there. */
static unsigned int fork_generation;
/* Its address tells threads apart without a system call. */
static _Thread_local char thread_token;

static void on_fork_child(void)
{
	fork_generation++;
}

static int libperf_quiet(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void selfmon_init_once(void)
{
	libperf_init(libperf_quiet);
	pthread_atfork(NULL, NULL, on_fork_child);
}

static void selfmon_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, selfmon_init_once);
}

static int check_owner(const struct selfmon_set *set)
{
	if (set->fork_gen != fork_generation)
		return selfmon__err(-SELFMON_ERRNO__FORKED,
			"this event set was opened by the parent process; its mmap pages are not "
			"mapped after fork(): open a new set in the child");
	if (set->owner != &thread_token)
		return selfmon__err(-SELFMON_ERRNO__THREAD,
			"this event set counts the thread that opened it and must be read there: "
			"open one set per thread");
	return 0;
}

#define CHECK_SET(set, idx)							\
	do {									\
		int __err;							\
		if (!(set) || (idx) < 0 || (idx) >= (set)->nr)			\
			return selfmon__err(-EINVAL, "%s: no counter %d in this set", \
					    __func__, (int)(idx));		\
		__err = check_owner(set);					\
		if (__err)							\
			return __err;						\
	} while (0)

static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static int open_error(const struct selfmon_counter *c, int err, const char *root)
{
	long paranoid = -1;

	switch (err) {
	case -EACCES:
	case -EPERM:
		selfmon_sysfs__read_long(root, "/proc/sys/kernel/perf_event_paranoid", &paranoid);
		return selfmon__err(err, "event '%s': perf_event_open: %s; kernel.perf_event_paranoid "
				    "is %ld: run as root, or 'sysctl -w kernel.perf_event_paranoid=2' "
				    "(Debian's 3 forbids it to users)", c->ev.name, strerror(-err), paranoid);
	case -ENOENT:
	case -EOPNOTSUPP:
	case -ENODEV:
		if (c->ev.hardware && !c->ev.pmu)
			return selfmon__err(err, "event '%s': no hardware PMU on this machine (a VM "
					    "without a virtual PMU?): only software events can be "
					    "counted", c->ev.name);
		return selfmon__err(err, "event '%s': perf_event_open: %s: the PMU does not offer "
				    "this event", c->ev.name, strerror(-err));
	case -EMFILE:
		return selfmon__err(err, "event '%s': out of file descriptors (ulimit -n)", c->ev.name);
	default:
		return selfmon__err(err, "event '%s': perf_event_open: %s", c->ev.name, strerror(-err));
	}
}

/* What opening a set needs beyond the set itself. */
struct open_ctx {
	const char *root;
	const struct selfmon_pmus *pmus;
	const struct selfmon_topology *topo;
	const struct selfmon_cluster *cluster;	/* pinned to it; NULL: not pinned */
	bool user_read, want_long;
	bool sum;	/* unpinned on a heterogeneous machine: one event per core PMU */
};

/*
 * The "any CPU" map (-1) every counter opens with. Passing NULL instead makes
 * libperf build its own static map lazily, unlocked: threads opening their
 * first set at once race there. Built once under a lock; a failed allocation
 * is tried again by the next open.
 */
static struct perf_cpu_map *any_cpu_map(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct perf_cpu_map *map;
	struct perf_cpu_map *m;

	pthread_mutex_lock(&lock);
	if (!map)
		map = perf_cpu_map__dummy_new();
	m = map;
	pthread_mutex_unlock(&lock);
	return m;
}

/* Open @ev for the calling thread into *@out; the arch may adjust and retry. */
static int evsel_open(struct selfmon_set *set, struct selfmon_counter *c, struct selfmon_event *ev,
		      const char *root, struct perf_evsel **out)
{
	const struct selfmon_arch *arch = selfmon_arch__host();
	int err;

	ev->attr.disabled = 1;
	/*
	 * PERF_FORMAT_ID also keeps libperf's perf_evsel__read() from trying a
	 * user-space read of its own: our slow path is always read(2).
	 */
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			       PERF_FORMAT_ID;
	if (!any_cpu_map())
		return selfmon__err(-ENOMEM, "event '%s': out of memory", ev->name);
	for (;;) {
		*out = perf_evsel__new(&ev->attr);
		if (!*out)
			return selfmon__err(-ENOMEM, "event '%s': out of memory", ev->name);
		err = perf_evsel__open(*out, any_cpu_map(), set->threads);
		if (!err)
			return 0;
		perf_evsel__delete(*out);
		*out = NULL;
		if (!arch->retry(ev, err, &c->notes))
			return open_error(c, err, root);
	}
}

/*
 * The arm64 perf document ("About heterogeneous systems"): a generic event
 * of an unpinned thread counts on the first PMU's cores only. Rather than
 * undercount, open it on every core PMU and sum: whichever core type the
 * thread runs on counts it. No user read: no single register holds the sum.
 */
static int counter_open_sum(struct selfmon_set *set, struct selfmon_counter *c,
			    const struct open_ctx *ctx)
{
	struct selfmon_event ev;
	int err;

	c->reason = SELFMON_REASON_HETEROGENEOUS;
	for (int k = 0; k < ctx->topo->nr; k++) {
		ev = c->ev;
		err = selfmon_event__for_pmu(&ev, ctx->pmus, ctx->topo->cl[k].pmu);
		if (err)
			return err;
		err = evsel_open(set, c, &ev, ctx->root, k ? &c->more[k - 1] : &c->evsel);
		if (err)
			return err;
		c->nr_more = k;
	}
	return 0;
}

static int counter_open(struct selfmon_set *set, struct selfmon_counter *c, const struct open_ctx *ctx)
{
	int err;

	if (c->ev.attr.type == PERF_TYPE_SOFTWARE || c->ev.attr.type == PERF_TYPE_TRACEPOINT)
		c->reason = SELFMON_REASON_SOFTWARE;
	else if (!c->ev.hardware)
		c->reason = SELFMON_REASON_NOT_CPU_PMU;
	else if (ctx->sum && !c->ev.pmu_named)	/* a PMU's own event counts there alone */
		return counter_open_sum(set, c, ctx);
	else if (!ctx->user_read)
		c->reason = SELFMON_REASON_CONFIG;
	else
		c->reason = selfmon_arch__host()->prepare(ctx->root, &c->ev, ctx->want_long, &c->notes);

	err = evsel_open(set, c, &c->ev, ctx->root, &c->evsel);
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
	return 0;
}

/*
 * Pin the calling thread as @pin says, within the affinity it already has,
 * and remember what to give back on close.
 */
static int pin_thread(struct selfmon_set *set, const struct selfmon_pin *pin,
		      const struct selfmon_topology *t, const struct selfmon_cluster **cl)
{
	cpu_set_t cpus, cur, want;
	char a[256], b[256];
	int err;

	err = selfmon_pin__resolve(pin, t, sched_getcpu(), cl, &cpus);
	if (err || !*cl)
		return err;
	if (sched_getaffinity(0, sizeof(cur), &cur))
		return selfmon__err(-errno, "sched_getaffinity: %s", strerror(errno));
	CPU_AND(&want, &cur, &cpus);
	if (!CPU_COUNT(&want)) {
		selfmon_cpulist__format(&cpus, a, sizeof(a));
		selfmon_cpulist__format(&cur, b, sizeof(b));
		return selfmon__err(-EINVAL, "cannot pin to %s (CPUs %s): the thread may only run on CPUs %s",
				    (*cl)->pmu->name, a, b);
	}
	snprintf(set->pmu, sizeof(set->pmu), "%s", (*cl)->pmu->name);
	set->cpus = want;
	set->cluster = (*cl)->cpus;
	if (CPU_EQUAL(&want, &cur))
		return 0;
	if (sched_setaffinity(0, sizeof(want), &want))
		return selfmon__err(-errno, "sched_setaffinity to %s's CPUs: %s", (*cl)->pmu->name,
				    strerror(errno));
	set->saved_affinity = cur;
	set->restore_affinity = true;
	return 0;
}

static bool any_hardware(const struct selfmon_set *set, int nr)
{
	for (int i = 0; i < nr; i++)
		if (set->ctr[i].ev.hardware)
			return true;
	return false;
}

struct selfmon_set *selfmon_set__open(const char *events, const struct selfmon_opts *opts)
{
	struct selfmon_spec *specs = NULL;
	struct selfmon_pmus pmus = { 0 };
	struct selfmon_topology topo;
	struct selfmon_set *set = NULL;
	struct open_ctx ctx = { .user_read = true, .want_long = true };
	const char *policy = CONFIG_PIN_POLICY;
	struct selfmon_pin pin;
	int err, nr, i;

	selfmon_init();
	selfmon__err_clear();
	if (opts && opts->sz < sizeof(opts->sz)) {
		err = selfmon__err(-EINVAL, "selfmon_opts.sz is %zu: set it to sizeof(struct selfmon_opts)",
				   opts->sz);
		goto out;
	}
	if (!events) {
		err = selfmon__err(-EINVAL, "no events given");
		goto out;
	}
	ctx.root = selfmon_root__get(OPTS_HAS(opts, root) ? opts->root : NULL);
#ifndef CONFIG_USER_READ
	ctx.user_read = false;
#endif
#ifndef CONFIG_LONG_COUNTERS
	ctx.want_long = false;
#endif
	if (env_true("SELFMON_NO_USER_READ") || (OPTS_HAS(opts, no_user_read) && opts->no_user_read))
		ctx.user_read = false;
	if (OPTS_HAS(opts, no_long) && opts->no_long)
		ctx.want_long = false;
	if (getenv("SELFMON_PIN") && *getenv("SELFMON_PIN"))
		policy = getenv("SELFMON_PIN");
	if (OPTS_HAS(opts, pin) && opts->pin)
		policy = opts->pin;
	err = selfmon_pin__parse(policy, &pin);
	if (err)
		goto out;

	specs = calloc(CONFIG_MAX_EVENTS, sizeof(*specs));
	if (!specs) {
		err = selfmon__err(-ENOMEM, "out of memory for %d event names", CONFIG_MAX_EVENTS);
		goto out;
	}
	nr = selfmon_list__split(events, specs, CONFIG_MAX_EVENTS);
	if (nr < 0) {
		err = nr;
		goto out;
	}
	err = selfmon_pmus__load(&pmus, ctx.root);
	if (err) {
		selfmon__err(err, "cannot list %s/sys/bus/event_source/devices: %s", ctx.root, strerror(-err));
		goto out;
	}
	err = selfmon_topology__load(&topo, &pmus);
	if (err) {
		selfmon__err(err, "cannot tell which CPUs the CPU PMUs cover: %s", strerror(-err));
		goto out;
	}
	ctx.pmus = &pmus;
	ctx.topo = &topo;

	set = calloc(1, sizeof(*set) + (size_t)nr * sizeof(set->ctr[0]));
	if (!set) {
		err = selfmon__err(-ENOMEM, "out of memory for a set of %d counters", nr);
		goto out;
	}
	set->owner = &thread_token;
	set->fork_gen = fork_generation;
	/* pid 0 in the thread map: the calling thread, on whatever CPU it runs. */
	set->threads = perf_thread_map__new_dummy();
	if (!set->threads) {
		err = selfmon__err(-ENOMEM, "out of memory for the thread map");
		goto out;
	}
	perf_thread_map__set_pid(set->threads, 0, 0);

	/* Every name is checked before any is opened: a typo costs no syscall. */
	for (i = 0; i < nr; i++) {
		err = selfmon_event__parse_mods(specs[i].name, specs[i].mods, &pmus, &set->ctr[i].ev);
		if (err)
			goto out;
	}
	/* Only counters in CPU registers care where the thread runs. */
	if (any_hardware(set, nr) && topo.nr) {
		err = pin_thread(set, &pin, &topo, &ctx.cluster);
		if (err)
			goto out;
		ctx.sum = !ctx.cluster && topo.nr > 1;
	}
	for (i = 0; i < nr && ctx.cluster; i++) {
		err = selfmon_event__for_pmu(&set->ctr[i].ev, &pmus, ctx.cluster->pmu);
		if (err)
			goto out;
	}
	for (i = 0; i < nr; i++) {
		struct selfmon_counter *c = &set->ctr[i];

		set->nr = i + 1;
		err = counter_open(set, c, &ctx);
		if (err)
			goto out;
		/* The PMU list goes away below; the attr has what the kernel needs. */
		c->ev.pmu = NULL;
	}
	err = 0;
out:
	selfmon_pmus__free(&pmus);
	free(specs);
	if (err) {
		selfmon_set__close(set);
		errno = -err;
		return NULL;
	}
	return set;
}

void selfmon_set__close(struct selfmon_set *set)
{
	if (!set)
		return;
	for (int i = 0; i < set->nr; i++) {
		struct selfmon_counter *c = &set->ctr[i];

		for (int k = 0; k < c->nr_more; k++) {
			perf_evsel__close(c->more[k]);
			perf_evsel__delete(c->more[k]);
		}
		if (!c->evsel)
			continue;
		/* In a forked child the page is not mapped; munmap of it is harmless. */
		perf_evsel__munmap(c->evsel);
		perf_evsel__close(c->evsel);
		perf_evsel__delete(c->evsel);
	}
	/* Only the thread that was pinned can be given its affinity back. */
	if (set->restore_affinity && !check_owner(set))
		sched_setaffinity(0, sizeof(set->saved_affinity), &set->saved_affinity);
	perf_thread_map__put(set->threads);
	free(set);
}

static int set_ioctl(struct selfmon_set *set, bool enable)
{
	int err;

	if (!set)
		return selfmon__err(-EINVAL, "no set");
	err = check_owner(set);
	if (err)
		return err;
	for (int i = 0; i < set->nr; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		for (int k = -1; k < c->nr_more; k++) {
			struct perf_evsel *e = k < 0 ? c->evsel : c->more[k];

			err = enable ? perf_evsel__enable(e) : perf_evsel__disable(e);
			if (err)
				return selfmon__err(-errno ? -errno : -EIO, "event '%s': %s failed: %s",
						    c->ev.name, enable ? "enable" : "disable", strerror(errno));
		}
	}
	set->enabled = enable;
	return 0;
}

int selfmon_set__enable(struct selfmon_set *set)
{
	return set_ioctl(set, true);
}

int selfmon_set__disable(struct selfmon_set *set)
{
	return set_ioctl(set, false);
}

static int counter_read_syscall(struct selfmon_counter *c, struct selfmon_count *count)
{
	struct perf_counts_values v;
	int err;

	memset(count, 0, sizeof(*count));
	for (int k = -1; k < c->nr_more; k++) {
		err = perf_evsel__read(k < 0 ? c->evsel : c->more[k], 0, 0, &v);
		if (err)
			return selfmon__err(err, "event '%s': read: %s", c->ev.name, strerror(-err));
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

/* Why the page said no, when the gates were open at open time. */
static enum selfmon_reason page_refusal(const struct selfmon_set *set, const struct selfmon_counter *c)
{
	int cpu;

	if (!(c->page->capabilities & SELFMON_CAP_USER_RDPMC))
		return SELFMON_REASON_CAP;
	cpu = set->pmu[0] ? sched_getcpu() : -1;
	if (cpu >= 0 && !CPU_ISSET(cpu, &set->cluster))
		return SELFMON_REASON_OFF_CLUSTER;
	return SELFMON_REASON_INDEX;
}

static int counter_read_raw(const struct selfmon_set *set, struct selfmon_counter *c,
			    struct selfmon_count *count)
{
	int err;

	if (c->page && selfmon_page__read(c->page, count) == 0)
		return 0;
	err = counter_read_syscall(c, count);
	if (err)
		return err;
	if (c->page && c->reason == SELFMON_REASON_NONE) {
		/* The gates were open but the page said no at this moment. */
		count->reason = page_refusal(set, c);
		c->fallbacks++;
	}
	return 0;
}

/* Counts since selfmon_set__reset(): the same for both paths. */
static void rebase(const struct selfmon_counter *c, struct selfmon_count *count)
{
	count->value -= c->base.value;
	count->enabled -= c->base.enabled;
	count->running -= c->base.running;
}

int selfmon_set__read(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	struct selfmon_counter *c;
	int err;

	if (!count)
		return selfmon__err(-EINVAL, "%s: no selfmon_count to read into", __func__);
	CHECK_SET(set, idx);
	c = &set->ctr[idx];
	err = counter_read_raw(set, c, count);
	if (err)
		return err;
	rebase(c, count);
	return 0;
}

int selfmon_set__read_raw(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	if (!count)
		return selfmon__err(-EINVAL, "%s: no selfmon_count to read into", __func__);
	CHECK_SET(set, idx);
	return counter_read_raw(set, &set->ctr[idx], count);
}

const struct perf_event_attr *selfmon_set__attr(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	return &set->ctr[idx].ev.attr;
}

int selfmon_set__read_syscall(struct selfmon_set *set, int idx, struct selfmon_count *count)
{
	struct selfmon_counter *c;
	int err;

	if (!count)
		return selfmon__err(-EINVAL, "%s: no selfmon_count to read into", __func__);
	CHECK_SET(set, idx);
	c = &set->ctr[idx];
	err = counter_read_syscall(c, count);
	if (err)
		return err;
	rebase(c, count);
	return 0;
}

int selfmon_set__read_all(struct selfmon_set *set, struct selfmon_count *counts)
{
	int err = 0;

	if (!counts)
		return selfmon__err(-EINVAL, "%s: no selfmon_count array to read into", __func__);
	for (int i = 0; set && i < set->nr && !err; i++)
		err = selfmon_set__read(set, i, &counts[i]);
	return set ? err : selfmon__err(-EINVAL, "no set");
}

int selfmon_set__reset(struct selfmon_set *set)
{
	int err;

	if (!set)
		return selfmon__err(-EINVAL, "no set");
	err = check_owner(set);
	for (int i = 0; i < set->nr && !err; i++) {
		int64_t fallbacks = set->ctr[i].fallbacks;

		err = counter_read_raw(set, &set->ctr[i], &set->ctr[i].base);
		/* A baseline is not a measurement: its path does not count. */
		set->ctr[i].fallbacks = fallbacks;
	}
	return err;
}

int selfmon_set__nr(const struct selfmon_set *set)
{
	return set ? set->nr : -EINVAL;
}

const char *selfmon_set__name(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	return set->ctr[idx].ev.name;
}

int selfmon_set__path(const struct selfmon_set *set, int idx, enum selfmon_reason *why)
{
	const struct selfmon_counter *c;
	enum selfmon_reason r;
	uint64_t v;

	CHECK_SET(set, idx);
	c = &set->ctr[idx];
	r = c->reason;
	/* Once counting, the page has the last word: a gate opened since counts. */
	if (c->page && set->enabled) {
		if (!selfmon_page__read_value(c->page, &v))
			r = SELFMON_REASON_NONE;
		else if (r == SELFMON_REASON_NONE)
			r = page_refusal(set, c);
	} else if (c->page && r == SELFMON_REASON_NONE &&
		   !(c->page->capabilities & SELFMON_CAP_USER_RDPMC)) {
		r = SELFMON_REASON_CAP;
	}
	if (why)
		*why = r;
	return r == SELFMON_REASON_NONE ? SELFMON_PATH_USER : SELFMON_PATH_SYSCALL;
}

int selfmon_set__pmc_width(const struct selfmon_set *set, int idx)
{
	CHECK_SET(set, idx);
	return set->ctr[idx].page ? set->ctr[idx].page->pmc_width : 0;
}

const char *selfmon_set__pmu(const struct selfmon_set *set)
{
	return set && set->pmu[0] ? set->pmu : NULL;
}

const char *selfmon_set__note(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	if (set->ctr[idx].notes & SELFMON_NOTE_LONG_REFUSED)
		return "the PMU refused a 64-bit counter (EOPNOTSUPP): opened as a 32-bit counter "
		       "(pmc_width 32); reads stay exact, the kernel folds each wrap into the offset";
	return NULL;
}

const struct perf_event_mmap_page *selfmon_set__page(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	return set->ctr[idx].page;
}

int64_t selfmon_set__fallbacks(const struct selfmon_set *set, int idx)
{
	CHECK_SET(set, idx);
	return set->ctr[idx].fallbacks;
}

int selfmon_count__scale(const struct selfmon_count *count, uint64_t *scaled)
{
	unsigned __int128 full;

	if (!count || !scaled)
		return selfmon__err(-EINVAL, "selfmon_count__scale: %s is NULL", count ? "scaled" : "count");
	if (!count->running) {
		*scaled = 0;
		return -ENODATA;
	}
	if (count->running >= count->enabled) {
		*scaled = count->value;
		return 0;
	}
	/* value * enabled < 2^128: the product is exact, only the quotient can overflow. */
	full = (unsigned __int128)count->value * count->enabled / count->running;
	if (full > UINT64_MAX) {
		*scaled = UINT64_MAX;
		return selfmon__err(-EOVERFLOW, "selfmon_count__scale: %llu * %llu / %llu exceeds 64 bits",
				    (unsigned long long)count->value, (unsigned long long)count->enabled,
				    (unsigned long long)count->running);
	}
	*scaled = (uint64_t)full;
	return 1;
}

const char *selfmon_version(void)
{
	return SELFMON_VERSION;
}
