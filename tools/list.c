// SPDX-License-Identifier: MIT
/*
 * selfmon list: the named events and metrics of this machine's cores, one
 * block per cluster (each its own core's tables), as perf list shows them;
 * --json for programs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/machine.h>
#include <selfmon/metric.h>
#include <selfmon/selfmon.h>
#include "cli.h"

struct cluster {
	int cpu; /* its first CPU */
	const char *cpus, *pmu;
};

static void json_field(FILE *f, const char *key, const char *val, int comma)
{
	fprintf(f, "%s", comma ? ", " : "");
	cli_json_string(f, key);
	fputs(": ", f);
	cli_json_string(f, val);
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

/* One cluster: its core, then its events, then its metrics. */
static int list_cluster(const struct cluster *c, int json, int first)
{
	struct selfmon_pmu_event_info in;
	int fallback = 0, err, kind = -1, n;
	const char *core = selfmon_pmu_events__core(c->cpu, &fallback);

	if (!core)
		return -errno;
	if (json) {
		fprintf(stdout, "%s\n    {", first ? "" : ",");
		json_field(stdout, "cpus", c->cpus, 0);
		json_field(stdout, "pmu", c->pmu, 1);
		json_field(stdout, "core", core, 1);
		fprintf(stdout, ", \"fallback\": %s", fallback ? "true" : "false");
	} else {
		printf("%sCPUs %s (%s): %s%s\n", first ? "" : "\n", cli_text(c->cpus),
		       cli_text(c->pmu), core,
		       fallback ?
			       " -- no pmu-events rule for this core: the architecture's common set" :
			       "");
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
	struct cluster c = { 0, "0", "-" };
	int json = 0, err = 0, nr;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--json")) {
			fprintf(stderr, "selfmon list: unknown option '%s' (try --help)\n",
				cli_text(argv[i]));
			return EXIT_USAGE;
		}
		json = 1;
	}
	m = selfmon_machine__open(NULL);
	if (!m) {
		fprintf(stderr, "selfmon list: %s\n", cli_errmsg(-errno));
		return 1;
	}
	nr = selfmon_machine__nr_clusters(m);
	if (json)
		fputs("{\"clusters\": [", stdout);
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
