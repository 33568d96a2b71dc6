/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_OWNER_H
#define SELFMON_CORE_OWNER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Who may use a set: the thread that opened it, in the process that opened
 * it. perf's mmap pages are not inherited by fork(), and a set counts only
 * the thread it was opened for (perf_event_open(2), pid = 0).
 */
struct selfmon_owner {
	pid_t pid;
	pid_t tid;
};

/* This thread's tid, for the read path's inline check (0 until the thread opens or checks a set). */
extern _Thread_local pid_t selfmon_owner__tid;

/* Record the calling thread as the owner. Return: 0 or -errno. */
int selfmon_owner__init(struct selfmon_owner *o);

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
