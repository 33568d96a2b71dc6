// SPDX-License-Identifier: MIT
/*
 * selfmon list: the named events and metrics of this machine's cores, one
 * block per cluster (each its own core's tables), as perf list shows them;
 * --json for programs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/machine.h>
#include <selfmon/metric.h>
#include <selfmon/selfmon.h>
#include "../util/text.h"
#include "cli.h"

struct cluster {
	int cpu; /* its first CPU */
	const char *cpus, *pmu;
	const char *cannot; /* why its events cannot be opened here; NULL: they can */
};

/* What this machine can open, for the head of the list. */
struct opens {
	const char *cannot; /* why no hardware event opens here; NULL: they do */
	char why[400];
	char bare[256]; /* online CPUs in no core PMU's cluster ("4-7"); "" none */
};

static void json_field(FILE *f, const char *key, const char *val, int comma)
{
	fprintf(f, "%s", comma ? ", " : "");
	util_json_string(f, key);
	fputs(": ", f);
	util_json_string(f, val);
}

static void entry_json(FILE *f, const struct selfmon_pmu_event_info *in, int first)
{
	fprintf(f, "%s\n        {", first ? "" : ",");
	json_field(f, "name", in->name, 0);
	if (in->encoding)
		json_field(f, "encoding", in->encoding, 1);
	if (in->expr) {
		json_field(f, "expr", in->expr, 1);
		json_field(f, "groups", in->groups, 1);
		json_field(f, "unit", in->unit, 1);
	}
	if (*in->pmu)
		json_field(f, "pmu", in->pmu, 1);
	json_field(f, "desc", in->desc, 1);
	fputs("}", f);
}

static void entry_text(const struct selfmon_pmu_event_info *in)
{
	if (in->expr)
		printf("  %-36s [%s]%s%s\n      = %s\n", cli_text(in->name),
		       *in->groups ? cli_text(in->groups) : "-", *in->desc ? "  " : "",
		       cli_text(in->desc), cli_text(in->expr));
	else
		printf("  %-36s [%s%s%s]%s%s\n", cli_text(in->name),
		       *in->pmu ? cli_text(in->pmu) : "", *in->pmu ? "/" : "",
		       cli_text(in->encoding), *in->desc ? "  " : "", cli_text(in->desc));
}

/* Adds CPU @cpu to the list @out, runs as "a-b"; @last: the CPU added before (-2: none). */
static void add_cpu(char *out, size_t size, int cpu, int *last)
{
	size_t len = strlen(out);

	if (*last == cpu - 1) {
		char *dash = strrchr(out, ',') ? strrchr(out, ',') + 1 : out;

		dash = strchr(dash, '-') ? strchr(dash, '-') : out + len;
		snprintf(dash, size - (size_t)(dash - out), "-%d", cpu);
	} else {
		snprintf(out + len, size - len, "%s%d", len ? "," : "", cpu);
	}
	*last = cpu;
}

/*
 * The online CPUs (the root's /sys/devices/system/cpu/online) that no core
 * PMU counts on: a core type whose PMU driver did not probe (a big.LITTLE
 * device tree that describes one cluster's PMU only).
 */
static void cpus_without_pmu(const struct selfmon_machine *m, char *out, size_t size)
{
	char path[4096], line[512], *p;
	int a, b, last = -2;
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", selfmon_machine__root(m));
	f = fopen(path, "re");
	if (!f)
		return;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	while (p && *p && *p != '\n') {
		int n = 0;

		if (sscanf(p, "%d%n", &a, &n) != 1)
			break;
		p += n;
		b = a;
		if (*p == '-' && sscanf(p + 1, "%d%n", &b, &n) == 1)
			p += 1 + n;
		for (int cpu = a; cpu <= b && cpu < 4096; cpu++)
			if (selfmon_machine__cluster_of_cpu(m, cpu) == -ENOENT)
				add_cpu(out, size, cpu, &last);
		p += *p == ',';
	}
}

/*
 * Whether a hardware event opens here: none without a core PMU; else
 * instructions:u, opened unpinned, says (perf_event_paranoid, a missing
 * capability, a PMU that refuses).
 */
static void what_opens(const struct selfmon_machine *m, struct opens *o)
{
	struct selfmon_opts opts = { .sz = sizeof(opts), .pin = "none", .machine = m };
	struct selfmon_set *set;

	o->cannot = NULL;
	o->bare[0] = '\0';
	if (selfmon_machine__nr_clusters(m))
		cpus_without_pmu(m, o->bare, sizeof(o->bare));
	if (selfmon_machine__default_pmu(m) < 0) {
		o->cannot = "no PMU driver";
		snprintf(o->why, sizeof(o->why),
			 "no core PMU in /sys/bus/event_source/devices (a VM without a virtual PMU?): "
			 "only software events (task-clock, page-faults) count; run on hardware, "
			 "or give the VM a PMU");
		return;
	}
	set = selfmon_set__open("instructions:u", &opts);
	if (set) {
		selfmon_set__close(set);
		return;
	}
	o->cannot = "instructions:u does not open";
	snprintf(o->why, sizeof(o->why), "%s (selfmon probe says more)", cli_errmsg(-errno));
}

/* The head: what this machine cannot open, and why (nothing when everything opens). */
static void head(const struct opens *o, int json)
{
	if (json) {
		fprintf(stdout, "\"opens\": {\"hardware\": %s", o->cannot ? "false" : "true");
		if (o->cannot)
			json_field(stdout, "why", o->why, 1);
		if (*o->bare)
			json_field(stdout, "cpus_without_pmu", o->bare, 1);
		fputs("}, ", stdout);
		return;
	}
	if (o->cannot)
		printf("This machine cannot open hardware events (%s): %s\n"
		       "The events and metrics below are its core's, listed for reference.\n\n",
		       o->cannot, o->why);
	if (*o->bare)
		printf("CPUs %s have no PMU driver (a core type whose PMU the kernel did not probe): "
		       "nothing counts there; pin to the clusters below (--cluster, SELFMON_PIN)\n\n",
		       o->bare);
}

/*
 * A core the tables lack (@core: the common set that serves it), or one
 * that cannot be told (@core NULL: its part id cannot be read, or no common
 * set): which, by its part id, then the kernel's generic events, which
 * count on any core with a PMU driver (perf_event_open(2),
 * PERF_TYPE_HARDWARE and PERF_TYPE_SOFTWARE) whatever the tables know.
 */
static void fallback_head(const struct cluster *c, const char *core, int json)
{
	char part[96], why[200];
	int err = selfmon_pmu_events__part(c->cpu, part, sizeof(part));
	const char *ev;

	if (err)
		snprintf(why, sizeof(why), "its part id, %s, cannot be read: %s",
#if defined(__aarch64__)
			 "MIDR_EL1 from /sys/devices/system/cpu/cpuN/regs/identification/midr_el1",
#else
			 "CPUID from /proc/cpuinfo",
#endif
			 strerror(-err));
	if (json) {
		json_field(stdout, err ? "part_error" : "part", err ? why : part, 1);
		fputs(", \"generic_events\": [", stdout);
		for (int i = 0; (ev = selfmon_events__standard(i)); i++) {
			fputs(i ? ", " : "", stdout);
			util_json_string(stdout, ev);
		}
		fputs("]", stdout);
		return;
	}
	if (err)
		printf(" (%s)", why);
	else
		printf(" -- this core (%s) is not in the pmu-events tables", cli_text(part));
	printf(core ? ": the generic events and metrics below still work\n" :
		      ": the kernel's generic events below still count; the tables' metrics need "
		      "a core they know\n");
	printf(" generic events");
	if (c->cannot)
		printf(" (cannot be opened here: %s)", c->cannot);
	printf(":\n ");
	for (int i = 0; (ev = selfmon_events__standard(i)); i++)
		printf(" %s", ev);
	putchar('\n');
}

/* One cluster: its core, then its events, then its metrics. */
static int list_cluster(const struct cluster *c, int json, int first)
{
	struct selfmon_pmu_event_info in;
	int fallback = 0, err, kind = -1, n;
	const char *core = selfmon_pmu_events__core(c->cpu, &fallback);

	if (!core && errno == EOPNOTSUPP)
		return -errno; /* built without tables */
	if (json) {
		fprintf(stdout, "%s\n    {", first ? "" : ",");
		json_field(stdout, "cpus", c->cpus, 0);
		json_field(stdout, "pmu", c->pmu, 1);
		json_field(stdout, "core", core ? core : "", 1);
		fprintf(stdout, ", \"fallback\": %s", fallback || !core ? "true" : "false");
	} else {
		printf("%sCPUs %s (%s): %s", first ? "" : "\n", cli_text(c->cpus), cli_text(c->pmu),
		       core ? core : "unknown core");
	}
	if (fallback || !core)
		fallback_head(c, core, json);
	else if (!json)
		putchar('\n');
	if (!core) {
		if (json)
			fputs("}", stdout);
		return 0;
	}
	for (n = 0; !(err = selfmon_pmu_events__get(c->cpu, n, &in)); n++) {
		int metric = in.expr != NULL;

		/* x86 hybrid tables name each entry's core type: the cluster's only. */
		if (*in.pmu && strcmp(in.pmu, c->pmu))
			continue;
		if (metric != kind) {
			if (json)
				fprintf(stdout, "%s\"%s\": [", kind < 0 ? ", " : "\n      ], ",
					metric ? "metrics" : "events");
			else if (c->cannot)
				printf("%s (cannot be opened here: %s):\n",
				       metric ? " metrics" : " events", c->cannot);
			else
				printf("%s:\n", metric ? " metrics" : " events");
			first = 1;
			kind = metric;
		}
		if (json)
			entry_json(stdout, &in, first);
		else
			entry_text(&in);
		first = 0;
	}
	if (json)
		fputs(kind < 0 ? "}" : "\n      ]}", stdout);
	return err == -ENOENT ? 0 : err;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: selfmon list [--json]\n"
		"The events and metrics of this machine's cores, from the kernel's pmu-events tables built in:\n"
		"one block per cluster (a big.LITTLE machine has one per core type). Event names count where\n"
		"selfmon takes events (--events, SELFMON_EVENTS); metric and group names in bench --metrics.\n");
}

int cmd_list(int argc, char **argv)
{
	struct selfmon_machine *m;
	struct selfmon_cluster_info info;
	struct cluster c = { 0, "0", "-", NULL };
	struct opens o;
	int json = 0, err = 0, nr, opt;
	char msg[128];

	optind = 0;
	while ((opt = cli_getopt(argc, argv, cli_json_options, false, msg, sizeof(msg))) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 0;
		}
		if (opt != CLI_OPT_JSON)
			return cli_usage_error("list", msg);
		json = 1;
	}
	m = selfmon_machine__open(NULL);
	if (!m) {
		fprintf(stderr, "selfmon list: %s\n", cli_errmsg(-errno));
		return 1;
	}
	nr = selfmon_machine__nr_clusters(m);
	what_opens(m, &o);
	c.cannot = o.cannot;
	if (json)
		fputs("{", stdout);
	head(&o, json);
	if (json)
		fputs("\"clusters\": [", stdout);
	/* No core PMU (a VM): the tables of CPU 0's core, which nothing here can count. */
	for (int i = 0; !err && i < (nr ? nr : 1); i++) {
		if (nr && !selfmon_machine__cluster(m, i, &info)) {
			c.cpus = info.cpus;
			c.pmu = info.name;
			c.cpu = atoi(info.cpus);
		}
		err = list_cluster(&c, json, i == 0);
	}
	if (json)
		fputs("\n]}\n", stdout);
	selfmon_machine__close(m);
	if (err)
		fprintf(stderr, "selfmon list: %s\n", cli_errmsg(err));
	return err ? 1 : 0;
}
