// SPDX-License-Identifier: MIT
/*
 * selfmon list and --metrics as a user meets them: the JSON of `selfmon list
 * --json` parses and names, per cluster, the core whose tables serve it,
 * events with encodings and metrics with formulas; the text form names the
 * same core; an unknown metric is refused with an error that names the
 * closest ones. On a build without tables (CONFIG_PMU_EVENTS_NONE) list
 * says so and fails. Runs on the host and on the board.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_check.h"
#include "kselftest_harness.h"

static char *run(struct __test_metadata *_metadata, const char *args, int *status)
{
	char cmd[1200];
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", selfmon_cli(), args);
	out = run_capture(cmd, status);
	TH_LOG("%s: exit status %d", cmd, *status);
	return out;
}

FIXTURE(list) {
	struct jval root;
	char *out;
	const struct jval *first;	/* the first cluster */
	int skip;			/* set up to skip: each test skips too */
};

#define SKIP_IF_SETUP_SKIPPED() \
	do { if (self->skip) SKIP(return, "no pmu-events tables, or no CLI"); } while (0)

FIXTURE_SETUP(list)
{
	char err[160];
	int status = -1;

	(void)json_bench;
	memset(&self->root, 0, sizeof(self->root));
	self->out = NULL;
	self->skip = 1;
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	self->out = run(_metadata, "list --json", &status);
	ASSERT_NE(NULL, self->out);
	if (status && strstr(self->out, "CONFIG_PMU_EVENTS_NONE"))
		SKIP(return, "built without pmu-events tables: %.200s", self->out);
	self->skip = 0;
	ASSERT_EQ(0, status) TH_LOG("%.400s", self->out);
	ASSERT_EQ(0, json_parse(self->out, &self->root, err, sizeof(err))) TH_LOG("%s: %.300s", err, self->out);
	ASSERT_NE(NULL, json_get(&self->root, "clusters"));
	ASSERT_LT(0, json_get(&self->root, "clusters")->n);
	self->first = &json_get(&self->root, "clusters")->kids[0];
}

FIXTURE_TEARDOWN(list)
{
	json_free(&self->root);
	free(self->out);
}

TEST_F(list, json_names_each_clusters_core_with_its_events_and_metrics)
{
	const struct jval *cl = json_get(&self->root, "clusters");

	SKIP_IF_SETUP_SKIPPED();

	for (int c = 0; c < cl->n; c++) {
		const struct jval *k = &cl->kids[c], *ev = json_get(k, "events"), *m = json_get(k, "metrics");

		ASSERT_NE(NULL, json_str(k, "core"));
		ASSERT_NE(NULL, json_str(k, "cpus"));
		ASSERT_NE(NULL, json_get(k, "fallback"));
		TH_LOG("CPUs %s: %s%s, %d events, %d metrics", json_str(k, "cpus"), json_str(k, "core"),
		       json_get(k, "fallback")->num ? " (common set)" : "", ev ? ev->n : 0, m ? m->n : 0);
		ASSERT_NE(NULL, ev);
		ASSERT_LT(0, ev->n);
		for (int i = 0; i < ev->n; i++) {
			ASSERT_NE(NULL, json_str(&ev->kids[i], "name"));
			ASSERT_NE(NULL, strstr(json_str(&ev->kids[i], "encoding"), "event="));
		}
		for (int i = 0; m && i < m->n; i++) {
			ASSERT_NE(NULL, json_str(&m->kids[i], "name"));
			ASSERT_NE(NULL, json_str(&m->kids[i], "expr"));
		}
	}
}

TEST_F(list, the_text_form_names_the_same_core)
{
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	out = run(_metadata, "list", &status);

	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, status);
	EXPECT_NE(NULL, strstr(out, json_str(self->first, "core"))) TH_LOG("%.300s", out);
	free(out);
}

TEST_F(list, an_unknown_metric_is_refused_naming_the_closest)
{
	const struct jval *m = json_get(self->first, "metrics");
	char args[300], want[200], name[120];
	int status = -1;
	char *out;

	SKIP_IF_SETUP_SKIPPED();
	if (!m || !m->n)
		SKIP(return, "this core's tables have no metric");
	/* A metric's name with its last letter dropped: a typo. */
	snprintf(name, sizeof(name), "%s", json_str(&m->kids[0], "name"));
	name[strlen(name) - 1] = '\0';
	snprintf(args, sizeof(args), "bench --filter '^empty$' --repetitions 3 --metrics '%s'", name);
	out = run(_metadata, args, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	snprintf(want, sizeof(want), "no metric or metric group '%s'", name);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%.400s", out);
	snprintf(want, sizeof(want), "'%s'", json_str(&m->kids[0], "name"));
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("no close match named: %.400s", out);
	free(out);
}

TEST_HARNESS_MAIN
