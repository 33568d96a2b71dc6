// SPDX-License-Identifier: MIT
/*
 * The outfile rule's durability (<selfmon/outfile.h>): the new file's data
 * reaches the disk (fsync(2)) before its name replaces the old file, so that
 * a power cut leaves the old file or the new one. fsync and rename are
 * replaced (test_outfile.wrap) to see their order; both still run for real.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <selfmon/outfile.h>
#include <selfmon/selfmon.h>

int __real_fsync(int fd);
int __real_rename(const char *from, const char *to);

/* The inodes fsync() saw, in order, and what rename() found of its source. */
static ino_t synced[8];
static int nr_synced, fail_fsync;
static bool renamed_synced, renamed;

int __wrap_fsync(int fd);
int __wrap_fsync(int fd)
{
	struct stat st;

	if (fail_fsync) {
		errno = fail_fsync;
		return -1;
	}
	if (!fstat(fd, &st) && nr_synced < 8)
		synced[nr_synced++] = st.st_ino;
	return __real_fsync(fd);
}

int __wrap_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to)
{
	struct stat st;

	renamed = true;
	renamed_synced = false;
	for (int i = 0; !stat(from, &st) && i < nr_synced; i++)
		renamed_synced |= synced[i] == st.st_ino;
	return __real_rename(from, to);
}

static char dir[] = "/tmp/selfmon-test-outfile-XXXXXX";
static char path[128];

static int setup(void **state)
{
	(void)state;
	nr_synced = fail_fsync = 0;
	renamed = renamed_synced = false;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/out", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[160];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	memcpy(dir + strlen(dir) - 6, "XXXXXX", 6);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write @text to a new outfile at @path and close it; return its temporary name. */
static char *write_new(const char *text)
{
	char *tmp = NULL;
	int fd = selfmon_outfile__open("test", path, &tmp);

	assert_true(fd >= 0);
	assert_non_null(tmp);
	assert_int_equal((ssize_t)strlen(text), write(fd, text, strlen(text)));
	assert_int_equal(0, close(fd));
	return tmp;
}

static void the_new_file_is_on_the_disk_before_its_name_replaces_the_old(void **state)
{
	char *tmp;
	FILE *f;
	char buf[16] = "";

	(void)state;
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	tmp = write_new("new\n");
	assert_int_equal(0, selfmon_outfile__commit("test", path, tmp, false));
	assert_true(renamed);
	assert_true(renamed_synced);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal("new\n", buf);
}

static void a_failed_fsync_renames_nothing_and_names_the_new_file(void **state)
{
	char *tmp, name[160];
	struct stat st;

	(void)state;
	tmp = write_new("new\n");
	snprintf(name, sizeof(name), "%s", tmp);
	fail_fsync = EIO;
	assert_int_equal(-EIO, selfmon_outfile__commit("test", path, tmp, false));
	assert_false(renamed);
	/* The old name holds nothing new; the new file stays for the user, and is named. */
	assert_int_not_equal(0, lstat(path, &st));
	assert_int_equal(0, lstat(name, &st));
	assert_non_null(strstr(selfmon_errmsg(), name));
	/* The C library's words for EIO: glibc and musl differ. */
	assert_non_null(strstr(selfmon_errmsg(), strerror(EIO)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			the_new_file_is_on_the_disk_before_its_name_replaces_the_old, setup, teardown),
		cmocka_unit_test_setup_teardown(a_failed_fsync_renames_nothing_and_names_the_new_file,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
