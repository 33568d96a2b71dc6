// SPDX-License-Identifier: MIT
/*
 * selfmon probe: what this machine offers and why. It reads the same sysfs
 * and procfs files as the library (SELFMON_SYSFS_ROOT applies), then opens
 * each standard event for real and reports the read path it gets.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <generated/autoconf.h>
#include <selfmon/arch.h>
#include <selfmon/selfmon.h>
#include "../core/event.h"
#include "../core/pin.h"
#include "../core/pmu.h"
#include "../core/sysfs.h"
#include "../core/topology.h"
#include "cmd.h"

struct probe_event {
	const char *name;
	bool opened;
	int path;
	enum selfmon_reason reason;
	int pmc_width;
	char error[512];
};

struct probe {
	const char *root;
	bool fixture;
	struct utsname uts;
	long paranoid, user_access;	/* -1: no such file */
	unsigned long long cap_eff;
	struct selfmon_pmus pmus;
	struct selfmon_topology topo;
	/* The pinning policy in force and what it resolves to here. */
	const char *policy, *policy_from;
	int cpu;
	const struct selfmon_cluster *pinned;
	cpu_set_t pinned_cpus;
	char pin_error[512];
	struct probe_event ev[32];
	int nr_ev, nr_user;
};

static long read_long_or(const char *root, const char *path, long dflt)
{
	long v;

	return selfmon_sysfs__read_long(root, path, &v) ? dflt : v;
}

static unsigned long long cap_effective(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps;
}

static void probe_event(struct probe_event *pe)
{
	struct selfmon_count c;
	struct selfmon_set *set;

	set = selfmon_set__open(pe->name, NULL);
	if (!set) {
		snprintf(pe->error, sizeof(pe->error), "%s", selfmon_errmsg());
		return;
	}
	pe->opened = true;
	/* Enabled, so that the page shows the index the event really gets. */
	selfmon_set__enable(set);
	selfmon_set__read(set, 0, &c);
	pe->path = selfmon_set__path(set, 0, &pe->reason);
	pe->pmc_width = selfmon_set__pmc_width(set, 0);
	selfmon_set__close(set);
}

static void gather_pinning(struct probe *p)
{
	struct selfmon_pin pin;
	const char *env = getenv("SELFMON_PIN");

	p->policy = CONFIG_PIN_POLICY;
	p->policy_from = "CONFIG_PIN_POLICY";
	if (env && *env) {
		p->policy = env;
		p->policy_from = "SELFMON_PIN";
	}
	/* A fixture's CPUs are not this machine's: resolve as if on its CPU 0. */
	p->cpu = p->fixture ? 0 : sched_getcpu();
	if (selfmon_topology__load(&p->topo, &p->pmus) || !p->topo.nr)
		return;
	if (selfmon_pin__parse(p->policy, &pin) ||
	    selfmon_pin__resolve(&pin, &p->topo, p->cpu, &p->pinned, &p->pinned_cpus))
		snprintf(p->pin_error, sizeof(p->pin_error), "%s", selfmon_errmsg());
}

static void gather(struct probe *p)
{
	p->root = selfmon_root__get(NULL);
	p->fixture = *p->root != '\0';
	uname(&p->uts);
	p->paranoid = read_long_or(p->root, "/proc/sys/kernel/perf_event_paranoid", -1);
	p->user_access = read_long_or(p->root, "/proc/sys/kernel/perf_user_access", -1);
	p->cap_eff = cap_effective();
	selfmon_pmus__load(&p->pmus, p->root);
	gather_pinning(p);
	if (p->fixture)
		return;	/* the events below would open on this kernel, not the fixture's */
	for (const char *const *n = selfmon_event__standard; *n && p->nr_ev < 32; n++) {
		struct probe_event *pe = &p->ev[p->nr_ev++];

		pe->name = *n;
		probe_event(pe);
		p->nr_user += pe->opened && pe->path == SELFMON_PATH_USER;
	}
}

static const char *paranoid_meaning(long v)
{
	switch (v) {
	case -1: return "no restrictions";
	case 0: return "users may count CPU-wide, not raw tracepoints";
	case 1: return "users may count their own processes, user and kernel";
	case 2: return "users may count their own processes, user space only";
	default: return v > 2 ? "only privileged users (Debian): run as root or lower it to 2" : "?";
	}
}

static void print_formats(const struct selfmon_pmu *pmu, FILE *f, bool json)
{
	static const char *const field[] = { "config", "config1", "config2" };

	for (int i = 0; i < pmu->nr_formats; i++) {
		const struct selfmon_format *fm = &pmu->formats[i];
		unsigned long long mask = selfmon_format__mask(fm);

		if (json)
			fprintf(f, "%s\"%s\": {\"field\": \"%s\", \"mask\": \"0x%llx\"}", i ? ", " : "",
				fm->name, field[fm->field], mask);
		else
			fprintf(f, " %s=%s/0x%llx", fm->name, field[fm->field], mask);
	}
}

/* The gates that stand between this process and a user-space read, with fixes. */
static void print_gates_text(const struct probe *p)
{
	const struct selfmon_pmu *core = selfmon_pmus__default_core(&p->pmus);

	printf("gates:\n");
	printf("  kernel.perf_event_paranoid = %ld (%s)\n", p->paranoid, paranoid_meaning(p->paranoid));
	printf("  privileges: %s\n", p->cap_eff & (1ull << 38) ? "CAP_PERFMON" :
	       p->cap_eff & (1ull << 21) ? "CAP_SYS_ADMIN" : "none (the paranoid level applies)");
#ifdef CONFIG_ARCH_ARM64
	if (p->user_access < 0)
		printf("  kernel.perf_user_access: absent: %s\n", selfmon_reason__str(SELFMON_REASON_NO_SYSCTL));
	else
		printf("  kernel.perf_user_access = %ld%s\n", p->user_access,
		       p->user_access ? "" : "  -> fix: sysctl -w kernel.perf_user_access=1");
#endif
	for (int i = 0; i < p->pmus.nr; i++) {
		const struct selfmon_pmu *pmu = &p->pmus.pmu[i];

		if (pmu->rdpmc >= 0)
			printf("  %s/rdpmc = %d%s\n", pmu->name, pmu->rdpmc,
			       pmu->rdpmc ? "" : "  -> fix: echo 1 > /sys/bus/event_source/devices/cpu/rdpmc");
	}
	if (!core)
		printf("  hardware PMU: none: no CPU PMU in /sys/bus/event_source/devices "
		       "(a VM without a virtual PMU?). Only software events can be counted, by read(2).\n");
}

static void print_clusters_text(const struct probe *p)
{
	const struct selfmon_cluster *big = selfmon_topology__big(&p->topo);
	const struct selfmon_cluster *little = selfmon_topology__little(&p->topo);
	char cpus[256];

	printf("clusters (%d%s%s):\n", p->topo.nr, p->topo.ranked_by ? ", big and little by " : "",
	       p->topo.ranked_by ? p->topo.ranked_by : "");
	for (int i = 0; i < p->topo.nr; i++) {
		const struct selfmon_cluster *c = &p->topo.cl[i];

		selfmon_cpulist__format(&c->cpus, cpus, sizeof(cpus));
		printf("  %-22s type %-3u cpus %-8s capacity %-5lu%s\n", c->pmu->name, c->pmu->type, cpus,
		       c->capacity, p->topo.nr < 2 ? "" : c == big ? " big" : c == little ? " little" : "");
	}
	printf("pinning: policy '%s' (from %s) ", p->policy, p->policy_from);
	if (p->pin_error[0]) {
		printf("does not resolve: %s\n", p->pin_error);
	} else if (p->pinned) {
		selfmon_cpulist__format(&p->pinned_cpus, cpus, sizeof(cpus));
		printf("-> %s, CPUs %s%s\n", p->pinned->pmu->name, cpus,
		       p->fixture ? " (as if on CPU 0)" : "");
	} else if (!p->topo.nr) {
		printf("-> nothing to pin: no CPU PMU here, software events run anywhere\n");
	} else if (p->topo.nr > 1) {
		printf("-> unpinned: each hardware event is counted on every core PMU and summed, by read(2)\n");
	} else {
		printf("-> unpinned\n");
	}
}

static void print_text(const struct probe *p)
{
	char cpus[256];

	printf("selfmon %s, built for %s (user read %s, 64-bit counters %s)\n", selfmon_version(),
	       SELFMON_ARCH_NAME,
#ifdef CONFIG_USER_READ
	       "on",
#else
	       "off",
#endif
#ifdef CONFIG_LONG_COUNTERS
	       "asked"
#else
	       "not asked"
#endif
	       );
	printf("kernel: %s %s %s\n", p->uts.sysname, p->uts.release, p->uts.machine);
	if (p->fixture)
		printf("root: %s (fixture tree: no events are opened)\n", p->root);

	printf("PMUs (%d, %d CPU):\n", p->pmus.nr, selfmon_pmus__nr_core(&p->pmus));
	for (int i = 0; i < p->pmus.nr; i++) {
		const struct selfmon_pmu *pmu = &p->pmus.pmu[i];

		if (pmu->has_cpus)
			selfmon_cpulist__format(&pmu->cpus, cpus, sizeof(cpus));
		printf("  %-22s type %-3u %-4s cpus %-8s", pmu->name, pmu->type, pmu->core ? "cpu" : "",
		       pmu->has_cpus ? cpus : "all");
		print_formats(pmu, stdout, false);
		printf("\n");
	}
	print_clusters_text(p);
	print_gates_text(p);

	if (!p->fixture) {
		printf("events:\n");
		for (int i = 0; i < p->nr_ev; i++) {
			const struct probe_event *pe = &p->ev[i];
			const char *fix;

			if (!pe->opened) {
				printf("  %-17s does not open: %s\n", pe->name, pe->error);
				continue;
			}
			if (pe->path == SELFMON_PATH_USER) {
				printf("  %-17s user space (%s, pmc_width %d)\n", pe->name,
				       SELFMON_ARCH_NAME, pe->pmc_width);
				continue;
			}
			printf("  %-17s read(2): %s", pe->name, selfmon_reason__str(pe->reason));
			fix = selfmon_reason__fix(pe->reason);
			if (fix)
				printf("  -> fix: %s", fix);
			printf("\n");
		}
		printf("verdict: %s\n", p->nr_user ? "user-space counter reads are available" :
		       "no user-space counter reads on this machine: every read takes read(2) (see above)");
	}
}

static void print_json(const struct probe *p)
{
	char cpus[256];

	printf("{\n  \"version\": \"%s\",\n  \"arch\": \"%s\",\n", selfmon_version(), SELFMON_ARCH_NAME);
	printf("  \"kernel\": {\"release\": \"%s\", \"machine\": \"%s\"},\n", p->uts.release, p->uts.machine);
	printf("  \"gates\": {\"perf_event_paranoid\": %ld, \"perf_user_access\": ", p->paranoid);
	if (p->user_access < 0)
		printf("null");
	else
		printf("%ld", p->user_access);
	printf(", \"cap_perfmon\": %s, \"cap_sys_admin\": %s},\n",
	       p->cap_eff & (1ull << 38) ? "true" : "false", p->cap_eff & (1ull << 21) ? "true" : "false");
	printf("  \"pmus\": [");
	for (int i = 0; i < p->pmus.nr; i++) {
		const struct selfmon_pmu *pmu = &p->pmus.pmu[i];

		cpus[0] = '\0';
		if (pmu->has_cpus)
			selfmon_cpulist__format(&pmu->cpus, cpus, sizeof(cpus));
		printf("%s\n    {\"name\": \"%s\", \"type\": %u, \"core\": %s, \"cpus\": %s%s%s, "
		       "\"rdpmc\": ", i ? "," : "", pmu->name, pmu->type, pmu->core ? "true" : "false",
		       pmu->has_cpus ? "\"" : "", pmu->has_cpus ? cpus : "null", pmu->has_cpus ? "\"" : "");
		if (pmu->rdpmc < 0)
			printf("null");
		else
			printf("%d", pmu->rdpmc);
		printf(", \"format\": {");
		print_formats(pmu, stdout, true);
		printf("}}");
	}
	printf("\n  ],\n  \"clusters\": [");
	for (int i = 0; i < p->topo.nr; i++) {
		const struct selfmon_cluster *c = &p->topo.cl[i];

		selfmon_cpulist__format(&c->cpus, cpus, sizeof(cpus));
		printf("%s\n    {\"pmu\": \"%s\", \"type\": %u, \"cpus\": \"%s\", \"capacity\": %lu, "
		       "\"big\": %s, \"little\": %s}", i ? "," : "", c->pmu->name, c->pmu->type, cpus,
		       c->capacity, c == selfmon_topology__big(&p->topo) ? "true" : "false",
		       c == selfmon_topology__little(&p->topo) ? "true" : "false");
	}
	printf("\n  ],\n  \"pinning\": {\"policy\": \"%s\", \"from\": \"%s\", \"pmu\": ", p->policy,
	       p->policy_from);
	if (p->pinned) {
		selfmon_cpulist__format(&p->pinned_cpus, cpus, sizeof(cpus));
		printf("\"%s\", \"cpus\": \"%s\"", p->pinned->pmu->name, cpus);
	} else {
		printf("null, \"cpus\": null");
	}
	printf(", \"summed\": %s},\n  \"events\": [", !p->pinned && !p->pin_error[0] && p->topo.nr > 1 ?
	       "true" : "false");
	for (int i = 0; i < p->nr_ev; i++) {
		const struct probe_event *pe = &p->ev[i];
		const char *fix = pe->opened ? selfmon_reason__fix(pe->reason) : NULL;

		printf("%s\n    {\"name\": \"%s\", \"opens\": %s", i ? "," : "", pe->name,
		       pe->opened ? "true" : "false");
		if (!pe->opened) {
			printf(", \"error\": \"");
			for (const char *c = pe->error; *c; c++)
				printf(*c == '"' || *c == '\\' ? "\\%c" : (unsigned char)*c < 0x20 ? " " : "%c", *c);
			printf("\"}");
			continue;
		}
		printf(", \"path\": \"%s\", \"reason\": \"%s\", \"fix\": %s%s%s, \"pmc_width\": %d}",
		       pe->path == SELFMON_PATH_USER ? "user" : "read",
		       pe->path == SELFMON_PATH_USER ? "" : selfmon_reason__str(pe->reason),
		       fix ? "\"" : "", fix ? fix : "null", fix ? "\"" : "", pe->pmc_width);
	}
	printf("\n  ],\n  \"user_read\": %s\n}\n", p->nr_user ? "true" : "false");
}

int cmd_probe(int argc, char **argv)
{
	struct probe p = { 0 };
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: selfmon probe [--json]\n"
			       "Exit status: 0 if user-space counter reads work here, 1 if not, 2 on error.\n"
			       "SELFMON_SYSFS_ROOT=<dir> reads sys/ and proc/ from <dir> instead.\n");
			return 0;
		} else {
			fprintf(stderr, "selfmon probe: unknown option '%s' (try --help)\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	gather(&p);
	if (json)
		print_json(&p);
	else
		print_text(&p);
	selfmon_pmus__free(&p.pmus);
	return p.nr_user ? EXIT_USER_READ : EXIT_NO_USER_READ;
}
