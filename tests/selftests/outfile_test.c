// SPDX-License-Identifier: MIT
/*
 * The files selfmon writes, as an attacker and an impatient user meet them:
 * perf.data (<selfmon/perfdata.h>, `selfmon record --output`) and `selfmon
 * bench --out` are written whole, beside the old file, and renamed over it at
 * the end (the old perf.data kept as .old, as perf record does); a symbolic
 * link is never written through, nor its missing target created; Ctrl-C,
 * SIGTERM or SIGHUP during `selfmon record` finish the file, which selfmon's
 * parser and, where Debian's perf is installed, `perf script` read whole.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selfmon/outfile.h>
#include <selfmon/perfdata.h>
#include <selfmon/sampler.h>
#include <selfmon/selfmon.h>
#include "json_check.h"
#include "perf_files.h"
#include "kselftest_harness.h"

FIXTURE(dir) {
	char path[64];
};

FIXTURE_SETUP(dir)
{
	snprintf(self->path, sizeof(self->path), "/tmp/selfmon-outfile-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->path));
}

FIXTURE_TEARDOWN(dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->path);
	if (system(cmd))
		TH_LOG("%s failed", cmd);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The first bytes of a file ("" if it cannot be read). */
static const char *head(const char *path)
{
	static char buf[64];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The names in @dir that hold @part (a temporary file left behind). */
static int count_names(const char *dir, const char *part)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strstr(e->d_name, part) != NULL;
	if (d)
		closedir(d);
	return n;
}

static struct selfmon_sampler *open_sampler(void)
{
	struct selfmon_sampler_opts o = {
		.sz = sizeof(o), .period = 100000, .sample_id_all = 1,
		.sideband = SELFMON_SIDEBAND_MMAP2 | SELFMON_SIDEBAND_COMM,
	};

	return selfmon_sampler__open("cpu-clock:u", &o);
}

TEST_F(dir, perf_data_replaces_the_old_file_only_when_finished_and_keeps_it_as_old)
{
	struct selfmon_sampler *s = open_sampler();
	struct selfmon_perfdata *pd;
	char path[128], old[160];

	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	snprintf(path, sizeof(path), "%s/perf.data", self->path);
	snprintf(old, sizeof(old), "%s.old", path);
	put(path, "the old file");
	pd = selfmon_perfdata__open(path, s);
	ASSERT_NE(NULL, pd) TH_LOG("%s", selfmon_errmsg());
	/* While it is written, the old file is whole: a crash now loses nothing. */
	EXPECT_STREQ("the old file", head(path));
	EXPECT_EQ(1, count_names(self->path, "perf.data.part-"));
	ASSERT_EQ(0, selfmon_perfdata__close(pd)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(0, memcmp("PERFILE2", head(path), 8));
	EXPECT_STREQ("the old file", head(old));
	EXPECT_EQ(0, count_names(self->path, ".part-"));
	/* No file to replace: an earlier .old stays as it was. */
	unlink(path);
	put(old, "an earlier old file");
	pd = selfmon_perfdata__open(path, s);
	ASSERT_NE(NULL, pd) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_perfdata__close(pd)) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(0, memcmp("PERFILE2", head(path), 8));
	EXPECT_STREQ("an earlier old file", head(old));
	selfmon_sampler__close(s);
}

TEST_F(dir, perf_data_never_writes_through_a_symbolic_link_nor_creates_its_target)
{
	struct selfmon_sampler *s = open_sampler();
	char victim[128], link[128], dangling[128], missing[128];

	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	snprintf(victim, sizeof(victim), "%s/victim", self->path);
	snprintf(link, sizeof(link), "%s/perf.data", self->path);
	snprintf(dangling, sizeof(dangling), "%s/dangling.data", self->path);
	snprintf(missing, sizeof(missing), "%s/missing", self->path);
	put(victim, "precious");
	ASSERT_EQ(0, symlink(victim, link));
	ASSERT_EQ(0, symlink(missing, dangling));
	EXPECT_EQ(NULL, selfmon_perfdata__open(link, s));
	EXPECT_EQ(ELOOP, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "a symbolic link to a file")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_STREQ("precious", head(victim));
	EXPECT_EQ(NULL, selfmon_perfdata__open(dangling, s));
	EXPECT_EQ(ELOOP, errno);
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "a symbolic link to nothing")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(0, access(missing, F_OK));
	EXPECT_EQ(0, count_names(self->path, ".part-"));
	/* A directory is no file either. */
	EXPECT_EQ(NULL, selfmon_perfdata__open(self->path, s));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "a directory, not a file")) TH_LOG("%s", selfmon_errmsg());
	selfmon_sampler__close(s);
}

TEST_F(dir, perf_data_of_an_attached_sampler_says_it_has_no_events_of_its_own)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_type = PERF_SAMPLE_IP };
	size_t len = 2 * (size_t)sysconf(_SC_PAGESIZE);
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct selfmon_sampler *s;
	char path[128];

	ASSERT_NE(MAP_FAILED, map);
	s = selfmon_sampler__attach(map, len, &attr);
	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	snprintf(path, sizeof(path), "%s/never-written.data", self->path);
	EXPECT_EQ(NULL, selfmon_perfdata__open(path, s));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(NULL, strstr(selfmon_errmsg(), "NULL")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "selfmon_sampler__attach()")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(0, access(path, F_OK));
	selfmon_sampler__close(s);
	munmap(map, len);
	EXPECT_EQ(NULL, selfmon_perfdata__open(NULL, NULL));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "a NULL path")) TH_LOG("%s", selfmon_errmsg());
}

/*
 * A finished perf.data, read with selfmon's parser: the PERFILE2 header, the
 * data section ending where the file ends, every record whole. Return: the
 * number of samples, or -1.
 */
static long check_perf_data(struct __test_metadata *_metadata, const char *path)
{
	struct { char magic[8]; uint64_t size, attr_size, attrs[2], data[2]; } h;
	struct selfmon_record_layout l;
	struct perf_event_attr attr = { 0 };
	long samples = 0;
	size_t len;
	uint8_t *buf = slurp(path, &len);

	if (!buf || len < sizeof(h)) {
		TH_LOG("%s: %zu bytes", path, len);
		free(buf);
		return -1;
	}
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, "PERFILE2", 8) || h.data[0] + h.data[1] != len ||
	    h.attrs[0] + sizeof(attr) > len) {
		TH_LOG("%s: magic '%.8s', data %llu+%llu in %zu bytes", path, h.magic,
		       (unsigned long long)h.data[0], (unsigned long long)h.data[1], len);
		free(buf);
		return -1;
	}
	memcpy(&attr, buf + h.attrs[0], sizeof(attr));
	selfmon_record_layout__from_attr(&l, &attr);
	for (uint64_t off = h.data[0]; off < len;) {
		struct selfmon_record r;

		if (selfmon_record__parse(buf + off, len - off, &l, &r)) {
			TH_LOG("%s: at %llu: %s", path, (unsigned long long)off, selfmon_errmsg());
			samples = -1;
			break;
		}
		samples += r.type == PERF_RECORD_SAMPLE;
		off += r.size;
	}
	free(buf);
	return samples;
}

/* `selfmon record` for a long time, its output in @dir; the pid. */
static pid_t start_record(const char *dir, const char *out)
{
	char log[128];
	pid_t pid;

	snprintf(log, sizeof(log), "%s/record.log", dir);
	pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(fd, 2);
		/* Default dispositions, as from a terminal: not the ignored SIGINT of a background job. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execl(selfmon_cli(), "selfmon", "record", "--filter", "^add_chain$", "--repetitions",
		      "100000", "--events", "cpu-clock:u", "--period", "1000000", "--output", out,
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Wait up to @s seconds; -1 (and the process killed) if it does not end. */
static int wait_for(pid_t pid, int s)
{
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	int status;

	for (int i = 0; i < s * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/*
 * A signal mid-run: record stops sampling, drains, writes the header, puts the
 * file in place, prints its summary, and then dies of that signal.
 */
static void stop_record_with(struct __test_metadata *_metadata, const char *dir, int sig)
{
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	char out[128], old[160], cmd[512], log[128];
	const char *perf = find_perf();
	long samples;
	pid_t pid;
	int status;
	char *text;

	snprintf(out, sizeof(out), "%s/perf-%d.data", dir, sig);
	snprintf(old, sizeof(old), "%s.old", out);
	snprintf(log, sizeof(log), "%s/record.log", dir);
	put(out, "the old file");
	pid = start_record(dir, out);
	ASSERT_LT(0, pid);
	/* Sampling: its file being written. Then a few of its samples. */
	for (int i = 0; i < 1000 && !count_names(dir, ".part-") && !strcmp(head(out), "the old file"); i++)
		nanosleep(&ms, NULL);
	ASSERT_EQ(1, count_names(dir, ".part-")) TH_LOG("record did not start: %s", head(log));
	usleep(300 * 1000);
	ASSERT_EQ(0, kill(pid, sig));
	status = wait_for(pid, 30);
	snprintf(cmd, sizeof(cmd), "cat '%s'", log);
	text = run_capture(cmd, &(int){ 0 });
	TH_LOG("%s: %s", strsignal(sig), text ? text : "");
	ASSERT_NE(-1, status) TH_LOG("record did not stop within 30 s of %s", strsignal(sig));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) TH_LOG("status %#x", status);
	EXPECT_NE(NULL, text && strstr(text, "stopped by") ? text : NULL);
	EXPECT_NE(NULL, text && strstr(text, " samples, ") ? text : NULL);
	free(text);
	samples = check_perf_data(_metadata, out);
	EXPECT_LT(0, samples);
	EXPECT_STREQ("the old file", head(old));
	EXPECT_EQ(0, count_names(dir, ".part-"));
	if (!perf)
		return;
	snprintf(cmd, sizeof(cmd), "%s script -i '%s' -F ip 2>/dev/null | grep -c .", perf, out);
	text = run_capture(cmd, &status);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(samples, strtol(text, NULL, 10)) TH_LOG("%s: %s", cmd, text);
	free(text);
}

/* The emulated board runs the CLI slowly: room for its start, a drain and the summary. */
TEST_F_TIMEOUT(dir, record_stopped_by_ctrl_c_finishes_its_file_then_dies_of_sigint, 120)
{
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	stop_record_with(_metadata, self->path, SIGINT);
}

TEST_F_TIMEOUT(dir, record_stopped_by_sigterm_finishes_its_file_then_dies_of_it, 120)
{
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	stop_record_with(_metadata, self->path, SIGTERM);
}

TEST_F_TIMEOUT(dir, record_stopped_by_sighup_finishes_its_file_then_dies_of_it, 120)
{
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	stop_record_with(_metadata, self->path, SIGHUP);
}

/* `selfmon bench` with @args, stdout and stderr together; its exit status. */
static int bench(const char *args, char **out)
{
	char cmd[1024];
	int status = -1;

	snprintf(cmd, sizeof(cmd), "%s bench --filter '^empty$' --repetitions 3 --warmup 0 "
		 "--iterations 100 --events task-clock %s 2>&1", selfmon_cli(), args);
	*out = run_capture(cmd, &status);
	return status;
}

TEST_F(dir, a_programs_own_file_through_outfile_replaces_the_old_one_only_on_commit)
{
	char file[128], link[128];
	char *tmp;
	int fd;

	snprintf(file, sizeof(file), "%s/own.txt", self->path);
	snprintf(link, sizeof(link), "%s/link.txt", self->path);
	put(file, "old");
	fd = selfmon_outfile__open("report", file, &tmp);
	ASSERT_LE(0, fd) TH_LOG("%s", selfmon_errmsg());
	ASSERT_NE(NULL, tmp);
	ASSERT_EQ(3, write(fd, "new", 3));
	close(fd);
	EXPECT_STREQ("old", head(file));
	ASSERT_EQ(0, selfmon_outfile__commit("report", file, tmp, false));
	EXPECT_STREQ("new", head(file));
	/* A failed run: discarded, the file stays as it was and nothing is left. */
	fd = selfmon_outfile__open("report", file, &tmp);
	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "half", 4));
	close(fd);
	selfmon_outfile__discard(tmp);
	EXPECT_STREQ("new", head(file));
	EXPECT_EQ(0, count_names(self->path, ".part-"));
	/* A link into a file is refused, naming what and where. */
	ASSERT_EQ(0, symlink(file, link));
	EXPECT_EQ(-ELOOP, selfmon_outfile__open("report", link, &tmp));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "report '")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "a symbolic link to a file"));
	EXPECT_STREQ("new", head(file));
}

TEST_F(dir, bench_out_is_written_whole_never_through_a_link_and_a_failed_run_keeps_the_old_file)
{
	char file[128], victim[128], link[128], dangling[128], missing[128], args[512];
	char *out;

	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	snprintf(file, sizeof(file), "%s/out.json", self->path);
	snprintf(victim, sizeof(victim), "%s/victim", self->path);
	snprintf(link, sizeof(link), "%s/link.json", self->path);
	snprintf(dangling, sizeof(dangling), "%s/dangling.json", self->path);
	snprintf(missing, sizeof(missing), "%s/missing", self->path);
	put(file, "the old file");
	/* A run that fails after --out is opened: the old file stays whole. */
	snprintf(args, sizeof(args), "--format json --events nosuch --out '%s'", file);
	EXPECT_NE(0, bench(args, &out)) TH_LOG("%s", out);
	free(out);
	EXPECT_STREQ("the old file", head(file));
	EXPECT_EQ(0, count_names(self->path, ".part-"));
	snprintf(args, sizeof(args), "--format json --out '%s'", file);
	EXPECT_EQ(0, bench(args, &out)) TH_LOG("%s", out);
	free(out);
	EXPECT_EQ('{', head(file)[0]) TH_LOG("'%s'", head(file));
	put(victim, "precious");
	ASSERT_EQ(0, symlink(victim, link));
	ASSERT_EQ(0, symlink(missing, dangling));
	snprintf(args, sizeof(args), "--format json --out '%s'", link);
	EXPECT_NE(0, bench(args, &out));
	EXPECT_NE(NULL, strstr(out, "a symbolic link to a file")) TH_LOG("%s", out);
	free(out);
	EXPECT_STREQ("precious", head(victim));
	snprintf(args, sizeof(args), "--format json --out '%s'", dangling);
	EXPECT_NE(0, bench(args, &out));
	EXPECT_NE(NULL, strstr(out, "a symbolic link to nothing")) TH_LOG("%s", out);
	free(out);
	EXPECT_NE(0, access(missing, F_OK));
	/* A device is written in place, as before. */
	EXPECT_EQ(0, bench("--format json --out /dev/null", &out)) TH_LOG("%s", out);
	free(out);
	EXPECT_EQ(0, count_names(self->path, ".part-"));
}

TEST_F(dir, record_freq_above_the_kernels_limit_names_the_limit_and_its_value_and_the_event_once)
{
	char cmd[512], want[128];
	const char *p;
	long max = 0;
	int status = -1, n = 0;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	char *out;

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 0;
		fclose(f);
	}
	if (!selfmon_cli())
		SKIP(return, "no selfmon CLI next to this test (set SELFMON_BIN)");
	if (max <= 0 || max >= 1000000)
		SKIP(return, "kernel.perf_event_max_sample_rate %ld: no --freq above it", max);
	snprintf(cmd, sizeof(cmd), "%s record --events cpu-clock:u --freq %ld --filter '^empty$' "
		 "--output %s/p.data 2>&1", selfmon_cli(), max + 1, self->path);
	out = run_capture(cmd, &status);
	ASSERT_NE(NULL, out);
	EXPECT_NE(0, status);
	snprintf(want, sizeof(want), "above kernel.perf_event_max_sample_rate, %ld here", max);
	EXPECT_NE(NULL, strstr(out, want)) TH_LOG("%s", out);
	for (p = out; (p = strstr(p, "cpu-clock:u")); p++)
		n++;
	EXPECT_EQ(1, n) TH_LOG("the event named %d times: %s", n, out);
	/* No guess between causes: the one it is. */
	EXPECT_EQ(NULL, strstr(out, "sample_type")) TH_LOG("%s", out);
	free(out);
}

TEST_HARNESS_MAIN
