// SPDX-License-Identifier: MIT
/*
 * A corrupt /sys or /proc: a file that is a
 * FIFO, binary, too long or not what the kernel writes never blocks, never
 * widens a cluster and never makes a software-only set fail. A PMU whose
 * files are wrong is left out, with a note (selfmon_pmus__notes()) that
 * names it; the other PMUs keep exactly what their own files say.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../core/cpulist.h"
#include "../../core/pmu.h"
#include "../../core/sysfs.h"
#include "../../core/topology.h"
#include "fakeroot.h"

/*
 * A test that would block forever (a FIFO read) fails instead: SIGALRM ends
 * the binary. Ten minutes, for a binary that takes a fifth of a second: ten
 * seconds were reached on a 2-core machine at load 13 (its trees are made
 * file by file), and a watchdog that load can reach is a false failure.
 */
static int arm_alarm(void **state)
{
	(void)state;
	alarm(600);
	return 0;
}

/* rk3399 as the kernel shows it: A53s on 0-3, A72s on 4-5. */
static char *biglittle(void)
{
	char *root = fakeroot__new();

	fakeroot__armv8(root, "armv8_cortex_a53", 8, "0-3");
	fakeroot__armv8(root, "armv8_cortex_a72", 9, "4-5");
	fakeroot__pmu_file(root, "software", "type", "1");
	fakeroot__write(root, "/sys/devices/system/cpu/possible", "0-5\n");
	fakeroot__write(root, "/sys/devices/system/cpu/online", "0-5\n");
	return root;
}

static void write_bytes(const char *root, const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	fakeroot__mkdirs(path);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void make_fifo(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	unlink(path);
	fakeroot__mkdirs(path);
	assert_int_equal(mkfifo(path, 0600), 0);
}

static void cpus_are(const struct selfmon_topology *t, const char *pmu, const char *want)
{
	const struct selfmon_cluster *cl = selfmon_topology__find(t, pmu);
	char got[256];

	if (!cl)
		fail_msg("no cluster for %s", pmu);
	assert_int_equal(selfmon_cpulist__format(&cl->cpus, got, sizeof(got)), 0);
	assert_string_equal(got, want);
}

static void a_fifo_in_place_of_a_sysfs_file_is_einval_and_does_not_block(void **state)
{
	char *root = fakeroot__new();
	char buf[64];

	(void)state;
	make_fifo(root, "/sys/x");
	assert_int_equal(selfmon_sysfs__read(root, "/sys/x", buf, sizeof(buf)), -EINVAL);
	fakeroot__free(root);
}

static void a_pmu_whose_type_is_a_fifo_is_left_out_with_a_note(void **state)
{
	char *root = biglittle();
	struct selfmon_pmus pmus;

	(void)state;
	make_fifo(root, FAKEROOT_DEVICES "/armv8_cortex_a53/type");
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_null(selfmon_pmus__find(&pmus, "armv8_cortex_a53"));
	assert_non_null(selfmon_pmus__find(&pmus, "armv8_cortex_a72"));
	assert_non_null(strstr(selfmon_pmus__notes(&pmus), "'armv8_cortex_a53': its 'type' file"));
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

static void a_software_set_opens_when_a_pmu_type_file_is_a_fifo(void **state)
{
	char *root = biglittle();
	struct selfmon_opts o = { .sz = sizeof(o), .root = root };
	struct selfmon_set *set;

	(void)state;
	make_fifo(root, FAKEROOT_DEVICES "/armv8_cortex_a72/type");
	set = selfmon_set__open("task-clock", &o);
	if (!set)
		fail_msg("task-clock: %s", selfmon_errmsg());
	selfmon_set__close(set);
	fakeroot__free(root);
}

/* Each corruption of the A53s' 'cpus' leaves them out, and the A72s keep 4-5. */
static void a_corrupt_cpus_file_leaves_its_pmu_out_and_no_other_cluster_widens(void **state)
{
	static const struct { const char *what; const char *bytes; size_t len; } bad[] = {
		{ "garbage", "zz\n", 3 },
		{ "binary", "0-3\0\xff\x01", 6 },
		{ "beyond possible", "0-3,6\n", 6 },
		{ "beyond CPU_SETSIZE", "0-99999\n", 8 },
		{ "empty", "\n", 1 },
		{ "blank before a number", " 0-3\n", 5 },
		{ "a plus sign", "+0-3\n", 5 },
		{ "text after the newline", "0-3\nx", 5 },
	};
	const char *rel = FAKEROOT_DEVICES "/armv8_cortex_a53/cpus";

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *root = biglittle();
		struct selfmon_pmus pmus;
		struct selfmon_topology t;

		write_bytes(root, rel, bad[i].bytes, bad[i].len);
		assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
		assert_int_equal(selfmon_topology__load(&t, &pmus), 0);
		if (t.nr != 1 || selfmon_topology__find(&t, "armv8_cortex_a53"))
			fail_msg("%s cpus: %d clusters, the A53s kept", bad[i].what, t.nr);
		cpus_are(&t, "armv8_cortex_a72", "4-5");
		assert_null(selfmon_topology__of_cpu(&t, 0));
		if (!strstr(selfmon_pmus__notes(&pmus), "'armv8_cortex_a53'"))
			fail_msg("%s cpus: no note: '%s'", bad[i].what, selfmon_pmus__notes(&pmus));
		selfmon_pmus__free(&pmus);
		fakeroot__free(root);
	}
}

static void an_unreadable_or_garbage_type_file_leaves_its_pmu_out_with_a_note(void **state)
{
	static const char *const bad[] = { "x\n", "-1\n", "4294967296\n", " 9\n", "9 9\n" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *root = biglittle();
		struct selfmon_pmus pmus;
		struct selfmon_topology t;

		write_bytes(root, FAKEROOT_DEVICES "/armv8_cortex_a72/type", bad[i], strlen(bad[i]));
		assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
		assert_null(selfmon_pmus__find(&pmus, "armv8_cortex_a72"));
		assert_non_null(strstr(selfmon_pmus__notes(&pmus), "'armv8_cortex_a72'"));
		assert_int_equal(selfmon_topology__load(&t, &pmus), 0);
		cpus_are(&t, "armv8_cortex_a53", "0-3");
		selfmon_pmus__free(&pmus);
		fakeroot__free(root);
	}
}

static void a_clean_tree_has_no_notes(void **state)
{
	char *root = biglittle();
	struct selfmon_pmus pmus;
	struct selfmon_topology t;

	(void)state;
	assert_int_equal(selfmon_pmus__load(&pmus, root), 0);
	assert_int_equal(selfmon_topology__load(&t, &pmus), 0);
	assert_string_equal(selfmon_pmus__notes(&pmus), "");
	assert_string_equal(selfmon_topology__notes(&t), "");
	cpus_are(&t, "armv8_cortex_a53", "0-3");
	cpus_are(&t, "armv8_cortex_a72", "4-5");
	selfmon_pmus__free(&pmus);
	fakeroot__free(root);
}

/* x86 'cpu' has no 'cpus': its cluster comes from 'online', which is corrupt here. */
static void a_software_set_opens_with_a_missing_or_garbage_cpu_online(void **state)
{
	static const char *const online[] = { NULL, "garbage\n", "" };

	(void)state;
	for (size_t i = 0; i < sizeof(online) / sizeof(online[0]); i++) {
		char *root = fakeroot__new();
		struct selfmon_opts o = { .sz = sizeof(o), .root = root };
		struct selfmon_set *set;

		fakeroot__x86_cpu(root, 1);
		fakeroot__remove_path(root, FAKEROOT_DEVICES "/cpu/cpus");
		if (online[i])
			fakeroot__write(root, "/sys/devices/system/cpu/online", "%s", online[i]);
		set = selfmon_set__open("task-clock", &o);
		if (!set)
			fail_msg("online %s: %s", online[i] ? online[i] : "missing", selfmon_errmsg());
		selfmon_set__close(set);
		fakeroot__free(root);
	}
}

static void a_sysfs_file_longer_than_the_buffer_is_efbig_not_cut_short(void **state)
{
	char *root = fakeroot__new();
	char buf[8];

	(void)state;
	fakeroot__write(root, "/sys/long", "0-3,5,7,9\n");
	assert_int_equal(selfmon_sysfs__read(root, "/sys/long", buf, sizeof(buf)), -EFBIG);
	fakeroot__write(root, "/sys/short", "0-3\n");
	assert_int_equal(selfmon_sysfs__read(root, "/sys/short", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "0-3");
	fakeroot__free(root);
}

static void a_number_file_takes_only_what_the_kernel_writes(void **state)
{
	static const char *const bad[] = { " 1\n", "+1\n", "1x\n", "\n", "--1\n" };
	char *root = fakeroot__new();
	long v;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fakeroot__write(root, "/proc/n", "%s", bad[i]);
		if (selfmon_sysfs__read_long(root, "/proc/n", &v) != -EINVAL)
			fail_msg("'%s' read as %ld", bad[i], v);
	}
	fakeroot__write(root, "/proc/n", "-1\n");
	assert_int_equal(selfmon_sysfs__read_long(root, "/proc/n", &v), 0);
	assert_int_equal(v, -1);
	fakeroot__free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_fifo_in_place_of_a_sysfs_file_is_einval_and_does_not_block),
		cmocka_unit_test(a_pmu_whose_type_is_a_fifo_is_left_out_with_a_note),
		cmocka_unit_test(a_software_set_opens_when_a_pmu_type_file_is_a_fifo),
		cmocka_unit_test(a_corrupt_cpus_file_leaves_its_pmu_out_and_no_other_cluster_widens),
		cmocka_unit_test(an_unreadable_or_garbage_type_file_leaves_its_pmu_out_with_a_note),
		cmocka_unit_test(a_clean_tree_has_no_notes),
		cmocka_unit_test(a_software_set_opens_with_a_missing_or_garbage_cpu_online),
		cmocka_unit_test(a_sysfs_file_longer_than_the_buffer_is_efbig_not_cut_short),
		cmocka_unit_test(a_number_file_takes_only_what_the_kernel_writes),
	};

	return cmocka_run_group_tests(tests, arm_alarm, NULL);
}
