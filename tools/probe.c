// SPDX-License-Identifier: MIT
/*
 * selfmon probe: what this machine offers and why. It reads the same sysfs
 * and procfs files as the library (SELFMON_SYSFS_ROOT applies), then opens
 * each standard event for real and reports the read path it gets.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <generated/autoconf.h>
#include <selfmon/arch.h>
#include <selfmon/machine.h>
#include <selfmon/selfmon.h>
#include "../util/text.h"
#include "cli.h"

struct probe_event {
	const char *name;
	bool opened;
	int err; /* errno of a failed open */
	int path;
	enum selfmon_reason reason;
	int pmc_width;
	char error[512];
};

struct probe {
	const char *root;
	bool fixture;
	struct utsname uts;
	bool has_paranoid, has_user_access; /* false: no such file */
	long paranoid, user_access;
	unsigned long long cap_eff;
	struct selfmon_machine *m;
	int nr_clusters;
	/* The pinning policy in force and what it resolves to here. */
	const char *policy, *policy_from;
	int cpu;
	int pinned; /* cluster index; -1: none */
	char pinned_cpus[256];
	char pin_error[512];
	struct probe_event ev[32];
	int nr_ev, nr_user;
	/* Every event failed with ENOSYS: perf_event_open(2) itself is missing. */
	bool no_perf;
};

/* The verdict where no event opens, not even a software one. */
#define PROBE_ENOSYS                                                                  \
	"perf_event_open is not available here (ENOSYS: qemu-user, a seccomp filter, " \
	"or a kernel without CONFIG_PERF_EVENTS)"

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

static void probe_event(struct probe_event *pe, const struct selfmon_machine *m)
{
	struct selfmon_opts so = { .sz = sizeof(so), .machine = m };
	struct selfmon_count c;
	struct selfmon_set *set;

	/* The view read once above: eleven events, one scan of sysfs. */
	set = selfmon_set__open(pe->name, &so);
	if (!set) {
		pe->err = errno;
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
	const char *env = getenv("SELFMON_PIN");

	p->policy = CONFIG_PIN_POLICY;
	p->policy_from = "CONFIG_PIN_POLICY";
	if (env && *env) {
		p->policy = env;
		p->policy_from = "SELFMON_PIN";
	}
	/* A fixture's CPUs are not this machine's: resolve as if on its CPU 0. */
	p->cpu = p->fixture ? 0 : sched_getcpu();
	p->pinned = -1;
	p->nr_clusters = selfmon_machine__nr_clusters(p->m);
	if (!p->nr_clusters)
		return;
	if (selfmon_machine__resolve_pin(p->m, p->policy, p->cpu, &p->pinned, p->pinned_cpus,
					 sizeof(p->pinned_cpus)))
		snprintf(p->pin_error, sizeof(p->pin_error), "%s", selfmon_errmsg());
}

static int gather(struct probe *p)
{
	const char *name;
	int opened = 0, nosys = 0;

	p->m = selfmon_machine__open(NULL);
	if (!p->m)
		return -errno;
	p->root = selfmon_machine__root(p->m);
	p->fixture = *p->root != '\0';
	uname(&p->uts);
	p->has_paranoid = !selfmon_machine__paranoid(p->m, &p->paranoid);
	p->has_user_access = !selfmon_machine__user_access(p->m, &p->user_access);
	p->cap_eff = cap_effective();
	gather_pinning(p);
	if (p->fixture)
		return 0; /* the events below would open on this kernel, not the fixture's */
	for (int i = 0; (name = selfmon_events__standard(i)) && p->nr_ev < 32; i++) {
		struct probe_event *pe = &p->ev[p->nr_ev++];

		pe->name = name;
		probe_event(pe, p->m);
		p->nr_user += pe->opened && pe->path == SELFMON_PATH_USER;
		opened += pe->opened;
		nosys += !pe->opened && pe->err == ENOSYS;
	}
	/*
	 * qemu-user and seccomp refuse the call itself, for every event that
	 * reaches it; the events a PMU does not offer (no sysfs alias) are
	 * refused before the call, with their own reason.
	 */
	p->no_perf = !opened && nosys > 0;
	return 0;
}

static const char *paranoid_meaning(long v)
{
	switch (v) {
	case -1:
		return "no restrictions";
	case 0:
		return "users may count CPU-wide, not raw tracepoints";
	case 1:
		return "users may count their own processes, user and kernel";
	case 2:
		return "users may count their own processes, user space only";
	default:
		return v > 2 ? "only privileged users (Debian): run as root or lower it to 2" : "?";
	}
}

static void print_formats(const struct probe *p, int pmu, int nr, FILE *f, bool json)
{
	struct selfmon_format_info fm;

	for (int i = 0; i < nr; i++) {
		if (selfmon_machine__format(p->m, pmu, i, &fm))
			continue;
		if (json) {
			fprintf(f, "%s", i ? ", " : "");
			util_json_string(f, fm.name);
			fprintf(f, ": {\"field\": \"%s\", \"mask\": \"0x%llx\"}", fm.field,
				(unsigned long long)fm.mask);
		} else {
			fprintf(f, " %s=%s/0x%llx", cli_text(fm.name), fm.field,
				(unsigned long long)fm.mask);
		}
	}
}

/* The gates that stand between this process and a user-space read, with fixes. */
static void print_gates_text(const struct probe *p)
{
	struct selfmon_pmu_info pmu;

	printf("gates:\n");
	if (p->has_paranoid)
		printf("  kernel.perf_event_paranoid = %ld (%s)\n", p->paranoid,
		       paranoid_meaning(p->paranoid));
	else
		printf("  kernel.perf_event_paranoid: absent: no /proc/sys/kernel/perf_event_paranoid "
		       "(a kernel without perf events, or no /proc)\n");
	printf("  privileges: %s\n",
	       p->cap_eff & (1ull << 38) ? "CAP_PERFMON" :
	       p->cap_eff & (1ull << 21) ? "CAP_SYS_ADMIN" :
					   "none (the paranoid level applies)");
#ifdef CONFIG_ARCH_ARM64
	if (!p->has_user_access)
		printf("  kernel.perf_user_access: absent: %s\n",
		       selfmon_reason__str(SELFMON_REASON_NO_SYSCTL));
	else
		printf("  kernel.perf_user_access = %ld%s\n", p->user_access,
		       p->user_access ? "" : "  -> fix: sysctl -w kernel.perf_user_access=1");
#endif
	for (int i = 0; i < selfmon_machine__nr_pmus(p->m); i++) {
		if (selfmon_machine__pmu(p->m, i, &pmu))
			continue;
		if (pmu.rdpmc >= 0)
			printf("  %s/rdpmc = %d%s\n", cli_text(pmu.name), pmu.rdpmc,
			       pmu.rdpmc ?
				       "" :
				       "  -> fix: echo 1 > /sys/bus/event_source/devices/cpu/rdpmc");
	}
	if (selfmon_machine__default_pmu(p->m) < 0)
		printf("  hardware PMU: none: no CPU PMU in /sys/bus/event_source/devices "
		       "(a VM without a virtual PMU?). Only software events can be counted, by read(2).\n");
}

static void print_clusters_text(const struct probe *p)
{
	const char *ranked_by = selfmon_machine__ranked_by(p->m);
	struct selfmon_cluster_info c;
	struct selfmon_pmu_info pmu;

	printf("clusters (%d%s%s):\n", p->nr_clusters, ranked_by ? ", big and little by " : "",
	       ranked_by ? ranked_by : "");
	for (int i = 0; i < p->nr_clusters; i++) {
		if (selfmon_machine__cluster(p->m, i, &c) ||
		    selfmon_machine__pmu(p->m, c.pmu, &pmu))
			continue;
		printf("  %-22s type %-3u cpus %-8s capacity %-5lu%s\n", cli_text(c.name), pmu.type,
		       c.cpus, c.capacity,
		       p->nr_clusters < 2 ? "" :
		       c.big		  ? " big" :
		       c.little		  ? " little" :
					    "");
	}
	printf("pinning: policy '%s' (from %s) ", cli_text(p->policy), p->policy_from);
	if (p->pin_error[0]) {
		printf("does not resolve: %s\n", cli_text(p->pin_error));
	} else if (p->pinned >= 0 && !selfmon_machine__cluster(p->m, p->pinned, &c)) {
		printf("-> %s, CPUs %s%s\n", cli_text(c.name), p->pinned_cpus,
		       p->fixture ? " (as if on CPU 0)" : "");
	} else if (!p->nr_clusters) {
		printf("-> nothing to pin: no CPU PMU here, software events run anywhere\n");
	} else if (p->nr_clusters > 1) {
		printf("-> unpinned: each hardware event is counted on every core PMU and summed, by read(2)\n");
	} else {
		printf("-> unpinned\n");
	}
}

static void print_events_text(const struct probe *p)
{
	printf("events:\n");
	for (int i = 0; i < p->nr_ev; i++) {
		const struct probe_event *pe = &p->ev[i];
		const char *fix;

		if (!pe->opened) {
			printf("  %-17s does not open: %s\n", pe->name, cli_text(pe->error));
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
	printf("verdict: %s\n",
	       p->nr_user  ? "user-space counter reads are available" :
	       p->no_perf ? PROBE_ENOSYS :
			     "no user-space counter reads on this machine: every read takes read(2) (see above)");
}

static void print_text(const struct probe *p)
{
	struct selfmon_pmu_info pmu;

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
		printf("root: '%s' (fixture tree: no events are opened)\n", cli_text(p->root));

	printf("PMUs (%d, %d CPU):\n", selfmon_machine__nr_pmus(p->m),
	       selfmon_machine__nr_core_pmus(p->m));
	for (int i = 0; i < selfmon_machine__nr_pmus(p->m); i++) {
		if (selfmon_machine__pmu(p->m, i, &pmu))
			continue;
		printf("  %-22s type %-3u %-4s cpus %-8s", cli_text(pmu.name), pmu.type,
		       pmu.core ? "cpu" : "", pmu.cpus ? pmu.cpus : "all");
		print_formats(p, i, pmu.nr_formats, stdout, false);
		printf("\n");
	}
	print_clusters_text(p);
	print_gates_text(p);
	if (!p->fixture)
		print_events_text(p);
}

/* A JSON string, or null for NULL: every string goes through the one escaper. */
static void jstr(const char *s)
{
	if (s)
		util_json_string(stdout, s);
	else
		fputs("null", stdout);
}

static void print_json_pmus(const struct probe *p)
{
	struct selfmon_pmu_info pmu;

	printf("  \"pmus\": [");
	for (int i = 0; i < selfmon_machine__nr_pmus(p->m); i++) {
		if (selfmon_machine__pmu(p->m, i, &pmu))
			continue;
		printf("%s\n    {\"name\": ", i ? "," : "");
		jstr(pmu.name);
		printf(", \"type\": %u, \"core\": %s, \"cpus\": ", pmu.type,
		       pmu.core ? "true" : "false");
		jstr(pmu.cpus);
		printf(", \"rdpmc\": ");
		if (pmu.rdpmc < 0)
			printf("null");
		else
			printf("%d", pmu.rdpmc);
		printf(", \"format\": {");
		print_formats(p, i, pmu.nr_formats, stdout, true);
		printf("}}");
	}
	printf("\n  ],\n  \"clusters\": [");
}

static void print_json_clusters(const struct probe *p)
{
	struct selfmon_cluster_info c;
	struct selfmon_pmu_info pmu;

	for (int i = 0; i < p->nr_clusters; i++) {
		if (selfmon_machine__cluster(p->m, i, &c) ||
		    selfmon_machine__pmu(p->m, c.pmu, &pmu))
			continue;
		printf("%s\n    {\"pmu\": ", i ? "," : "");
		jstr(c.name);
		printf(", \"type\": %u, \"cpus\": ", pmu.type);
		jstr(c.cpus);
		printf(", \"capacity\": %lu, \"big\": %s, \"little\": %s}", c.capacity,
		       c.big ? "true" : "false", c.little ? "true" : "false");
	}
	printf("\n  ],\n  \"pinning\": {\"policy\": ");
	jstr(p->policy);
	printf(", \"from\": ");
	jstr(p->policy_from);
	printf(", \"pmu\": ");
	if (p->pinned >= 0 && !selfmon_machine__cluster(p->m, p->pinned, &c)) {
		jstr(c.name);
		printf(", \"cpus\": ");
		jstr(p->pinned_cpus);
	} else {
		printf("null, \"cpus\": null");
	}
	printf(", \"summed\": %s},\n",
	       p->pinned < 0 && !p->pin_error[0] && p->nr_clusters > 1 ? "true" : "false");
}

static void print_json(const struct probe *p)
{
	printf("{\n  \"version\": ");
	jstr(selfmon_version());
	printf(",\n  \"arch\": ");
	jstr(SELFMON_ARCH_NAME);
	printf(",\n  \"kernel\": {\"release\": ");
	jstr(p->uts.release);
	printf(", \"machine\": ");
	jstr(p->uts.machine);
	printf("},\n  \"gates\": {\"perf_event_paranoid\": ");
	if (p->has_paranoid)
		printf("%ld", p->paranoid);
	else
		printf("null");
	printf(", \"perf_user_access\": ");
	if (p->has_user_access)
		printf("%ld", p->user_access);
	else
		printf("null");
	printf(", \"cap_perfmon\": %s, \"cap_sys_admin\": %s},\n",
	       p->cap_eff & (1ull << 38) ? "true" : "false",
	       p->cap_eff & (1ull << 21) ? "true" : "false");
	print_json_pmus(p);
	print_json_clusters(p);
	printf("  \"events\": [");
	for (int i = 0; i < p->nr_ev; i++) {
		const struct probe_event *pe = &p->ev[i];
		const char *fix = pe->opened ? selfmon_reason__fix(pe->reason) : NULL;

		printf("%s\n    {\"name\": ", i ? "," : "");
		jstr(pe->name);
		printf(", \"opens\": %s", pe->opened ? "true" : "false");
		if (!pe->opened) {
			printf(", \"error\": ");
			jstr(pe->error);
			printf("}");
			continue;
		}
		printf(", \"path\": \"%s\", \"reason\": ",
		       pe->path == SELFMON_PATH_USER ? "user" : "read");
		jstr(pe->path == SELFMON_PATH_USER ? "" : selfmon_reason__str(pe->reason));
		printf(", \"fix\": ");
		jstr(fix);
		printf(", \"pmc_width\": %d}", pe->pmc_width);
	}
	printf("\n  ],\n  \"perf_event_open\": %s,\n  \"user_read\": %s\n}\n",
	       p->no_perf ? "false" : "true", p->nr_user ? "true" : "false");
}

int cmd_probe(int argc, char **argv)
{
	struct probe p = { 0 };
	bool json = false;
	char err[128];
	int ret, c;

	optind = 0;
	while ((c = cli_getopt(argc, argv, cli_json_options, false, err, sizeof(err))) != -1) {
		if (c == CLI_OPT_JSON) {
			json = true;
		} else if (c == 'h') {
			printf("usage: selfmon probe [--json]\n"
			       "Exit status: 0 if user-space counter reads work here, 1 if not, 2 on error.\n"
			       "SELFMON_SYSFS_ROOT=<dir> reads sys/ and proc/ from <dir> instead.\n");
			return cli_close_stdout("selfmon probe") ? EXIT_USAGE : 0;
		} else {
			return cli_usage_error("probe", err);
		}
	}
	ret = gather(&p);
	if (ret) {
		fprintf(stderr, "selfmon probe: %s\n", cli_errmsg(ret));
		return EXIT_USAGE;
	}
	if (json)
		print_json(&p);
	else
		print_text(&p);
	ret = p.nr_user ? EXIT_USER_READ : EXIT_NO_USER_READ;
	selfmon_machine__close(p.m);
	return cli_close_stdout("selfmon probe") ? EXIT_USAGE : ret;
}
