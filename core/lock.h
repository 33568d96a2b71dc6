/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_LOCK_H
#define SELFMON_CORE_LOCK_H

#include <sched.h>

/*
 * A lock for a few loads and stores (a list's walk and link): taken by an
 * atomic exchange, waited for by sched_yield(2). Not a pthread mutex: in
 * a static musl program the mutex brings its timed and robust paths, about
 * 2 KB, to guard what here takes nanoseconds (docs/building.md, "Size").
 * Hold it over no system call that can block. All zero is free: a lock on
 * a page that fork wipes (MADV_WIPEONFORK) is free in the child.
 */
struct selfmon_lock {
	int taken;
};

#define SELFMON_LOCK_INIT { 0 }

static inline void selfmon_lock__take(struct selfmon_lock *l)
{
	while (__atomic_exchange_n(&l->taken, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static inline void selfmon_lock__give(struct selfmon_lock *l)
{
	__atomic_store_n(&l->taken, 0, __ATOMIC_RELEASE);
}

/*
 * Run-once on the same lock: pthread_once(3) in a static musl program
 * costs 428 bytes of the smallest image (its timed futex wait,
 * clock_gettime and the vDSO lookup stay there, through the thread keys'
 * rwlock). The functions run once here are short and make no blocking
 * call; a caller that finds one running waits
 * in sched_yield(2) until it is done, and sees everything it stored.
 */
struct selfmon_once {
	struct selfmon_lock lock;
	int done;
};

#define SELFMON_ONCE_INIT { SELFMON_LOCK_INIT, 0 }

static inline void selfmon_once__run(struct selfmon_once *o, void (*fn)(void))
{
	if (__atomic_load_n(&o->done, __ATOMIC_ACQUIRE))
		return;
	selfmon_lock__take(&o->lock);
	if (!o->done) {
		fn();
		__atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
	}
	selfmon_lock__give(&o->lock);
}

#endif
