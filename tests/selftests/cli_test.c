// SPDX-License-Identifier: MIT
/*
 * The selfmon CLI as a hostile user drives it: untrusted text in
 * JSON and on the terminal, write errors, a missing sysctl, a pinning request
 * that cannot be met, an overlong SELFMON_SYSFS_ROOT. Sysfs trees are built
 * here, in a temporary directory, so that the same test runs on a board.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_check.h"
#include "kselftest_harness.h"

#define QUICK "--filter '^empty$' --repetitions 3 --warmup 0 --iterations 100"

/* Run the CLI with @env (may be ""), stdout and stderr together. */
static char *cli(struct __test_metadata *_metadata, const char *env, const char *args, int *status)
{
	char cmd[12000];
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1", env, selfmon_cli(), args);
	out = run_capture(cmd, status);
	TH_LOG("%.300s: exit status %d", cmd, *status);
	return out;
}

static void put(const char *dir, const char *path, const char *text)
{
	char p[512], cmd[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	if (system(cmd))
		return;
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A machine with one software PMU, one PMU of an odd name, and no perf_event_paranoid. */
static void make_tree(char *dir)
{
	const char *dev = "sys/bus/event_source/devices";
	char p[256];

	put(dir, "sys/bus/event_source/devices/software/type", "1\n");
	snprintf(p, sizeof(p), "%s/we\"ird\\pmu/type", dev);
	put(dir, p, "42\n");
	snprintf(p, sizeof(p), "%s/we\"ird\\pmu/format/ev\"nt", dev);
	put(dir, p, "config:0-7\n");
	put(dir, "sys/devices/system/cpu/online", "0-1\n");
	put(dir, "proc/sys/kernel/.keep", "");
}

TEST(probe_shows_a_missing_paranoid_file_as_absent_never_as_minus_one)
{
	char dir[] = "/tmp/selfmon-cli-XXXXXX", env[128];
	struct util_json root;
	char err[160];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_NE(NULL, mkdtemp(dir));
	make_tree(dir);
	snprintf(env, sizeof(env), "SELFMON_SYSFS_ROOT=%s", dir);
	out = cli(_metadata, env, "probe", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strstr(out, "-1 (no restrictions)")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "perf_event_paranoid: absent")) TH_LOG("%s", out);
	/* The root came from the environment: quoted, as untrusted text is. */
	snprintf(err, sizeof(err), "root: '%s' (fixture tree", dir);
	EXPECT_NE(NULL, strstr(out, err)) TH_LOG("'%s' not in: %s", err, out);
	free(out);
	out = cli(_metadata, env, "probe --json", &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %s", err, out);
	ASSERT_NE(NULL, util_json_get(&root, "gates"));
	ASSERT_NE(NULL, util_json_get(util_json_get(&root, "gates"), "perf_event_paranoid"));
	EXPECT_EQ(UTIL_JSON_NULL, util_json_get(util_json_get(&root, "gates"), "perf_event_paranoid")->type);
	util_json_free(&root);
	free(out);
	snprintf(env, sizeof(env), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(env));
}

TEST(probe_json_escapes_every_string_it_prints)
{
	char dir[] = "/tmp/selfmon-cli-XXXXXX", env[256];
	const struct util_json *pmus, *pin;
	struct util_json root;
	char err[160];
	int status = -1, found = 0;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_NE(NULL, mkdtemp(dir));
	make_tree(dir);
	/* A quote, a backslash and a tab in the pinning policy; the PMU and format names hold " and \. */
	snprintf(env, sizeof(env), "SELFMON_SYSFS_ROOT=%s SELFMON_PIN=\"$(printf 'a\\042b\\134c\\011d')\"", dir);
	out = cli(_metadata, env, "probe --json", &status);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, json_parse(out, &root, err, sizeof(err))) TH_LOG("%s: %s", err, out);
	pin = util_json_get(&root, "pinning");
	ASSERT_NE(NULL, pin);
	EXPECT_STREQ("a\"b\\c\td", util_json_str(pin, "policy"));
	pmus = util_json_get(&root, "pmus");
	ASSERT_NE(NULL, pmus);
	for (int i = 0; i < pmus->nr; i++) {
		const char *name = util_json_str(&pmus->kid[i], "name");

		if (name && !strcmp(name, "we\"ird\\pmu")) {
			found = 1;
			EXPECT_NE(NULL, util_json_get(util_json_get(&pmus->kid[i], "format"), "ev\"nt"));
		}
	}
	EXPECT_TRUE(found) TH_LOG("the PMU we\"ird\\pmu is not in: %s", out);
	util_json_free(&root);
	free(out);
	snprintf(env, sizeof(env), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(env));
}

TEST(control_characters_from_the_command_line_never_reach_the_terminal_raw)
{
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = cli(_metadata, "", "bench --events \"$(printf 'task-clock\\033[2J')\" " QUICK, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	EXPECT_EQ(NULL, strchr(out, '\033')) TH_LOG("ESC reached the terminal");
	EXPECT_NE(NULL, strstr(out, "task-clock\\x1b[2J")) TH_LOG("%s", out);
	free(out);
	out = cli(_metadata, "", "bench --filter \"$(printf '\\033[2J(')\" --list", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strchr(out, '\033')) TH_LOG("ESC reached the terminal");
	free(out);
}

TEST(write_errors_fail_with_a_message)
{
	static const char *const args[] = {
		"bench --out /dev/full " QUICK,
		"bench --format csv " QUICK " >/dev/full",
		"bench --format json " QUICK " >/dev/full",
		"bench " QUICK " >/dev/full",
		"bench --list >/dev/full",
		"probe >/dev/full",
		"probe --json >/dev/full",
		"record --filter '^empty$' --repetitions 1 --output /dev/null >/dev/full",
	};
	char cmd[512];
	int status;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	if (access("/dev/full", W_OK))
		SKIP(return, "no /dev/full here");
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		/* The exit status printed after stderr; stdout goes to the full device. */
		snprintf(cmd, sizeof(cmd), "sh -c '%s %s; echo \"exit $?\"' 2>&1", selfmon_cli(), args[i]);
		out = run_capture(cmd, &status);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(NULL, strstr(out, "exit 0")) TH_LOG("%s: %s", args[i], out);
		EXPECT_NE(NULL, strstr(out, "cannot write")) TH_LOG("%s: %s", args[i], out);
		free(out);
	}
}

TEST(a_pinning_request_that_cannot_be_met_is_an_error)
{
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	out = cli(_metadata, "", "bench --cluster nosuch " QUICK, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	EXPECT_NE(NULL, strstr(out, "--cluster 'nosuch' cannot be met")) TH_LOG("%s", out);
	free(out);
	out = cli(_metadata, "", "bench --cpu 4095 " QUICK, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	EXPECT_NE(NULL, strstr(out, "--cpu '4095': not a CPU")) TH_LOG("%s", out);
	free(out);
}

TEST(an_overlong_sysfs_root_gives_a_message_never_an_empty_line)
{
	static const char *const args[] = { "probe", "bench --cluster big " QUICK };
	char env[10100];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	memcpy(env, "SELFMON_SYSFS_ROOT=", 19);
	memset(env + 19, 'x', 10000);
	env[10019] = '\0';
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		out = cli(_metadata, env, args[i], &status);
		ASSERT_NE(NULL, out);
		EXPECT_NE(0, status);
		/* "selfmon probe: " then the cause, never the prefix alone. */
		EXPECT_EQ(NULL, strstr(out, ": \n")) TH_LOG("%s", out);
		EXPECT_TRUE(strlen(out) > 40) TH_LOG("%s", out);
		free(out);
	}
}

/* The last line of @text (without its newline), in @line. */
static void last_line(const char *text, char *line, size_t n)
{
	size_t len = strlen(text);
	const char *p;

	while (len && text[len - 1] == '\n')
		len--;
	for (p = text + len; p > text && p[-1] != '\n'; p--)
		;
	snprintf(line, n, "%.*s", (int)(text + len - p), p);
}

TEST(record_samples_a_kernel_and_ends_with_one_line_of_samples_lost_and_throttled)
{
	char dir[] = "/tmp/selfmon-rec-XXXXXX", cmd[1024], last[256], top[128] = "";
	unsigned long long samples = 0;
	const char *row;
	struct stat st;
	regex_t re;
	int status = -1, cat_status;
	char *out, *err;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "%s record --filter '^add_chain$' --repetitions 3 --output %s/perf.data "
		 "2>%s/stderr", selfmon_cli(), dir, dir);
	out = run_capture(cmd, &status);
	ASSERT_NE(NULL, out);
	snprintf(cmd, sizeof(cmd), "cat %s/stderr", dir);
	err = run_capture(cmd, &cat_status);
	TH_LOG("stdout:\n%s\nstderr:\n%s", out, err ? err : "");
	EXPECT_EQ(0, status);
	snprintf(cmd, sizeof(cmd), "%s/perf.data", dir);
	ASSERT_EQ(0, stat(cmd, &st));
	EXPECT_LT(104, st.st_size);
	last_line(out, last, sizeof(last));
	ASSERT_EQ(0, regcomp(&re, "^[0-9]+ samples, [0-9]+ lost, [0-9]+ throttled$", REG_EXTENDED | REG_NOSUB));
	EXPECT_EQ(0, regexec(&re, last, 0, NULL, 0)) TH_LOG("last line '%s'", last);
	regfree(&re);
	ASSERT_EQ(1, sscanf(last, "%llu samples", &samples));
	EXPECT_LT(0, samples);
	/* The kernel's own function leads the summary. */
	row = strstr(out, "function");
	ASSERT_NE(NULL, row);
	row = strchr(row, '\n');
	ASSERT_NE(NULL, row);
	ASSERT_EQ(1, sscanf(row, "%*u %*f%% %127s", top));
	EXPECT_STREQ("selfmon_arch_kernel__add_chain", top);
	/* No PMU: cpu-clock, said on stderr. */
	if (err && strstr(err, "no hardware PMU"))
		EXPECT_NE(NULL, strstr(err, "sampling cpu-clock:u"));
	free(err);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST(record_rejects_bad_options_with_a_message_quoting_them)
{
	static const char *const cases[][2] = {
		{ "record --period 0", "--period '0': a number" },
		{ "record --period 12x", "--period '12x': a number" },
		{ "record --period -5", "--period '-5': a number" },
		{ "record --freq 0", "--freq '0': a number of Hz" },
		{ "record --freq 99999999", "--freq '99999999'" },
		{ "record --period 10 --freq 10", "--period and --freq both" },
		{ "record --repetitions 0", "--repetitions '0'" },
		{ "record --bogus", "unknown option '--bogus'" },
		{ "record stray", "unexpected argument 'stray'" },
		{ "record --events", "--events needs a value" },
		{ "record --output=", "--output: empty value" },
		{ "record --dump-samples=1", "--dump-samples takes no value" },
		{ "record --filter '('", "--filter '('" },
		{ "record --filter '^nosuch$'", "--filter '^nosuch$' matches no kernel" },
		{ "record --events nosuch:u --filter '^empty$'", "--events: unknown event 'nosuch'" },
		{ "record --filter '^empty$' --output /nonexistent-dir/p.data",
		  "--output: perf.data '/nonexistent-dir/p.data'" },
	};
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out = cli(_metadata, "", cases[i][0], &status);
		ASSERT_NE(NULL, out);
		EXPECT_NE(0, status) TH_LOG("%s", cases[i][0]);
		EXPECT_NE(NULL, strstr(out, cases[i][1])) TH_LOG("%s: '%s' not in: %s", cases[i][0],
								   cases[i][1], out);
		free(out);
	}
}

TEST(every_command_names_a_bad_option_and_its_help_and_exits_2)
{
	static const char *const cases[][2] = {
		{ "probe --bogus", "selfmon probe: unknown option '--bogus'" },
		{ "probe --json=yes", "selfmon probe: --json takes no value" },
		{ "probe -- stray", "selfmon probe: unexpected argument 'stray'" },
		{ "list --bogus=1", "selfmon list: unknown option '--bogus'" },
		{ "list stray", "selfmon list: unexpected argument 'stray'" },
		{ "bench --warmup", "selfmon bench: --warmup needs a value" },
		{ "record --freq=", "selfmon record: --freq '': a number" },
		{ "compare --limit", "selfmon compare: --limit needs a value" },
		{ "compare --nosuch a b", "selfmon compare: unknown option '--nosuch'" },
	};
	int status = -1;
	char *out, *cmd, help[64];

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		out = cli(_metadata, "", cases[i][0], &status);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(2, WEXITSTATUS(status)) TH_LOG("%s", cases[i][0]);
		EXPECT_NE(NULL, strstr(out, cases[i][1])) TH_LOG("%s: '%s' not in: %s", cases[i][0],
								   cases[i][1], out);
		/* The fix: where the command's options are listed. */
		cmd = strchr(cases[i][1], ' ') + 1;
		snprintf(help, sizeof(help), "'selfmon %.*s --help'", (int)strcspn(cmd, ":"), cmd);
		EXPECT_NE(NULL, strstr(out, help)) TH_LOG("%s: no %s in: %s", cases[i][0], help, out);
		free(out);
	}
}

TEST(the_json_flag_of_probe_and_list_takes_the_same_spelling_before_and_after_double_dash)
{
	int status = -1;
	char *out;
	int plain_status = -1;
	char *plain;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	/* "--json --" is "--json": the same status and output (a build without tables says so in both). */
	plain = cli(_metadata, "", "list --json", &plain_status);
	out = cli(_metadata, "", "list --json --", &status);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, plain);
	EXPECT_EQ(WEXITSTATUS(plain_status), WEXITSTATUS(status));
	EXPECT_STREQ(plain, out);
	EXPECT_NE(NULL, strchr(out, '{')) TH_LOG("%.200s", out);
	free(plain);
	free(out);
	out = cli(_metadata, "", "list -- --json", &status);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(2, WEXITSTATUS(status));
	EXPECT_NE(NULL, strstr(out, "unexpected argument '--json'"));
	free(out);
}

TEST(a_bench_filter_that_matches_no_benchmark_is_bad_input_naming_it)
{
	static const char *const args[] = {
		"bench --filter '^nosuch$' --repetitions 3 --warmup 0 --iterations 100",
		"bench --filter '^nosuch$' --list",
		"bench --filter '^nosuch$' --out /dev/null",
	};
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		out = cli(_metadata, "", args[i], &status);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(2, WEXITSTATUS(status)) TH_LOG("%s", args[i]);
		EXPECT_NE(NULL, strstr(out, "--filter '^nosuch$' matches no benchmark"))
		TH_LOG("%s: %s", args[i], out);
		EXPECT_NE(NULL, strstr(out, "'selfmon bench --list'")) TH_LOG("%s: %s", args[i], out);
		free(out);
	}
}

TEST(out_paths_are_quoted_in_messages)
{
	char dir[] = "/tmp/selfmon-out-XXXXXX", args[512];
	int status = -1;
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(args, sizeof(args), "bench --format json --out %s/r.json " QUICK, dir);
	out = cli(_metadata, "", args, &status);
	free(out);
	ASSERT_EQ(0, status);
	snprintf(args, sizeof(args),
		 "compare %s/r.json %s/r.json --out '%s/no such dir/c.txt'", dir, dir, dir);
	out = cli(_metadata, "", args, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	snprintf(args, sizeof(args), "--out '%s/no such dir/c.txt': ", dir);
	EXPECT_NE(NULL, strstr(out, args)) TH_LOG("'%s' not in: %s", args, out);
	free(out);
	if (!access("/dev/full", W_OK)) {
		snprintf(args, sizeof(args), "compare %s/r.json %s/r.json --out /dev/full", dir, dir);
		out = cli(_metadata, "", args, &status);
		ASSERT_NE(NULL, out);
		EXPECT_NE(0, status);
		EXPECT_NE(NULL, strstr(out, "cannot write '/dev/full': ")) TH_LOG("%s", out);
		free(out);
	}
	snprintf(args, sizeof(args), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(args));
}

TEST_HARNESS_MAIN
