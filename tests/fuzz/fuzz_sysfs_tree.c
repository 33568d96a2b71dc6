// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: a /sys and /proc tree built from the input, then loaded
 * as selfmon loads it (selfmon_pmus__load, selfmon_topology__load, the alias
 * and paranoid reads). The input is a list of chunks split at NUL bytes; the
 * chunk number picks a file of three PMUs and the system, its first byte what
 * sits there (a regular file holding the rest of the chunk, nothing, a FIFO,
 * a directory). Whatever the tree, nothing blocks or crashes, the load never
 * fails, and a cluster holds exactly the CPUs its own PMU's file names.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include "../../core/event.h"
#include "../../core/pmu.h"
#include "../../core/sysfs.h"
#include "../../core/topology.h"

#define DEV "/sys/bus/event_source/devices/"
static const char *const slots[] = {
	DEV "armv8_cortex_a53/type", DEV "armv8_cortex_a53/cpus", DEV "armv8_cortex_a53/format/event",
	DEV "armv8_cortex_a53/format/long", DEV "armv8_cortex_a53/events/inst_retired",
	DEV "armv8_cortex_a72/type", DEV "armv8_cortex_a72/cpus", DEV "armv8_cortex_a72/format/event",
	DEV "armv8_cortex_a72/events/cpu_cycles",
	DEV "cpu/type", DEV "cpu/cpumask", DEV "cpu/rdpmc", DEV "cpu/format/event", DEV "cpu/format/umask",
	DEV "cpu/events/cpu-cycles",
	"/sys/devices/system/cpu/online", "/sys/devices/system/cpu/possible",
	"/sys/devices/system/cpu/cpu0/cpu_capacity", "/sys/devices/system/cpu/cpu4/cpu_capacity",
	"/proc/sys/kernel/perf_event_paranoid",
};
#define NR_SLOTS (sizeof(slots) / sizeof(slots[0]))

static char root[64];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cleanup(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}


static void mkdirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
}

/* What each slot holds now: a slot the input leaves as it was is not rewritten. */
static struct {
	int kind;		/* -1: unknown */
	size_t len;
	uint8_t *data;
} last[NR_SLOTS];

static int kind_of(uint8_t byte)
{
	switch (byte % 8) {
	case 5: return 1;	/* absent */
	case 6: return 2;	/* a FIFO */
	case 7: return 3;	/* a directory */
	default: return 0;	/* mostly regular files */
	}
}

/* Put at slot @i what @kind says, holding @data if it is a regular file. */
static void place(size_t i, int kind, const uint8_t *data, size_t len)
{
	char path[256];
	int fd;

	if (last[i].kind == kind && (kind || (last[i].len == len && (!len || !memcmp(last[i].data, data, len)))))
		return;
	snprintf(path, sizeof(path), "%s%s", root, slots[i]);
	if (unlink(path) && errno != ENOENT)
		rmdir(path);
	mkdirs(path);
	if (kind == 2)
		mkfifo(path, 0600);
	else if (kind == 3)
		mkdir(path, 0755);
	if (kind == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			abort();
		if (len && write(fd, data, len) != (ssize_t)len)
			abort();
		close(fd);
	}
	free(last[i].data);
	last[i].data = kind == 0 && len ? malloc(len) : NULL;
	if (last[i].data)
		memcpy(last[i].data, data, len);
	last[i].len = last[i].data ? len : 0;
	last[i].kind = kind;
}

static void build_tree(const uint8_t *data, size_t size)
{
	size_t slot = 0, at = 0;

	while (slot < NR_SLOTS) {
		const uint8_t *end = at < size ? memchr(data + at, 0, size - at) : NULL;
		size_t len = end ? (size_t)(end - data) - at : size > at ? size - at : 0;

		if (len)
			place(slot, kind_of(data[at]), data + at + 1, len - 1);
		else
			place(slot, 1, NULL, 0);
		slot++;
		at += len + 1;
	}
}

static void check_tree(void)
{
	struct selfmon_pmus pmus;
	struct selfmon_topology topo;
	struct selfmon_event ev;
	char text[512];
	long paranoid;

	if (selfmon_pmus__load(&pmus, root))
		abort();
	if (strlen(selfmon_pmus__notes(&pmus)) >= sizeof(pmus.notes))
		abort();
	if (selfmon_topology__load(&topo, &pmus))
		abort();
	for (int i = 0; i < topo.nr; i++)
		if (topo.cl[i].pmu->has_cpus && !CPU_EQUAL(&topo.cl[i].cpus, &topo.cl[i].pmu->cpus))
			abort();
	selfmon_topology__describe(&topo, text, sizeof(text));
	selfmon_topology__big(&topo);
	selfmon_topology__little(&topo);
	selfmon_topology__of_cpu(&topo, 4);
	selfmon_event__parse("armv8_cortex_a53/inst_retired/", &pmus, &ev);
	selfmon_event__parse("cpu/cpu-cycles,umask=1/", &pmus, &ev);
	if (!selfmon_event__parse("cycles", &pmus, &ev))
		for (int i = 0; i < topo.nr; i++) {
			struct selfmon_event copy = ev;

			selfmon_event__for_pmu(&copy, &pmus, topo.cl[i].pmu);
		}
	selfmon_sysfs__read_long(root, "/proc/sys/kernel/perf_event_paranoid", &paranoid);
	selfmon_pmus__free(&pmus);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!root[0]) {
		const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";

		snprintf(root, sizeof(root), "%s/selfmon-fuzz-XXXXXX", base);
		if (!mkdtemp(root))
			abort();
		for (size_t i = 0; i < NR_SLOTS; i++)
			last[i].kind = -1;
		atexit(cleanup);
	}
	build_tree(data, size);
	check_tree();
	return 0;
}
