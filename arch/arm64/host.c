// SPDX-License-Identifier: MIT
/* Built only when this arch is the configured one: core/ asks here, not in #ifdefs. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "../../core/arch_int.h"
#include "../../core/lock.h"

const struct selfmon_arch *selfmon_arch__host(void)
{
	return &selfmon_arch__arm64;
}

/*
 * A user read loads the page's index, then reads that counter with mrs. If
 * the thread is moved between the two to a CPU of another PMU (big.LITTLE;
 * the arm64 perf document, "About heterogeneous systems"), that CPU grants
 * EL0 no access for this task and the mrs traps: SIGILL. The kernel has
 * already taken the event off its counter and updated the page, so the
 * read's seqlock check would have sent it round again, to index 0 and the
 * read(2) fallback. This handler lets it get there: an mrs of a counter
 * register, while kernel.perf_user_access is 1, yields 0 and execution goes
 * on after it. Anything else goes to the handler that was there before.
 */
static struct sigaction previous;

static int user_access_on(void)
{
	char c = '0';
	int fd = open("/proc/sys/kernel/perf_user_access", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

static void pass_on(int sig, siginfo_t *si, void *uctx)
{
	if (previous.sa_flags & SA_SIGINFO) {
		previous.sa_sigaction(sig, si, uctx);
	} else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
		previous.sa_handler(sig);
	} else {
		/* Default: the instruction runs again and the signal takes its course. */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(sig, &dfl, NULL);
	}
}

/* Async-signal-safe: a decode, open/read/close, and the context's registers. */
static void on_sigill(int sig, siginfo_t *si, void *uctx)
{
	ucontext_t *uc = uctx;
	uint32_t insn = *(const uint32_t *)uc->uc_mcontext.pc;
	int rt, saved = errno;

	if (selfmon_arm64__is_counter_mrs(insn, &rt) && user_access_on()) {
		if (rt != 31)
			uc->uc_mcontext.regs[rt] = 0;
		uc->uc_mcontext.pc += 4;
		errno = saved;
		return;
	}
	errno = saved;
	pass_on(sig, si, uctx);
}

static int guard_err;

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigill;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &previous))
		guard_err = -errno;
}

int selfmon_arch__guard_user_reads(void)
{
	static struct selfmon_once once = SELFMON_ONCE_INIT;

	selfmon_once__run(&once, install);
	return guard_err;
}
