/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_OWNER_H
#define SELFMON_CORE_OWNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <selfmon/arch.h>

/*
 * Who may use a set: the thread that opened it, in the process that opened
 * it. perf's mmap pages are not inherited by fork(), and a set counts only
 * the thread it was opened for (perf_event_open(2), pid = 0).
 */
struct selfmon_owner {
	pid_t pid;
	pid_t tid;
	/* The process's tracked owners (selfmon_owner__track()). */
	struct selfmon_owner *next, *prev;
	bool tracked;
	/*
	 * The owning thread's pointer (selfmon_owner__self()) while the owner
	 * is tracked and its thread lives, else 0: the read path's inline check.
	 * Last: set.h puts the set's count of counters after it.
	 */
	uintptr_t tp;
};

#ifndef SELFMON_ARCH_THREAD_POINTER
/* Where the arch names no thread pointer: the address of a thread variable, as unique. */
extern _Thread_local char selfmon_owner__anchor;
#endif

/*
 * The calling thread's pointer: while it lives no other thread has the
 * same. One made after it exited may, which selfmon_owner__track() answers.
 */
static inline __attribute__((always_inline)) uintptr_t selfmon_owner__self(void)
{
#ifdef SELFMON_ARCH_THREAD_POINTER
	return selfmon_arch_thread_pointer();
#else
	return (uintptr_t)&selfmon_owner__anchor;
#endif
}

/* Record the calling thread as the owner (not tracked: @o->tp is 0). Return: 0 or -errno. */
int selfmon_owner__init(struct selfmon_owner *o);

/*
 * Keep @o->tp, the owner's thread pointer, for the inline check, until
 * selfmon_owner__untrack(): when the owner's thread exits, its pointer is
 * cleared, so that a thread made later with the same pointer fails the
 * check. Without a way to learn of the exit (no thread key) @o->tp stays 0
 * and every read takes the full check. Call from the owner's thread.
 */
void selfmon_owner__track(struct selfmon_owner *o);

/* Stop tracking @o (from any thread; in a forked child, a no-op). */
void selfmon_owner__untrack(struct selfmon_owner *o);

/*
 * Is the calling thread @o, in @o's process? Return: 0,
 * -SELFMON_ERRNO__FORKED (a child of the process that opened it, however
 * it was forked) or -SELFMON_ERRNO__THREAD; selfmon_errmsg() says which.
 * No system call.
 */
int selfmon_owner__check(const struct selfmon_owner *o);

/* The same without a message: is this process the one that opened it? */
int selfmon_owner__same_process(const struct selfmon_owner *o);

#endif
