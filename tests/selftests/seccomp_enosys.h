/* SPDX-License-Identifier: MIT */
/*
 * What qemu-user and a container's seccomp profile do to a perf program:
 * perf_event_open(2) fails with ENOSYS, for every event. A seccomp filter
 * (seccomp(2), "SECCOMP_RET_ERRNO") makes that happen to the calling
 * thread and every program it then execs; a test installs it in a child
 * (tests/selftests/child.h). PR_SET_NO_NEW_PRIVS lets an unprivileged
 * thread install it (prctl(2)).
 */
#ifndef SELFMON_TESTS_SECCOMP_ENOSYS_H
#define SELFMON_TESTS_SECCOMP_ENOSYS_H

#include <errno.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define SECCOMP_ENOSYS_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_ENOSYS_ARCH AUDIT_ARCH_AARCH64
#endif

/*
 * seccomp_enosys_perf() - from now on, perf_event_open(2) fails with ENOSYS
 * in this thread and what it execs; every other call is allowed.
 * Return: 0, or -errno when the filter cannot be installed.
 */
static inline int seccomp_enosys_perf(void)
{
#ifndef SECCOMP_ENOSYS_ARCH
	return -EOPNOTSUPP; /* an architecture this filter does not know */
#else
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_ENOSYS_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
		return -errno;
	return 0;
#endif
}

#endif
