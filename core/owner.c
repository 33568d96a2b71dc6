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
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "owner.h"

/* Before 4.14 there is no MADV_WIPEONFORK: atfork handlers are all we have. */
static pid_t fallback_pid;
/* Every thread may write it, all with the same pid: relaxed atomics. */
static pid_t *fork_word = &fallback_pid;
_Thread_local pid_t selfmon_owner__tid;
static _Thread_local pid_t tid_pid; /* the process selfmon_owner__tid was taken in */

static void wipe_in_child(void)
{
	__atomic_store_n(&fallback_pid, 0, __ATOMIC_RELAXED);
}

static void owner_init_once(void)
{
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p != MAP_FAILED && !madvise(p, (size_t)sysconf(_SC_PAGESIZE), MADV_WIPEONFORK)) {
		fork_word = p;
		return;
	}
	if (p != MAP_FAILED)
		munmap(p, (size_t)sysconf(_SC_PAGESIZE));
	pthread_atfork(NULL, NULL, wipe_in_child);
}

/* This process's pid, from the page (no system call) once this process has claimed it. */
static pid_t this_process(void)
{
	pid_t pid = __atomic_load_n(fork_word, __ATOMIC_RELAXED);

	/* 0: a child, however made, that has not claimed the wiped page yet */
	if (!pid) {
		pid = getpid();
		__atomic_store_n(fork_word, pid, __ATOMIC_RELAXED);
	}
	return pid;
}

static pid_t current_tid(void)
{
	pid_t pid = this_process();

	if (!selfmon_owner__tid || tid_pid != pid) {
		/* The system call itself: musl's gettid() is its own cache, stale after a raw fork. */
		selfmon_owner__tid = (pid_t)syscall(SYS_gettid);
		tid_pid = pid;
	}
	return selfmon_owner__tid;
}

int selfmon_owner__init(struct selfmon_owner *o)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pid_t pid;

	pthread_once(&once, owner_init_once);
	/* In a child (wiped page) the first open claims the page for this process. */
	pid = getpid();
	if (__atomic_load_n(fork_word, __ATOMIC_RELAXED) != pid)
		__atomic_store_n(fork_word, pid, __ATOMIC_RELAXED);
	o->pid = pid;
	o->tid = current_tid();
	return 0;
}

int selfmon_owner__same_process(const struct selfmon_owner *o)
{
	return __atomic_load_n(fork_word, __ATOMIC_RELAXED) == o->pid;
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
