// SPDX-License-Identifier: MIT
/*
 * Where the markers' report goes: SELFMON_OUTPUT written as
 * <selfmon/outfile.h> writes a file (whole, never through a link), a forked
 * child's report beside its parent's, "%p", and a program that runs with
 * raised rights (setuid), in which no SELFMON_* variable names a file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <selfmon/marker.h>
#include "kselftest_harness.h"
#include "json_check.h"
#include "marker_run.h"

/* A folder of the test's, removed with what it holds at teardown. */
FIXTURE(dir)
{
	char path[64];
};

FIXTURE_SETUP(dir)
{
	snprintf(self->path, sizeof(self->path), "/tmp/selfmon-mkfile-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->path));
}

FIXTURE_TEARDOWN(dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->path);
	EXPECT_EQ(0, system(cmd));
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The names in @dir that begin with @prefix; the last one into @last (NULL: not wanted). */
static int count_names(const char *dir, const char *prefix, char *last, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			n++;
			if (last)
				snprintf(last, size, "%s/%s", dir, e->d_name);
		}
	if (d)
		closedir(d);
	return n;
}

static int scenario_pairs(void)
{
	SELFMON_MARKER_BEGIN("r");
	work(10);
	SELFMON_MARKER_END("r");
	return 4;
}

/* ---- the outfile rule ---- */

TEST_F(dir, the_report_replaces_a_regular_file_whole_and_leaves_no_part_file)
{
	char out[128], big[8192], err[128], *text;
	struct util_json root = { 0 };
	struct run r;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(out, big);
	run_child(scenario_pairs, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	text = slurp(out);
	ASSERT_NE(NULL, text);
	/* Nothing of the longer old file is left after the report. */
	ASSERT_EQ(0, json_parse(text, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1, num(json_bench(&root, "r"), "iterations"));
	EXPECT_EQ(NULL, strstr(text, "xxxx"));
	EXPECT_EQ(0, count_names(self->path, "report.json.part-", NULL, 0));
	util_json_free(&root);
	free(text);
	run_free(&r);
}

/* The report outgrows a file size limit (SIGXFSZ ignored: write(2) says EFBIG). */
static int scenario_too_big(void)
{
	struct rlimit small = { 512, 512 };

	scenario_pairs();
	signal(SIGXFSZ, SIG_IGN);
	return setrlimit(RLIMIT_FSIZE, &small) ? 1 : 4;
}

TEST_F(dir, a_report_that_cannot_be_written_whole_leaves_the_old_file_as_it_was)
{
	char out[128], *text;
	struct run r;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	put(out, "the last whole report\n");
	run_child(scenario_too_big, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	text = slurp(out);
	EXPECT_STREQ("the last whole report\n", text ? text : "(gone)");
	free(text);
	EXPECT_EQ(1, count_lines(r.err, "the report could not be written in full to '")) TH_LOG("%s", r.err);
	EXPECT_EQ(1, count_lines(r.err, "; the file is as it was")) TH_LOG("%s", r.err);
	EXPECT_EQ(0, count_names(self->path, "report.json.part-", NULL, 0));
	run_free(&r);
}

TEST_F(dir, a_symlink_at_selfmon_output_is_not_written_through_and_is_said)
{
	char out[128], other[128], *text;
	struct run r;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	snprintf(other, sizeof(other), "%s/someone-elses-file", self->path);
	put(other, "not yours\n");
	ASSERT_EQ(0, symlink(other, out));
	run_child(scenario_pairs, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	text = slurp(other);
	EXPECT_STREQ("not yours\n", text ? text : "(gone)");
	free(text);
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(1, count_lines(r.err, "is a symbolic link, and markers write no file through a "
					"link. Fix: name the file itself, or remove the link"))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, out));
	/* The report is not lost: it goes to stderr. */
	EXPECT_NE(NULL, strstr(r.err, "region / thread")) TH_LOG("%s", r.err);
	run_free(&r);
}

TEST_F(dir, a_dangling_symlink_at_selfmon_output_never_creates_its_target)
{
	char out[128], target[128];
	struct stat st;
	struct run r;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	snprintf(target, sizeof(target), "%s/planted", self->path);
	ASSERT_EQ(0, symlink(target, out));
	run_child(scenario_pairs, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	EXPECT_EQ(4, WEXITSTATUS(r.status));
	EXPECT_NE(0, lstat(target, &st));
	EXPECT_EQ(0, lstat(out, &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
	EXPECT_EQ(1, count_lines(r.err, "is a symbolic link")) TH_LOG("%s", r.err);
	run_free(&r);
}

/* ---- concurrent writers ---- */

/* Fork, then count: the child "child" 3 times, the parent "parent" 5. */
static int fork_and_count(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		for (int i = 0; i < 3; i++) {
			SELFMON_MARKER_BEGIN("child");
			work(100);
			SELFMON_MARKER_END("child");
		}
		exit(7);
	}
	for (int i = 0; i < 5; i++) {
		SELFMON_MARKER_BEGIN("parent");
		work(100);
		SELFMON_MARKER_END("parent");
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
		return 1;
	return 0;
}

/* Markers on before the fork: the child is told by their atfork handlers. */
static int scenario_fork_both(void)
{
	SELFMON_MARKER_BEGIN("before");
	SELFMON_MARKER_END("before");
	return fork_and_count();
}

TEST_F(dir, a_forked_child_and_its_parent_both_leave_whole_reports)
{
	char out[128], kidpath[160], err[128], *kid, *dot;
	struct util_json root = { 0 }, kroot = { 0 };
	struct run r;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	run_child(scenario_fork_both, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status)) TH_LOG("%s", r.err);
	/* The parent's report at its name; the child's at "<name>.<pid>", said once. */
	r.report = slurp(out);
	ASSERT_NE(NULL, r.report);
	ASSERT_EQ(0, json_parse(r.report, &root, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(5, num(json_bench(&root, "parent"), "iterations"));
	EXPECT_EQ(NULL, json_bench(&root, "child"));
	ASSERT_NE(NULL, r.err);
	EXPECT_EQ(1, count_lines(r.err, "is a fork of one that writes SELFMON_OUTPUT=")) TH_LOG("%s", r.err);
	dot = strstr(r.err, "its report goes to '");
	ASSERT_NE(NULL, dot) TH_LOG("%s", r.err);
	snprintf(kidpath, sizeof(kidpath), "%s", dot + strlen("its report goes to '"));
	ASSERT_NE(NULL, strchr(kidpath, '\''));
	*strchr(kidpath, '\'') = '\0';
	EXPECT_EQ(0, strncmp(kidpath, out, strlen(out)));
	EXPECT_EQ('.', kidpath[strlen(out)]);
	kid = slurp(kidpath);
	ASSERT_NE(NULL, kid) TH_LOG("no report at '%s'", kidpath);
	ASSERT_EQ(0, json_parse(kid, &kroot, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(3, num(json_bench(&kroot, "child"), "iterations"));
	EXPECT_EQ(NULL, json_bench(&kroot, "parent"));
	EXPECT_EQ(0, count_names(self->path, "report.json.part-", NULL, 0));
	util_json_free(&root);
	util_json_free(&kroot);
	free(kid);
	run_free(&r);
}

/* The regions "parent" and "child" of report @path: 1 for each found with its count. */
static int parent_or_child(const char *path)
{
	struct util_json root = { 0 };
	char err[128], *text = slurp(path);
	int found = 0;

	if (text && !json_parse(text, &root, err, sizeof(err)))
		found = (num(json_bench(&root, "parent"), "iterations") == 5) +
			2 * (num(json_bench(&root, "child"), "iterations") == 3);
	util_json_free(&root);
	free(text);
	return found;
}

TEST_F(dir, percent_p_in_selfmon_output_names_each_process_by_its_pid)
{
	char out[128], path[384];
	DIR *d;
	struct dirent *e;
	struct run r;
	int found = 0;

	snprintf(out, sizeof(out), "%s/report-%%p.json", self->path);
	run_child(scenario_fork_both, "task-clock", out, &r);
	ASSERT_TRUE(WIFEXITED(r.status));
	ASSERT_EQ(0, WEXITSTATUS(r.status));
	/* Two files, each whole: one the parent's, one the child's, which says nothing (its name is its own). */
	EXPECT_EQ(2, count_names(self->path, "report-", NULL, 0));
	EXPECT_EQ(0, count_lines(r.err, "is a fork of one")) TH_LOG("%s", r.err);
	d = opendir(self->path);
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "report-", 7))
			continue;
		snprintf(path, sizeof(path), "%s/%s", self->path, e->d_name);
		EXPECT_EQ(0, strcmp(e->d_name + strspn(e->d_name + 7, "0123456789") + 7, ".json"));
		found |= parent_or_child(path);
	}
	if (d)
		closedir(d);
	EXPECT_EQ(3, found);
	run_free(&r);
}

/* ---- a fork before any marker: this program again, SELFMON_OUTPUT from its start ---- */

#define FORK_FIRST "SELFMON_MKFILE_TEST_FORK_FIRST"

/* In the copy run by the test below (its own switch, read with getenv()): fork at once. */
__attribute__((constructor)) static void fork_first_program(void)
{
	if (getenv(FORK_FIRST))
		exit(fork_and_count());
}

TEST_F(dir, a_child_forked_before_any_marker_writes_a_report_of_its_own)
{
	char out[128], kid[384];
	int st = -1;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/report.json", self->path);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv(FORK_FIRST, "1", 1);
		setenv("SELFMON_OUTPUT", out, 1);
		setenv("SELFMON_EVENTS", "task-clock", 1);
		execl("/proc/self/exe", "marker_file_test", (char *)NULL);
		_exit(121);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(0, WEXITSTATUS(st));
	/* The parent's report at its name; the child's at "<name>.<pid>". */
	EXPECT_EQ(1, parent_or_child(out));
	ASSERT_EQ(1, count_names(self->path, "report.json.", kid, sizeof(kid)));
	EXPECT_EQ(2, parent_or_child(kid));
}

/* ---- raised rights: a setuid-root copy of this program, run by nobody ---- */

#define HELPER "SELFMON_MKFILE_TEST_HELPER"

/*
 * In that copy: say whether the kernel marked it secure (AT_SECURE), count a
 * region, and exit, which writes the report. Its own switch is read with
 * getenv(): it is this test's, not the library's.
 */
__attribute__((constructor)) static void setuid_helper(void)
{
	if (!getenv(HELPER))
		return;
	fprintf(stderr, "helper: AT_SECURE=%lu euid=%d\n", getauxval(AT_SECURE), (int)geteuid());
	exit(scenario_pairs());
}

/* @pub: a folder anyone may enter, with the setuid copy; @priv: root's alone, 0700. */
FIXTURE(setuid)
{
	char pub[64], priv[64], helper[96];
};

static int copy_self(const char *to)
{
	char buf[65536];
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t n;

	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		err |= write(out, buf, (size_t)n) != n;
	err |= in < 0 || out < 0 || fchmod(out, 04755);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return err ? -1 : 0;
}

FIXTURE_SETUP(setuid)
{
	self->pub[0] = self->priv[0] = '\0';
	if (getuid() != 0)
		SKIP(return, "not root: cannot make a setuid-root program for another user to run");
	snprintf(self->pub, sizeof(self->pub), "/tmp/selfmon-mksuid-XXXXXX");
	snprintf(self->priv, sizeof(self->priv), "/tmp/selfmon-mkroot-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->pub));
	ASSERT_NE(NULL, mkdtemp(self->priv));
	ASSERT_EQ(0, chmod(self->pub, 0755));
	snprintf(self->helper, sizeof(self->helper), "%s/helper", self->pub);
	ASSERT_EQ(0, copy_self(self->helper));
}

FIXTURE_TEARDOWN(setuid)
{
	char cmd[192];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", self->pub, self->priv);
	if (self->pub[0])
		EXPECT_EQ(0, system(cmd));
}

/*
 * Run the setuid copy as nobody (uid and gid 65534) with SELFMON_OUTPUT=@out
 * and the other variables that name paths or events; its stderr into @err.
 * Return: its wait status, or -1.
 */
static int run_as_nobody(const char *helper, const char *out, char *err, size_t size)
{
	char errp[] = "/tmp/selfmon-mksuid-err-XXXXXX", *text;
	int fd = mkstemp(errp), st = -1;
	pid_t pid;

	if (fd < 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		setenv(HELPER, "1", 1);
		setenv("SELFMON_OUTPUT", out, 1);
		setenv("SELFMON_SYSFS_ROOT", "/nonexistent-sysfs\x1b[31m", 1);
		setenv("SELFMON_EVENTS", "task-clock:k", 1);
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534)) {
			fprintf(stderr, "cannot become uid 65534: %s\n", strerror(errno));
			_exit(120);
		}
		execl(helper, helper, (char *)NULL);
		fprintf(stderr, "uid 65534 cannot run '%s': %s\n", helper, strerror(errno));
		_exit(121);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	close(fd);
	text = slurp(errp);
	unlink(errp);
	snprintf(err, size, "%s", text ? text : "");
	free(text);
	return st;
}

/*
 * Skip where this system cannot run the copy as another user (a root file
 * system that uid 65534 may not enter, as on a board's initramfs), saying
 * why; the host runs it.
 */
#define ASSERT_RAN_AS_NOBODY(status, err)                                                      \
	do {                                                                                   \
		ASSERT_TRUE(WIFEXITED(status)) TH_LOG("%s", err);                              \
		if (WEXITSTATUS(status) == 120 || WEXITSTATUS(status) == 121)                  \
			SKIP(return, "%.200s", err);                                           \
	} while (0)

/* Skip where the kernel did not raise the copy's rights (a nosuid mount, no_new_privs). */
#define ASSERT_SECURE(err)                                                                     \
	do {                                                                                   \
		if (!strstr(err, "helper: AT_SECURE=1 euid=0"))                              \
			SKIP(return, "the setuid copy did not run with raised rights (nosuid "   \
				     "/tmp or no_new_privs?): %.200s", err);                        \
	} while (0)

TEST_F(setuid, a_setuid_program_run_by_another_user_creates_no_file_selfmon_output_names)
{
	char out[128], err[8192];
	struct stat st;
	int status;

	snprintf(out, sizeof(out), "%s/report.json", self->priv);
	status = run_as_nobody(self->helper, out, err, sizeof(err));
	ASSERT_RAN_AS_NOBODY(status, err);
	ASSERT_SECURE(err);
	EXPECT_EQ(4, WEXITSTATUS(status));
	EXPECT_NE(0, lstat(out, &st)) TH_LOG("'%s' was created with root's rights", out);
	EXPECT_EQ(0, count_names(self->priv, "report.json", NULL, 0));
	/* Each variable that names a path or events: ignored, said once, quoted. */
	EXPECT_EQ(1, count_lines(err, "SELFMON_OUTPUT='")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "' ignored: this program runs with raised rights (setuid, setgid or "
				    "file capabilities), which the file would be written with; the "
				    "report goes to stderr"))
		TH_LOG("%s", err);
	EXPECT_EQ(1, count_lines(err, "SELFMON_SYSFS_ROOT='/nonexistent-sysfs\\x1b[31m' ignored"))
		TH_LOG("%s", err);
	EXPECT_EQ(1, count_lines(err, "SELFMON_EVENTS='task-clock:k' ignored")) TH_LOG("%s", err);
	EXPECT_EQ(NULL, strchr(err, '\x1b'));
	/* The report is not lost: the program's own stderr has it. */
	EXPECT_NE(NULL, strstr(err, "region / thread")) TH_LOG("%s", err);
}

TEST_F(setuid, a_setuid_program_run_by_another_user_leaves_a_file_selfmon_output_names_as_it_was)
{
	char out[128], err[8192], *text;
	int status;

	snprintf(out, sizeof(out), "%s/roots-file", self->priv);
	put(out, "root's own\n");
	status = run_as_nobody(self->helper, out, err, sizeof(err));
	ASSERT_RAN_AS_NOBODY(status, err);
	ASSERT_SECURE(err);
	text = slurp(out);
	EXPECT_STREQ("root's own\n", text ? text : "(gone)");
	EXPECT_EQ(0, count_names(self->priv, "roots-file.", NULL, 0));
	free(text);
}

TEST_HARNESS_MAIN
