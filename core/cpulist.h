/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_CPULIST_H
#define SELFMON_CORE_CPULIST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stddef.h>

/*
 * The CPUs a cpu_set_t holds (1024). Not CPU_SETSIZE: musl (1.2) defines it
 * as 128 while its cpu_set_t, like glibc's, has room for 1024 CPUs, and its
 * CPU_SET() takes any of them; a bound of 128 would refuse real CPU numbers.
 */
#define SELFMON_NR_CPUS ((int)(8 * sizeof(cpu_set_t)))

/* Parse a kernel CPU list ("0-3,6,8-11"). Return: 0 or -EINVAL. */
int selfmon_cpulist__parse(const char *list, cpu_set_t *set);

/* Print @set as a CPU list. Return: 0 or -ENOSPC. */
int selfmon_cpulist__format(const cpu_set_t *set, char *buf, size_t size);

#endif
