// SPDX-License-Identifier: MIT
/*
 * A directory's entries by getdents64(2) (core/dir.c): every name once,
 * "." and ".." among them, however many reads of its buffer the
 * directory takes; open's errno for what is not a directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../core/dir.h"
#include "scratch.h"

/* Names long enough that the directory takes many reads of the buffer. */
#define NR_FILES 300
#define PREFIX "an-entry-with-a-name-long-enough-to-fill-a-buffer-"

static char root[128];

static int make_root(void **state)
{
	char path[256];

	(void)state;
	if (scratch__make(root, sizeof(root), "selfmon-dir"))
		return -1;
	for (int i = 0; i < NR_FILES; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/" PREFIX "%03d", root, i);
		fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int remove_root(void **state)
{
	(void)state;
	return scratch__remove(root);
}

static void every_entry_comes_once_past_many_reads_of_the_buffer(void **state)
{
	bool seen[NR_FILES] = { false };
	struct selfmon_dir d;
	const char *name;
	int dots = 0, n = 0;

	(void)state;
	assert_true(NR_FILES * sizeof(PREFIX) > 4 * sizeof(d.buf));
	assert_int_equal(selfmon_dir__open(&d, root), 0);
	while ((name = selfmon_dir__next(&d))) {
		int i;

		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			dots++;
			continue;
		}
		assert_int_equal(strncmp(name, PREFIX, strlen(PREFIX)), 0);
		i = atoi(name + strlen(PREFIX));
		assert_false(seen[i]);
		seen[i] = true;
		n++;
	}
	assert_int_equal(errno, 0);
	selfmon_dir__close(&d);
	assert_int_equal(n, NR_FILES);
	assert_int_equal(dots, 2);
}

static void a_file_is_enotdir_and_a_missing_path_enoent(void **state)
{
	char path[256];
	struct selfmon_dir d;

	(void)state;
	snprintf(path, sizeof(path), "%s/" PREFIX "000", root);
	assert_int_equal(selfmon_dir__open(&d, path), -ENOTDIR);
	snprintf(path, sizeof(path), "%s/none", root);
	assert_int_equal(selfmon_dir__open(&d, path), -ENOENT);
}

static void the_directory_is_not_handed_to_an_exec(void **state)
{
	struct selfmon_dir d;

	(void)state;
	assert_int_equal(selfmon_dir__open(&d, root), 0);
	assert_true(fcntl(d.fd, F_GETFD) & FD_CLOEXEC);
	selfmon_dir__close(&d);
	assert_int_equal(d.fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_entry_comes_once_past_many_reads_of_the_buffer),
		cmocka_unit_test(a_file_is_enotdir_and_a_missing_path_enoent),
		cmocka_unit_test(the_directory_is_not_handed_to_an_exec),
	};

	return cmocka_run_group_tests_name("dir", tests, make_root, remove_root);
}
