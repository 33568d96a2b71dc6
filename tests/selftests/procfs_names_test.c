// SPDX-License-Identifier: MIT
/*
 * Names as procfs gives them back, however odd the kernel lets them be. The
 * symbol reader over what /proc/self/maps may say of a mapped file (proc(5),
 * "/proc/pid/maps"): a file deleted since it was mapped, and another file
 * put at its name, is not read for the mapping's symbols; a file whose name
 * holds a newline and blanks is found by its own name. perf.data's COMM
 * record carries a thread name that holds a newline (/proc/thread-self/comm
 * ends it with another) whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/perfdata.h>
#include <selfmon/sampler.h>
#include <selfmon/symbols.h>
#include "kselftest_harness.h"
#include "perf_files.h"

/* @buf: a new name under $TMPDIR (else /tmp) from @leaf, its XXXXXX filled by mkdtemp or mkstemp. */
static char *tmp_name(char *buf, size_t size, const char *leaf)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(buf, size, "%s/%s", tmp && *tmp ? tmp : "/tmp", leaf);
	return buf;
}

/* Copy this test's executable to @path. Return: 0 or -1. */
static int copy_self(const char *path)
{
	int in = open("/proc/self/exe", O_RDONLY), out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	struct stat st;
	int ok = in >= 0 && out >= 0 && !fstat(in, &st) &&
		 sendfile(out, in, NULL, (size_t)st.st_size) == st.st_size;

	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok ? 0 : -1;
}

/* Map the first page of @path executable. */
static void *map_exec(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return MAP_FAILED;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	return p;
}

TEST(a_mapped_file_deleted_and_replaced_is_not_read_for_its_symbols)
{
	char dir[2048], path[4096];
	struct selfmon_symbols *sy;
	struct selfmon_symbol sym;
	void *p;

	ASSERT_NE(NULL, mkdtemp(tmp_name(dir, sizeof(dir), "selfmon-sym-XXXXXX")));
	snprintf(path, sizeof(path), "%s/lib.so", dir);
	ASSERT_EQ(0, copy_self(path));
	p = map_exec(path);
	ASSERT_NE(MAP_FAILED, p);
	/* deleted, and another file at its name: /proc/self/maps says "(deleted)" */
	ASSERT_EQ(0, unlink(path));
	ASSERT_EQ(0, copy_self(path));
	sy = selfmon_symbols__open();
	ASSERT_NE(NULL, sy) TH_LOG("%s", selfmon_errmsg());
	EXPECT_EQ(-ENOENT, selfmon_symbols__lookup(sy, (uint64_t)(uintptr_t)p + 64, &sym));
	EXPECT_NE(NULL, strstr(selfmon_errmsg(), "deleted")) TH_LOG("%s", selfmon_errmsg());
	EXPECT_STREQ(path, sym.file);
	selfmon_symbols__close(sy);
	munmap(p, 4096);
	unlink(path);
	rmdir(dir);
}

TEST(a_mapped_file_whose_name_holds_a_newline_and_blanks_is_found_by_that_name)
{
	char dir[2048], path[4096];
	struct selfmon_symbols *sy;
	struct selfmon_symbol sym;
	int err;
	void *p;

	ASSERT_NE(NULL, mkdtemp(tmp_name(dir, sizeof(dir), "selfmon-sym-XXXXXX")));
	snprintf(path, sizeof(path), "%s/a b\nc.so", dir);
	ASSERT_EQ(0, copy_self(path));
	p = map_exec(path);
	ASSERT_NE(MAP_FAILED, p);
	sy = selfmon_symbols__open();
	ASSERT_NE(NULL, sy) TH_LOG("%s", selfmon_errmsg());
	/* the file was read: whatever the first page resolves to, not a missing file */
	err = selfmon_symbols__lookup(sy, (uint64_t)(uintptr_t)p + 64, &sym);
	EXPECT_STREQ(path, sym.file);
	EXPECT_EQ(NULL, strstr(selfmon_errmsg(), "No such file")) TH_LOG("%d: %s", err,
									selfmon_errmsg());
	selfmon_symbols__close(sy);
	munmap(p, 4096);
	unlink(path);
	rmdir(dir);
}

TEST(a_thread_name_with_a_newline_goes_whole_into_perf_datas_comm_record)
{
	struct selfmon_sampler_opts o = { .sz = sizeof(o), .period = 100000 };
	struct selfmon_sampler *s = selfmon_sampler__open("cpu-clock:u", &o);
	char path[2048], name[16];
	struct selfmon_perfdata *pd;
	uint64_t data[2];
	size_t len = 0;
	uint8_t *buf;
	int fd = mkstemp(tmp_name(path, sizeof(path), "selfmon-comm-XXXXXX")), found = 0;

	ASSERT_NE(NULL, s) TH_LOG("%s", selfmon_errmsg());
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, prctl(PR_GET_NAME, name));
	ASSERT_EQ(0, prctl(PR_SET_NAME, "a\nb c"));
	pd = selfmon_perfdata__open(path, s);
	prctl(PR_SET_NAME, name);
	ASSERT_NE(NULL, pd) TH_LOG("%s", selfmon_errmsg());
	ASSERT_EQ(0, selfmon_perfdata__close(pd)) TH_LOG("%s", selfmon_errmsg());
	buf = slurp(path, &len);
	ASSERT_NE(NULL, buf);
	/* perf's file header: magic, size, attr_size, attrs, then the data section */
	ASSERT_LE(56, len);
	memcpy(data, buf + 40, sizeof(data));
	ASSERT_LE(data[0] + data[1], len);
	for (uint64_t off = data[0]; off < data[0] + data[1];) {
		struct selfmon_record r;

		ASSERT_EQ(0, selfmon_record__parse(buf + off, data[0] + data[1] - off,
						   selfmon_sampler__layout(s), &r))
			TH_LOG("%s", selfmon_errmsg());
		if (r.type == PERF_RECORD_COMM && r.comm.tid == (uint32_t)syscall(SYS_gettid)) {
			EXPECT_STREQ("a\nb c", r.comm.comm);
			found++;
		}
		off += r.size;
	}
	EXPECT_EQ(1, found);
	free(buf);
	unlink(path);
	selfmon_sampler__close(s);
}

TEST_HARNESS_MAIN
