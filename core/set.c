// SPDX-License-Identifier: MIT
/*
 * The event set: opening (options, parsing, pinning, the counters and their
 * groups), enabling and closing; reading is in set_read.c. One counter's
 * open and read are in counter.c, groups in group.c, the owner checks in
 * owner.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>

#include <generated/autoconf.h>
#include <selfmon/read.h>
#include "arch_int.h"
#include "error.h"
#include "errtext.h"
#include "libperf.h"
#include "list.h"
#include "lock.h"
#include "machine_int.h"
#include "counter.h"
#include "group.h"
#include "heap.h"
#include "refusal.h"
#include "set.h"
#include "sysfs.h"
#include "../util/err.h"
#include "../util/opts.h"

#ifdef CONFIG_USER_READ
#define IS_ENABLED_USER_READ true
#else
#define IS_ENABLED_USER_READ false
#endif
#ifdef CONFIG_LONG_COUNTERS
#define IS_ENABLED_LONG_COUNTERS true
#else
#define IS_ENABLED_LONG_COUNTERS false
#endif


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
}

static void selfmon_init(void)
{
	static struct selfmon_once once = SELFMON_ONCE_INIT;

	selfmon_once__run(&once, selfmon_init_once);
}

/* A SELFMON_* switch; none counts with raised rights (AT_SECURE): the program's defaults hold. */
static bool env_true(const char *name)
{
	const char *v = secure_getenv(name);

	return v && *v && strcmp(v, "0");
}

/* Step 1: the options, the environment and the configuration, into @ctx and @pin. */
static int open_options(const char *events, const struct selfmon_opts *opts, struct open_ctx *ctx,
			struct selfmon_pin *pin)
{
	/* SELFMON_PIN is not followed with raised rights (AT_SECURE): secure_getenv(3). */
	const char *policy = CONFIG_PIN_POLICY;

	if (!OPTS_VALID(opts))
		return selfmon__err(-EINVAL,
				    "selfmon_opts.sz is %zu, or a field this library does not know "
				    "(past byte %zu) is set: set .sz to sizeof(struct selfmon_opts) "
				    "and leave unknown fields zero",
				    opts->sz, sizeof(*opts));
	if (!events)
		return selfmon__err(-EINVAL, "no events given");
	ctx->root = selfmon_root__get(OPTS_HAS(opts, root) ? opts->root : NULL);
	ctx->user_read = IS_ENABLED_USER_READ;
	ctx->want_long = IS_ENABLED_LONG_COUNTERS;
	if (env_true("SELFMON_NO_USER_READ") ||
	    (OPTS_HAS(opts, no_user_read) && opts->no_user_read))
		ctx->user_read = false;
	if (OPTS_HAS(opts, no_long) && opts->no_long)
		ctx->want_long = false;
	if (secure_getenv("SELFMON_PIN") && *secure_getenv("SELFMON_PIN"))
		policy = secure_getenv("SELFMON_PIN");
	if (OPTS_HAS(opts, pin) && opts->pin)
		policy = opts->pin;
	return selfmon_pin__parse(policy, pin);
}

/* Step 2: what the machine has: its PMUs and their clusters, the caller's view if given. */
static int open_machine(const struct selfmon_opts *opts, struct open_ctx *ctx,
			struct selfmon_pmus *pmus, struct selfmon_topology *topo)
{
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): OPTS_HAS sizes a pointer field, on purpose */
	const struct selfmon_machine *m = OPTS_HAS(opts, machine) ? opts->machine : NULL;
	int err;

	if (m) {
		ctx->root = selfmon_machine__root(m);
		ctx->pmus = selfmon_machine__pmus_of(m);
		err = selfmon_machine__topology_of(m, &ctx->topo);
		if (err)
			return selfmon__err(err, "cannot tell which CPUs the CPU PMUs cover: %s",
					    selfmon_errtext__str(-err));
		return 0;
	}
	err = selfmon_pmus__load(pmus, ctx->root);

	if (err)
		return selfmon__err(err, "cannot list %s/sys/bus/event_source/devices: %s",
				    ctx->root, selfmon_errtext__str(-err));
	err = selfmon_topology__load(topo, pmus);
	if (err)
		return selfmon__err(err, "cannot tell which CPUs the CPU PMUs cover: %s",
				    selfmon_errtext__str(-err));
	ctx->pmus = pmus;
	ctx->topo = topo;
	return 0;
}

/* A group's D and e are the leader's: the kernel takes them there alone. */
static int check_member(const struct selfmon_spec *spec, const struct selfmon_event *ev)
{
	if (spec->group < 0 || spec->leader || (!ev->attr.pinned && !ev->attr.exclusive))
		return 0;
	return selfmon__err(-SELFMON_ERRNO__SYNTAX,
			    "event '%s': ':D' and ':e' apply to a whole "
			    "group, which the kernel pins or isolates through its leader: write "
			    "'{...}:D'",
			    spec->name);
}

/* Step 3: parse every event, all before any is opened: a typo costs no syscall. */
static int open_parse(struct selfmon_set *set, const struct selfmon_spec *specs, int nr,
		      const struct selfmon_pmus *pmus)
{
	int err = 0;

	/* Closing a set whose counters did not all open is safe: they have no evsel. */
	set->nr = nr;
	set->nr_word = (uintptr_t)nr;
	for (int i = 0; i < nr && !err; i++) {
		struct selfmon_counter *c = &set->ctr[i];

		err = selfmon_event__parse_mods(specs[i].name, specs[i].mods, pmus, &c->ev);
		if (!err)
			err = check_member(&specs[i], &c->ev);
		c->leader = specs[i].group < 0 ? -1 : specs[i].leader ? i : set->ctr[i - 1].leader;
		c->fd = -1;
		if (specs[i].leader) {
			c->ev.attr.pinned |= specs[i].pinned;
			c->ev.attr.exclusive |= specs[i].exclusive;
		}
		if (c->leader >= 0)
			set->ctr[c->leader].nr_members++;
	}
	return err;
}

static bool any_hardware(const struct selfmon_set *set)
{
	for (int i = 0; i < set->nr; i++)
		if (set->ctr[i].ev.hardware)
			return true;
	return false;
}

/* Step 4: pin the thread as @pin says, and open hardware events with its cluster's PMU. */
static int open_pin(struct selfmon_set *set, const struct selfmon_pin *pin, struct open_ctx *ctx)
{
	const struct selfmon_cluster *cl = NULL;
	cpu_set_t cpus;
	int err;

	/* Only counters in CPU registers care where the thread runs. */
	if (!any_hardware(set) || !ctx->topo->nr)
		return 0;
	err = selfmon_pin__resolve(pin, ctx->topo, selfmon_pin__cpu(), &cl, &cpus);
	if (!err && cl)
		err = selfmon_pin__acquire(set->owner.tid, cl, &cpus, &set->hold);
	if (err)
		return err;
	ctx->cluster = cl;
	ctx->sum = !cl && ctx->topo->nr > 1;
	if (!cl)
		return 0;
	set->pinned = true;
	set->cluster = cl->cpus;
	for (int i = 0; i < set->nr && !err; i++)
		err = selfmon_event__for_pmu(&set->ctr[i].ev, ctx->pmus, cl->pmu);
	return err;
}

/*
 * Slot 0's group_width and each slot's shift (set.h): where read_all may
 * read every counter by the short read.
 */
static int group_width(struct selfmon_set *set, int nr)
{
	int width = 0;

	if (!SELFMON_ARCH_FIXED_PAGE || !set->hot_wiped || (nr > 1 && set->ctr[0].leader != 0))
		return 0;
	for (int i = 0; i < nr; i++) {
		const struct perf_event_mmap_page *pg = set->hot[i].page;

		if ((i && set->ctr[i].leader != 0) || !pg ||
		    !(pg->capabilities & SELFMON_CAP_USER_RDPMC) ||
		    (pg->pmc_width != 32 && pg->pmc_width != 64))
			return 0;
		set->hot[i].shift = (unsigned char)(64 - pg->pmc_width);
		if (!i)
			width = pg->pmc_width;
		else if (pg->pmc_width != (width & ~SELFMON_GROUP_MIXED))
			width |= SELFMON_GROUP_MIXED;
	}
	return width;
}

/* A slot's width (set.h): 32 or 64 where its page's read may skip the tests of both. */
static int fixed_width(const struct perf_event_mmap_page *pg)
{
	if (!SELFMON_ARCH_FIXED_PAGE || !pg || !(pg->capabilities & SELFMON_CAP_USER_RDPMC))
		return 0;
	return pg->pmc_width == 32 || pg->pmc_width == 64 ? pg->pmc_width : 0;
}

/* Step 5: open the counters in order, each group's leader before its members. */
static int open_counters(struct selfmon_set *set, int nr, const struct open_ctx *ctx)
{
	int err = 0;

	for (int i = 0; i < nr && !err; i++) {
		struct selfmon_counter *c = &set->ctr[i];

		err = selfmon_counter__open(set, i, ctx);
		c->counts_insns = selfmon_arch__counts_instructions(selfmon_arch__host(), ctx->root,
								    &c->ev);
		/* The PMU list goes away after open; the attr has what the kernel needs. */
		c->ev.pmu = NULL;
	}
	if (!err)
		err = selfmon_counter__find_fds(set);
	for (int i = 0; i < nr && !err; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		set->hot[i].set = set;
		set->hot[i].idx = i;
		/* What a read by the page stores (set.h: base). */
		set->hot[i].base.flags = SELFMON_COUNT_USER;
		set->hot[i].base.reason = SELFMON_REASON_NONE;
		if (!c->page && c->fd >= 0 && c->leader < 0 && !c->nr_more && set->hot_wiped) {
			set->hot[i].fd1 = c->fd + 1;
			set->hot[i].reason = (short)c->reason;
		}
		if (set->hot_wiped)
			set->hot[i].page = set->ctr[i].page;
		set->hot[i].member = (unsigned char)(c->leader >= 0 && c->leader != i);
		set->hot[i].width = (unsigned char)fixed_width(set->hot[i].page);
	}
	if (!err)
		set->hot[0].group_width = (short)group_width(set, nr);
	return err;
}

/* The set and the maps libperf opens it with: this thread, on any CPU. */
_Static_assert(sizeof(struct selfmon_hot) == 64,
	       "a counter's hot slot is 64 bytes: indexed by a shift");

/*
 * The slots the fast read uses, in their own mapping marked MADV_WIPEONFORK
 * (madvise(2), Linux 4.14). Where the kernel has no such advice the slots
 * get no page, and every read takes the path that checks the pid.
 */
static int hot_new(struct selfmon_set *set, int nr)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	/* One slot more, zero: the end of selfmon_set__read_all()'s loop over a group. */
	set->hot_size = ((size_t)(nr + 1) * sizeof(struct selfmon_hot) + page - 1) / page * page;
	p = mmap(NULL, set->hot_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	set->hot = p;
	set->hot_wiped = !madvise(p, set->hot_size, MADV_WIPEONFORK);
	return 0;
}

static struct selfmon_set *set_new(int nr)
{
	struct selfmon_set *set =
		selfmon_heap__calloc(1, sizeof(*set) + (size_t)nr * sizeof(set->ctr[0]));

	if (!set)
		return NULL;
	if (hot_new(set, nr)) {
		selfmon_heap__free(set);
		return NULL;
	}
	selfmon_owner__init(&set->owner);
	selfmon_owner__track(&set->owner);
	/* pid 0: the calling thread. Our own cpu map: libperf's lazy default is not thread-safe. */
	set->threads = perf_thread_map__new_dummy();
	set->cpus = selfmon_libperf__cpu_map_any();
	if (set->threads)
		perf_thread_map__set_pid(set->threads, 0, 0);
	return set;
}

struct selfmon_set *selfmon_set__open(const char *events, const struct selfmon_opts *opts)
{
	struct selfmon_spec *specs = NULL;
	struct selfmon_pmus pmus = { 0 };
	struct selfmon_topology topo;
	struct selfmon_set *set = NULL;
	struct open_ctx ctx = { 0 };
	struct selfmon_pin pin;
	int err, nr = 0;

	selfmon_init();
	selfmon__err_clear();
	err = open_options(events, opts, &ctx, &pin);
	if (err)
		goto out;
	specs = selfmon_heap__calloc(CONFIG_MAX_EVENTS, sizeof(*specs));
	nr = specs ? selfmon_list__split(events, specs, CONFIG_MAX_EVENTS) :
		     selfmon__err(-ENOMEM, "out of memory for %d event names", CONFIG_MAX_EVENTS);
	err = nr < 0 ? nr : open_machine(opts, &ctx, &pmus, &topo);
	if (err)
		goto out;
	set = set_new(nr);
	if (!set || !set->threads || !set->cpus) {
		err = selfmon__err(-ENOMEM, "out of memory for a set of %d counters", nr);
		goto out;
	}
	err = open_parse(set, specs, nr, ctx.pmus);
	if (!err)
		err = open_pin(set, &pin, &ctx);
	if (!err)
		err = open_counters(set, nr, &ctx);
out:
	selfmon_pmus__free(&pmus);
	selfmon_heap__free(specs);
	if (err)
		selfmon_set__close(set);
	return err ? util_null_errno(err) : set;
}

void selfmon_set__close(struct selfmon_set *set)
{
	bool ours;

	if (!set)
		return;
	ours = selfmon_owner__same_process(&set->owner);
	for (int i = 0; i < set->nr; i++)
		selfmon_counter__close(&set->ctr[i], ours);
	for (int i = 0; i < set->nr; i++)
		if (set->ctr[i].evlist)
			selfmon_group__close(&set->ctr[i]);
	/* The thread's last pinned set gives its affinity back; a forked child has no such thread. */
	if (set->pinned)
		selfmon_pin__release(&set->hold, ours);
	perf_thread_map__put(set->threads);
	perf_cpu_map__put(set->cpus);
	/* In a child too: the slots were inherited (wiped), they are its own to unmap. */
	munmap(set->hot, set->hot_size);
	selfmon_owner__untrack(&set->owner);
	selfmon_heap__free(set);
}

/* A group is enabled and disabled through its leader: its members follow. */
static bool drives_ioctl(const struct selfmon_counter *c, int i)
{
	return c->leader < 0 || c->leader == i;
}

static int set_ioctl(struct selfmon_set *set, bool enable)
{
	int err;

	if (!set)
		return selfmon__err(-EINVAL, "no set");
	err = selfmon_owner__check(&set->owner);
	for (int i = 0; i < set->nr && !err; i++) {
		const struct selfmon_counter *c = &set->ctr[i];

		for (int k = -1; k < c->nr_more && drives_ioctl(c, i); k++) {
			struct perf_evsel *e = k < 0 ? c->evsel : c->more[k];

			if (enable ? perf_evsel__enable(e) : perf_evsel__disable(e)) {
				err = selfmon__err(-errno ? -errno : -EIO,
						   "event '%s': %s failed: %s", c->ev.name,
						   enable ? "enable" : "disable", selfmon_errtext__str(errno));
				break;
			}
		}
	}
	if (!err)
		set->enabled = enable;
	return err;
}

int selfmon_set__enable(struct selfmon_set *set)
{
	return set_ioctl(set, true);
}

int selfmon_set__disable(struct selfmon_set *set)
{
	return set_ioctl(set, false);
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

const struct perf_event_attr *selfmon_set__attr(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	return &set->ctr[idx].ev.attr;
}

int selfmon_set__group(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return -EINVAL;
	return set->ctr[idx].leader;
}

int selfmon_set__counts_instructions(const struct selfmon_set *set, int idx)
{
	if (!set || idx < 0 || idx >= set->nr)
		return -EINVAL;
	return set->ctr[idx].counts_insns;
}

int selfmon_set__path(const struct selfmon_set *set, int idx, enum selfmon_reason *why)
{
	const struct selfmon_counter *c;
	enum selfmon_reason r;
	uint64_t v;
	int err;

	err = selfmon_set__check(set, idx, __func__);
	if (err)
		return err;
	c = &set->ctr[idx];
	r = c->reason;
	/* Once counting, the page has the last word: a gate opened since counts. */
	if (c->page && set->enabled) {
		if (!selfmon_page__read_value(c->page, &v))
			r = SELFMON_REASON_NONE;
		else if (r == SELFMON_REASON_NONE)
			r = selfmon_refusal__why(set, c);
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
	int err = selfmon_set__check(set, idx, __func__);

	if (err)
		return err;
	return set->ctr[idx].page ? set->ctr[idx].page->pmc_width : 0;
}

const char *selfmon_set__pmu(const struct selfmon_set *set)
{
	return set && set->pinned ? set->hold.pmu : NULL;
}

#define NOTE_LONG                                                                    \
	"the PMU refused a 64-bit counter (EOPNOTSUPP): opened as a 32-bit counter " \
	"(pmc_width 32); reads stay exact, the kernel folds each wrap into the offset"
#define NOTE_USER                                                                    \
	"kernel.perf_event_paranoid forbids counting the kernel to this user: "      \
	"counting user space only (exclude_kernel, exclude_hv), as perf does; "      \
	"write ':u' to ask for that, or lower the sysctl to 1 (or use CAP_PERFMON) " \
	"to count the kernel too"

const char *selfmon_set__note(const struct selfmon_set *set, int idx)
{
	unsigned int n;

	if (!set || idx < 0 || idx >= set->nr)
		return NULL;
	n = set->ctr[idx].notes;
	if ((n & SELFMON_NOTE_LONG_REFUSED) && (n & SELFMON_NOTE_USER_ONLY))
		return NOTE_LONG "; " NOTE_USER;
	if (n & SELFMON_NOTE_LONG_REFUSED)
		return NOTE_LONG;
	if (n & SELFMON_NOTE_USER_ONLY)
		return NOTE_USER;
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
	int err = selfmon_set__check(set, idx, __func__);

	if (err)
		return err;
	return set->ctr[idx].fallbacks;
}

int selfmon_count__scale(const struct selfmon_count *count, uint64_t *scaled)
{
	unsigned __int128 full;

	if (!count || !scaled)
		return selfmon__err(-EINVAL, "selfmon_count__scale: %s is NULL",
				    count ? "scaled" : "count");
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
		return selfmon__err(-EOVERFLOW,
				    "selfmon_count__scale: %llu * %llu / %llu exceeds 64 bits",
				    (unsigned long long)count->value,
				    (unsigned long long)count->enabled,
				    (unsigned long long)count->running);
	}
	*scaled = (uint64_t)full;
	return 1;
}

const char *selfmon_version(void)
{
	return SELFMON_VERSION;
}
