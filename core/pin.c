// SPDX-License-Identifier: MIT
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "errtext.h"
#include "pin.h"
#include "fmt.h"
#include "heap.h"
#include "lock.h"

int selfmon_pin__parse(const char *policy, struct selfmon_pin *pin)
{
	static const struct {
		const char *name;
		enum selfmon_pin_kind kind;
	} words[] = {
		{ "none", SELFMON_PIN_NONE },
		{ "current", SELFMON_PIN_CURRENT },
		{ "big", SELFMON_PIN_BIG },
		{ "little", SELFMON_PIN_LITTLE },
	};
	const char *list = policy;

	memset(pin, 0, sizeof(*pin));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(policy, words[i].name)) {
			pin->kind = words[i].kind;
			return 0;
		}
	}
	if (!strncmp(policy, "cpus:", 5))
		list += 5;
	if (list != policy || (*list >= '0' && *list <= '9')) {
		pin->kind = SELFMON_PIN_CPUS;
		if (selfmon_cpulist__parse(list, &pin->cpus) || !CPU_COUNT(&pin->cpus))
			return selfmon__err(-EINVAL, "pinning policy '%s': not a CPU list", policy);
		return 0;
	}
	if (!*policy || strlen(policy) >= sizeof(pin->pmu) || strchr(policy, '/'))
		return selfmon__err(-EINVAL,
				    "pinning policy '%s': use none, current, big, little, "
				    "a CPU list or a core PMU's name",
				    policy);
	pin->kind = SELFMON_PIN_PMU;
	strcpy(pin->pmu, policy);
	return 0;
}

/* The one cluster that holds every CPU of @pin's list. Return: 0 or -errno. */
static int pin__cluster_of_list(const struct selfmon_pin *pin, const struct selfmon_topology *t,
				const char *have, const struct selfmon_cluster **cl)
{
	const struct selfmon_cluster *c = NULL;

	for (int i = 0; i < SELFMON_NR_CPUS; i++) {
		const struct selfmon_cluster *of;

		if (!CPU_ISSET(i, &pin->cpus))
			continue;
		of = selfmon_topology__of_cpu(t, i);
		if (!of)
			return selfmon__err(-ENOENT, "CPU %d is in no cluster (%s)", i, have);
		if (c && of != c)
			return selfmon__err(-EINVAL,
					    "the CPU list spans two clusters, %s and %s: "
					    "user-space reads need one core type (%s)",
					    c->pmu->name, of->pmu->name, have);
		c = of;
	}
	*cl = c;
	return 0;
}

/* The cluster @pin names: current (@cpu's), big, little or a PMU. Return: 0 or -errno. */
static int pin__cluster_named(const struct selfmon_pin *pin, const struct selfmon_topology *t,
			      int cpu, const char *have, const struct selfmon_cluster **cl)
{
	bool big = pin->kind == SELFMON_PIN_BIG;

	if (pin->kind == SELFMON_PIN_CURRENT) {
		*cl = selfmon_topology__of_cpu(t, cpu);
		if (!*cl)
			return selfmon__err(
				-ENOENT,
				"CPU %d, where the thread runs, has no CPU PMU (clusters: %s)", cpu,
				have);
	} else if (pin->kind == SELFMON_PIN_PMU) {
		*cl = selfmon_topology__find(t, pin->pmu);
		if (!*cl)
			return selfmon__err(-ENOENT, "no CPU PMU '%s' to pin to; clusters: %s",
					    pin->pmu, have);
	} else {
		*cl = big ? selfmon_topology__big(t) : selfmon_topology__little(t);
		if (!*cl)
			return selfmon__err(-EINVAL,
					    "cannot tell the %s cluster among %s: pin to a PMU or "
					    "a CPU list instead",
					    big ? "big" : "little", have);
	}
	return 0;
}

int selfmon_pin__resolve(const struct selfmon_pin *pin, const struct selfmon_topology *t, int cpu,
			 const struct selfmon_cluster **cl, cpu_set_t *cpus)
{
	/* A CPU list pins to itself, within its cluster; a named cluster to all its CPUs. */
	bool list = pin->kind == SELFMON_PIN_CPUS;
	const struct selfmon_cluster *c = NULL;
	char have[512];
	int err;

	*cl = NULL;
	if (pin->kind == SELFMON_PIN_NONE)
		return 0;
	selfmon_topology__describe(t, have, sizeof(have));
	if (!t->nr)
		return selfmon__err(-ENOENT, "cannot pin to a cluster: %s on this machine", have);
	err = list ? pin__cluster_of_list(pin, t, have, &c) :
		     pin__cluster_named(pin, t, cpu, have, &c);
	if (err)
		return err;
	*cl = c;
	*cpus = list ? pin->cpus : c->cpus;
	return 0;
}

/*
 * The threads pinned by open sets; few, and touched only by open and close.
 * A forked child inherits its parent's list: entries are keyed by pid as
 * well as tid, so that the child's sets never share, or restore, a hold of
 * its parent's threads (a child only frees its copies).
 */
struct pin_entry {
	struct pin_entry *next;
	struct selfmon_pin_hold hold;
	int refs;
	bool restore;
	cpu_set_t saved;
};

static struct selfmon_lock pin_lock = SELFMON_LOCK_INIT;
static struct pin_entry *pinned;

static struct pin_entry **pin_find(pid_t pid, pid_t tid)
{
	struct pin_entry **e;

	for (e = &pinned; *e && ((*e)->hold.tid != tid || (*e)->hold.pid != pid); e = &(*e)->next)
		;
	return e;
}

/* The first hold of @tid: narrow its affinity to @cpus within what it has. */
static int pin_first(pid_t tid, const struct selfmon_cluster *cl, const cpu_set_t *cpus,
		     struct pin_entry *e)
{
	cpu_set_t cur, want;
	char a[256], b[256];

	if (sched_getaffinity(0, sizeof(cur), &cur))
		return selfmon__err(-errno, "sched_getaffinity: %s", selfmon_errtext__str(errno));
	CPU_AND(&want, &cur, cpus);
	if (!CPU_COUNT(&want)) {
		selfmon_cpulist__format(cpus, a, sizeof(a));
		selfmon_cpulist__format(&cur, b, sizeof(b));
		return selfmon__err(
			-EINVAL, "cannot pin to %s (CPUs %s): the thread may only run on CPUs %s",
			cl->pmu->name, a, b);
	}
	e->hold.pid = getpid();
	e->hold.tid = tid;
	selfmon_fmt__print(e->hold.pmu, sizeof(e->hold.pmu), "%s", cl->pmu->name);
	e->hold.cpus = want;
	e->refs = 1;
	if (CPU_EQUAL(&want, &cur))
		return 0;
	if (sched_setaffinity(0, sizeof(want), &want))
		return selfmon__err(-errno, "sched_setaffinity to %s's CPUs: %s", cl->pmu->name,
				    selfmon_errtext__str(errno));
	e->saved = cur;
	e->restore = true;
	return 0;
}

int selfmon_pin__acquire(pid_t tid, const struct selfmon_cluster *cl, const cpu_set_t *cpus,
			 struct selfmon_pin_hold *hold)
{
	char other[sizeof(hold->pmu)] = "";
	struct pin_entry *e;
	int err;

	/* Only thread @tid adds its own entry: the affinity calls need no lock. */
	selfmon_lock__take(&pin_lock);
	e = *pin_find(getpid(), tid);
	if (e && strcmp(e->hold.pmu, cl->pmu->name))
		memcpy(other, e->hold.pmu, sizeof(other));
	else if (e) {
		e->refs++;
		*hold = e->hold;
	}
	selfmon_lock__give(&pin_lock);
	if (other[0])
		return selfmon__err(-EBUSY,
				    "this thread is pinned to %s by another open set; a set for "
				    "%s would move it off that set's counters: close the other set "
				    "first, or open this one for %s",
				    other, cl->pmu->name, other);
	if (e)
		return 0;

	e = selfmon_heap__calloc(1, sizeof(*e));
	if (!e)
		return selfmon__err(-ENOMEM, "out of memory");
	err = pin_first(tid, cl, cpus, e);
	if (err) {
		selfmon_heap__free(e);
		return err;
	}
	*hold = e->hold;
	selfmon_lock__take(&pin_lock);
	e->next = pinned;
	pinned = e;
	selfmon_lock__give(&pin_lock);
	return 0;
}

int selfmon_pin__cpu(void)
{
	return sched_getcpu();
}

static bool thread_of_this_process(pid_t pid, pid_t tid)
{
	return pid == getpid() &&
	       (tid == (pid_t)syscall(SYS_gettid) || !syscall(SYS_tgkill, pid, tid, 0));
}

void selfmon_pin__release(const struct selfmon_pin_hold *hold, bool restore)
{
	struct pin_entry **slot, *e;

	selfmon_lock__take(&pin_lock);
	slot = pin_find(hold->pid, hold->tid);
	e = *slot;
	if (e && --e->refs == 0)
		*slot = e->next;
	else
		e = NULL;
	selfmon_lock__give(&pin_lock);
	if (!e)
		return;
	/*
	 * By tid when another thread closes the set: the pinned thread gets its
	 * affinity back; but only a live thread of this process (tgkill(2) with
	 * signal 0 asks): a thread that exited with its set open leaves a tid the
	 * kernel may give to a thread of another process.
	 */
	if (restore && e->restore && thread_of_this_process(e->hold.pid, e->hold.tid))
		sched_setaffinity(e->hold.tid == (pid_t)syscall(SYS_gettid) ? 0 : e->hold.tid,
				  sizeof(e->saved), &e->saved);
	selfmon_heap__free(e);
}
