/* SPDX-License-Identifier: MIT */
/*
 * A throw-away sysfs/procfs root for unit tests: a directory made with
 * mkdtemp() that holds sys/ and proc/ the way selfmon reads them, filled
 * with just the files a test needs. Include after <cmocka.h>.
 */
#ifndef SELFMON_TEST_FAKEROOT_H
#define SELFMON_TEST_FAKEROOT_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAKEROOT_DEVICES "/sys/bus/event_source/devices"

/* Make a fresh empty root; free it with fakeroot__remove(). */
static inline char *fakeroot__new(void)
{
	char tmpl[] = "/tmp/selfmon-unit-XXXXXX";
	char *dir = mkdtemp(tmpl);

	assert_non_null(dir);
	dir = strdup(dir);
	assert_non_null(dir);
	return dir;
}

static inline void fakeroot__mkdirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*s = '/';
	}
}

/* Write @root/@rel (an absolute path like "/sys/...") with printf-style contents. */
static inline void __attribute__((format(printf, 3, 4)))
fakeroot__write(const char *root, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s%s", root, rel) < (int)sizeof(path));
	fakeroot__mkdirs(path);
	f = fopen(path, "w");
	if (!f)
		fail_msg("fopen %s: %s", path, strerror(errno));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
}

/* Write one file of PMU @pmu: "type", "cpus", "format/event", "events/inst_retired", ... */
static inline void __attribute__((format(printf, 4, 5)))
fakeroot__pmu_file(const char *root, const char *pmu, const char *file, const char *fmt, ...)
{
	char rel[PATH_MAX], text[1024];
	va_list ap;

	snprintf(rel, sizeof(rel), FAKEROOT_DEVICES "/%s/%s", pmu, file);
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fakeroot__write(root, rel, "%s\n", text);
}

/* Remove @path (a whole file or directory tree), as sysfs would lack it. */
static inline int fakeroot__unlink_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void fakeroot__remove_path(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	nftw(path, fakeroot__unlink_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Delete the whole root and free its name. */
static inline void fakeroot__free(char *root)
{
	if (!root)
		return;
	nftw(root, fakeroot__unlink_one, 16, FTW_DEPTH | FTW_PHYS);
	free(root);
}

/* An x86 core PMU "cpu" as a Skylake kernel shows it. */
static inline void fakeroot__x86_cpu(const char *root, int rdpmc)
{
	fakeroot__pmu_file(root, "cpu", "type", "4");
	fakeroot__pmu_file(root, "cpu", "cpus", "0-7");
	if (rdpmc >= 0)
		fakeroot__pmu_file(root, "cpu", "rdpmc", "%d", rdpmc);
	fakeroot__pmu_file(root, "cpu", "format/event", "config:0-7");
	fakeroot__pmu_file(root, "cpu", "format/umask", "config:8-15");
	fakeroot__pmu_file(root, "cpu", "format/cmask", "config:24-31");
	fakeroot__pmu_file(root, "cpu", "events/cpu-cycles", "event=0x3c");
	fakeroot__pmu_file(root, "software", "type", "1");
}

/* An arm64 PMUv3 PMU named @name as a 6.1 kernel shows it (rdpmc=config1:1, long=config1:0). */
static inline void fakeroot__armv8(const char *root, const char *name, int type, const char *cpus)
{
	fakeroot__pmu_file(root, name, "type", "%d", type);
	fakeroot__pmu_file(root, name, "cpus", "%s", cpus);
	fakeroot__pmu_file(root, name, "format/event", "config:0-15");
	fakeroot__pmu_file(root, name, "format/long", "config1:0");
	fakeroot__pmu_file(root, name, "format/rdpmc", "config1:1");
	fakeroot__pmu_file(root, name, "events/inst_retired", "event=0x0008");
	fakeroot__pmu_file(root, name, "events/cpu_cycles", "event=0x0011");
}

/*
 * The directory that holds the fixture boards (tests/fixtures/sysfs/<board>/)
 * into @dir: $SELFMON_FIXTURES, else found walking up from this binary, else
 * from the working directory. Return: 0, or -ENOENT with @dir empty.
 */
static inline int fakeroot__fixtures(char *dir, size_t size)
{
	const char *env = getenv("SELFMON_FIXTURES");
	char exe[PATH_MAX], real[PATH_MAX];
	struct stat st;
	ssize_t n;

	dir[0] = '\0';
	if (env && *env) {
		snprintf(dir, size, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (char *slash = strrchr(exe, '/'); slash; slash = strrchr(exe, '/')) {
			*slash = '\0';
			n = snprintf(dir, size, "%s/tests/fixtures/sysfs", exe);
			if (n > 0 && (size_t)n < size && !stat(dir, &st) && S_ISDIR(st.st_mode))
				return 0;
		}
	}
	/* a build directory outside the tree: try the working directory */
	if (realpath("tests/fixtures/sysfs", real) && !stat(real, &st) && S_ISDIR(st.st_mode) &&
	    (size_t)snprintf(dir, size, "%s", real) < size)
		return 0;
	dir[0] = '\0';
	return -ENOENT;
}

/* @root = fixture board @board under @fixtures. Return: 0, or -ENOENT when it is not there. */
static inline int fakeroot__board(const char *fixtures, const char *board, char *root, size_t size)
{
	struct stat st;
	int n;

	if (!fixtures[0])
		return -ENOENT;
	n = snprintf(root, size, "%s/%s", fixtures, board);
	if (n < 0 || (size_t)n >= size || stat(root, &st) || !S_ISDIR(st.st_mode))
		return -ENOENT;
	return 0;
}

#endif
