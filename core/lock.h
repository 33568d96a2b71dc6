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

#endif
