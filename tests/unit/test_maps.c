// SPDX-License-Identifier: MIT
/*
 * /proc/self/maps as the kernel may print it (proc(5), "/proc/pid/maps"),
 * not only as it usually does: paths with blanks, a newline in a name (the
 * escape \012), the " (deleted)" marker, no path at all, and a line longer
 * than any fixed buffer (a path deeper than PATH_MAX, which the kernel
 * prints whole). Each parses to the file's own name, or is refused as a
 * line not in proc(5)'s format; none is cut in two.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../sample/maps.h"

#define HEAD "7f0000001000-7f0000003000 r-xp 00002000 fd:01 1234567"

static struct selfmon_map parse_ok(const char *text)
{
	struct selfmon_map m = { 0 };
	char *line = strdup(text);

	assert_non_null(line);
	if (selfmon_maps__parse_line(line, &m) != 1)
		fail_msg("not parsed as an exec mapping: '%s'", text);
	free(line);
	return m;
}

static void the_fields_and_a_plain_path_parse(void **state)
{
	struct selfmon_map m = parse_ok(HEAD "                    /usr/lib/libc.so.6\n");

	(void)state;
	assert_int_equal(m.start, 0x7f0000001000ull);
	assert_int_equal(m.end, 0x7f0000003000ull);
	assert_int_equal(m.pgoff, 0x2000);
	assert_int_equal(m.maj, 0xfd);
	assert_int_equal(m.min, 1);
	assert_int_equal(m.ino, 1234567);
	assert_int_equal(m.prot, PROT_READ | PROT_EXEC);
	assert_false(m.shared);
	assert_false(m.deleted);
	assert_string_equal(m.path, "/usr/lib/libc.so.6");
	free(m.path);
}

static void blanks_inside_a_path_are_kept(void **state)
{
	struct selfmon_map m = parse_ok(HEAD "   /opt/my app/lib  two.so\n");

	(void)state;
	assert_string_equal(m.path, "/opt/my app/lib  two.so");
	free(m.path);
}

static void an_escaped_newline_is_the_names_newline(void **state)
{
	struct selfmon_map m = parse_ok(HEAD " /tmp/a\\012b\\012\n");

	(void)state;
	assert_string_equal(m.path, "/tmp/a\nb\n");
	free(m.path);
}

static void the_deleted_marker_is_cut_and_said(void **state)
{
	struct selfmon_map m = parse_ok(HEAD " /tmp/old lib.so (deleted)\n");

	(void)state;
	assert_true(m.deleted);
	assert_string_equal(m.path, "/tmp/old lib.so");
	free(m.path);
	/* the marker only at the end, after a blank */
	m = parse_ok(HEAD " /tmp/(deleted)\n");
	assert_false(m.deleted);
	assert_string_equal(m.path, "/tmp/(deleted)");
	free(m.path);
}

static void anonymous_and_special_mappings_parse(void **state)
{
	struct selfmon_map m = parse_ok("7ffd0000-7ffd2000 r-xp 00000000 00:00 0\n");
	char line[] = "7ffd0000-7ffd2000 rw-p 00000000 00:00 0 [stack]\n";

	(void)state;
	assert_string_equal(m.path, "");
	free(m.path);
	m = parse_ok("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]");
	assert_string_equal(m.path, "[vsyscall]");
	assert_int_equal(m.prot, PROT_EXEC);
	free(m.path);
	assert_int_equal(selfmon_maps__parse_line(line, &m), 0);
}

static void a_line_not_in_the_format_is_ebadmsg(void **state)
{
	static const char *const bad[] = {
		"", "\n", "garbage", "7f00-7f10 r-xp 0 fd:01\n", "7f00-7f10 r-x 0 fd:01 1 /x\n",
		"7f00-7f10 r-xpq 0 fd:01 1 /x\n", "7f10-7f00 r-xp 0 fd:01 1 /x\n",
		"7f00-7f10 r-xp 0 fd:01 12/x\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct selfmon_map m = { 0 };
		char *line = strdup(bad[i]);

		if (selfmon_maps__parse_line(line, &m) != -EBADMSG)
			fail_msg("'%s' was taken", bad[i]);
		free(line);
	}
}

/*
 * A file whose path is longer than PATH_MAX (made one directory at a time,
 * openat(2)), mapped: its line in /proc/self/maps is longer than any fixed
 * line buffer, and reading the maps must still succeed.
 */
static void a_mapping_of_a_path_longer_than_path_max_is_read_whole(void **state)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char tmpl[4096], name[201];
	struct selfmon_map *maps;
	int dir, fd, nr, depth = 30;
	void *p;

	(void)state;
	snprintf(tmpl, sizeof(tmpl), "%s/selfmon-maps-XXXXXX", tmp);
	assert_non_null(mkdtemp(tmpl));
	memset(name, 'd', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	dir = open(tmpl, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	for (int i = 0; i < depth; i++) {
		int next;

		assert_int_equal(mkdirat(dir, name, 0700), 0);
		next = openat(dir, name, O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(dir);
		dir = next;
	}
	fd = openat(dir, "f", O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4096), 0);
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(selfmon_maps__read_exec(&maps, &nr), 0);
	assert_true(nr > 0);
	selfmon_maps__free(maps, nr);
	munmap(p, 4096);
	close(fd);
	/* Remove the tree, deepest first. */
	unlinkat(dir, "f", 0);
	for (int i = 0; i < depth; i++) {
		int up = openat(dir, "..", O_RDONLY | O_DIRECTORY);

		close(dir);
		dir = up;
		unlinkat(dir, name, AT_REMOVEDIR);
	}
	close(dir);
	rmdir(tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_fields_and_a_plain_path_parse),
		cmocka_unit_test(blanks_inside_a_path_are_kept),
		cmocka_unit_test(an_escaped_newline_is_the_names_newline),
		cmocka_unit_test(the_deleted_marker_is_cut_and_said),
		cmocka_unit_test(anonymous_and_special_mappings_parse),
		cmocka_unit_test(a_line_not_in_the_format_is_ebadmsg),
		cmocka_unit_test(a_mapping_of_a_path_longer_than_path_max_is_read_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
