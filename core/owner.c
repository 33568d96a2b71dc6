// SPDX-License-Identifier: MIT
/*
 * Fork and thread checks without atfork handlers: a raw fork system call
 * runs none, and a new thread may get the TLS block of one that exited.
 *
 * Fork: one page of this process is marked MADV_WIPEONFORK (madvise(2),
 * Linux 4.14): a child, however made, sees it zero-filled. It holds the pid
 * that last opened a set, so a set of another process never matches it.
 * Thread: each thread caches its own tid in TLS, which every new thread
 * starts with zero, so a reused TLS block cannot carry an exited owner's tid.
 * The forking thread's TLS does survive fork(), and with it the parent's
 * tid: the cache also holds the pid it was taken in, and is good only while
 * that pid is the one on the wiped page (a child sees 0 there, then its own).
 *
 * The read path checks the thread by its pointer instead, one register
 * (selfmon_owner__self()): no system call, no TLS lookup. A thread made
 * after the owner exited may get the owner's pointer, so the owners are
 * tracked on the wiped page too, and a thread key's destructor clears the
 * pointer of every owner of a thread as it exits (pthread_key_create(3)):
 * a later thread then fails the inline check and takes the full one, which
 * compares tids. In a child the list and its lock are wiped with the page:
 * no owner of the parent's is tracked there, and no lock is held.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "lock.h"
#include "owner.h"

/* What the wiped page holds: who claimed it, and the tracked owners with their lock. */
struct owner_page {
	pid_t pid;
	struct selfmon_lock lock;
	struct selfmon_owner *head;
};

/*
 * Before Linux 4.14 there is no MADV_WIPEONFORK: the owners' list is this
 * one, and the pid comes from getpid(2) at each check (this_process()),
 * which no fork, raw or not, can leave stale. Not an atfork handler: a raw
 * fork runs none, and pthread_atfork(3) allocates with the C library's
 * malloc, which a build with CONFIG_SMALL_HEAP otherwise does without.
 */
static struct owner_page fallback_page;
/* Every thread may write its pid, all with the same pid: relaxed atomics. */
static struct owner_page *owners = &fallback_page;
static _Thread_local pid_t tid_cache;
static _Thread_local pid_t tid_pid; /* the process tid_cache was taken in */
static pthread_key_t exit_key;
static bool exit_key_ok;
#ifndef SELFMON_ARCH_THREAD_POINTER
_Thread_local char selfmon_owner__anchor;
#endif

/* The thread key's destructor: this thread's owners lose its pointer. */
static void owner_thread_exit(void *unused)
{
	uintptr_t self = selfmon_owner__self();

	(void)unused;
	selfmon_lock__take(&owners->lock);
	for (struct selfmon_owner *o = owners->head; o; o = o->next)
		if (__atomic_load_n(&o->tp, __ATOMIC_RELAXED) == self)
			__atomic_store_n(&o->tp, 0, __ATOMIC_RELAXED);
	selfmon_lock__give(&owners->lock);
}

static void owner_init_once(void)
{
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	exit_key_ok = !pthread_key_create(&exit_key, owner_thread_exit);
	if (p != MAP_FAILED && !madvise(p, (size_t)sysconf(_SC_PAGESIZE), MADV_WIPEONFORK)) {
		owners = p;
		return;
	}
	if (p != MAP_FAILED)
		munmap(p, (size_t)sysconf(_SC_PAGESIZE));
}

/* This process's pid, from the page (no system call) once this process has claimed it. */
static pid_t this_process(void)
{
	pid_t pid;

	if (owners == &fallback_page)
		return getpid();
	pid = __atomic_load_n(&owners->pid, __ATOMIC_RELAXED);
	/* 0: a child, however made, that has not claimed the wiped page yet */
	if (!pid) {
		pid = getpid();
		__atomic_store_n(&owners->pid, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

static pid_t current_tid(void)
{
	pid_t pid = this_process();

	if (!tid_cache || tid_pid != pid) {
		/* The system call itself: musl's gettid() is its own cache, stale after a raw fork. */
		tid_cache = (pid_t)syscall(SYS_gettid);
		tid_pid = pid;
	}
	return tid_cache;
}

int selfmon_owner__init(struct selfmon_owner *o)
{
	static struct selfmon_once once = SELFMON_ONCE_INIT;
	pid_t pid;

	selfmon_once__run(&once, owner_init_once);
	/* In a child (wiped page) the first open claims the page for this process. */
	pid = getpid();
	if (__atomic_load_n(&owners->pid, __ATOMIC_RELAXED) != pid)
		__atomic_store_n(&owners->pid, pid, __ATOMIC_RELAXED);
	*o = (struct selfmon_owner){ .pid = pid, .tid = current_tid() };
	return 0;
}

void selfmon_owner__track(struct selfmon_owner *o)
{
	/* Any non-NULL value: the destructor runs for this thread. */
	if (!exit_key_ok || pthread_setspecific(exit_key, owners))
		return;
	selfmon_lock__take(&owners->lock);
	o->prev = NULL;
	o->next = owners->head;
	if (o->next)
		o->next->prev = o;
	owners->head = o;
	o->tracked = true;
	__atomic_store_n(&o->tp, selfmon_owner__self(), __ATOMIC_RELAXED);
	selfmon_lock__give(&owners->lock);
}

void selfmon_owner__untrack(struct selfmon_owner *o)
{
	/* A child's list is its own: the parent's owners were never on it. */
	if (!o->tracked || !selfmon_owner__same_process(o))
		return;
	selfmon_lock__take(&owners->lock);
	if (o->prev)
		o->prev->next = o->next;
	else
		owners->head = o->next;
	if (o->next)
		o->next->prev = o->prev;
	o->tracked = false;
	__atomic_store_n(&o->tp, 0, __ATOMIC_RELAXED);
	selfmon_lock__give(&owners->lock);
}

int selfmon_owner__same_process(const struct selfmon_owner *o)
{
	return this_process() == o->pid;
}

int selfmon_owner__check(const struct selfmon_owner *o)
{
	if (!selfmon_owner__same_process(o))
		return selfmon__err(
			-SELFMON_ERRNO__FORKED,
			"this event set was opened by process %d; its mmap pages are not mapped "
			"after fork(): open a new set in the child",
			(int)o->pid);
	if (current_tid() != o->tid)
		return selfmon__err(
			-SELFMON_ERRNO__THREAD,
			"this event set counts thread %d, which opened it, and must be read there: "
			"open one set per thread",
			(int)o->tid);
	return 0;
}
