// SPDX-License-Identifier: MIT
/* Drain the ring from a signal handler at each wakeup (SIGIO), and a SIGTRAP per overflow. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>

static struct selfmon_sampler *sampler;
static volatile sig_atomic_t records, traps;

static int count(const struct selfmon_record *rec, void *ctx)
{
	(void)rec;
	(void)ctx;
	records++;
	return 0;
}

static void on_io(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (selfmon_sampler__owns_fd(sampler, si->si_fd))
		selfmon_sampler__drain_signal_safe(sampler, count, NULL);
}

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (selfmon_sigtrap__data(si) == 42)
		traps++;
}

int main(void)
{
	struct selfmon_sampler_opts opts = { .sz = sizeof(opts),
					     .period = 1000000,
					     .wakeup_events = 1,
					     .sigtrap = 1,
					     .sig_data = 42 };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = on_io;
	sigaction(SIGIO, &sa, NULL);
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	sampler = selfmon_sampler__open("task-clock", &opts);
	if (!sampler || selfmon_sampler__signal(sampler, SIGIO)) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	selfmon_sampler__enable(sampler);
	for (volatile unsigned long i = 0; i < 50000000; i++)
		;
	selfmon_sampler__disable(sampler);
	printf("%d records in the handler, %d traps\n", (int)records, (int)traps);
	selfmon_sampler__close(sampler);
	return 0;
}
