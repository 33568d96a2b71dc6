// SPDX-License-Identifier: MIT
/*
 * x86 gates: rdpmc in user space is allowed when the core PMU's sysfs
 * 'rdpmc' attribute is 1 (for events the task has mmapped, CR4.PCE set
 * while it runs) or 2 (always); 0 makes rdpmc fault. The mmap page's
 * cap_user_rdpmc then says it per event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/autoconf.h>
#include "../../core/arch_int.h"
#include "../../core/fmt.h"

static enum selfmon_reason x86_prepare(const char *root, struct selfmon_event *ev, bool want_long,
				       unsigned int *notes)
{
	(void)root;
	(void)want_long; /* x86 counters are read at full width */
	(void)notes;
	if (!ev->pmu)
		return SELFMON_REASON_NO_PMU;
	if (ev->pmu->rdpmc == 0)
		return SELFMON_REASON_SYSFS_RDPMC;
	return SELFMON_REASON_NONE;
}

/* "key<tabs>: value" of a /proc/cpuinfo line: the value, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	line += n + strspn(line + n, " \t"); /* "model" is not "model name" */
	return *line == ':' ? line + 1 : NULL;
}

/*
 * Whether /proc/cpuinfo under @root names @vendor, CPUID leaf 0's string, as
 * its first vendor_id: the CPUs of one machine share it. False when the
 * file cannot be read: an encoding that means instructions on one vendor
 * only is then not claimed.
 */
static bool x86_vendor_is(const char *root, const char *vendor)
{
	char path[4096], line[512], have[32] = "";
	const char *v = NULL;
	FILE *f;

	if (selfmon_root__path(root, "/proc/cpuinfo", path, sizeof(path)))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!v && fgets(line, sizeof(line), f))
		v = field(line, "vendor_id");
	if (v && sscanf(v, " %31s", have) != 1)
		have[0] = '\0';
	fclose(f);
	return !strcmp(have, vendor);
}

/*
 * The architectural event "instructions retired", event select 0xc0 with
 * umask 0, on Intel (SDM vol. 3B, "Pre-defined Architectural Performance
 * Events") and AMD (APM vol. 2, "Retired Instructions", PMCx0C0) alike.
 * The fields that change what is counted must be clear: umask
 * (config:8-15), edge (18), inv (23), cmask (24-31) and AMD's upper event
 * select bits (32-35). usr, os and int (16, 17, 20) only filter or
 * interrupt; perf sets them from the attr. On Intel, fixed counter 0
 * counts the same (SDM vol. 3B, "Fixed-Function Performance Counters"):
 * the kernel's Intel driver takes event select 0 with umask 1, which no
 * programmable event uses, as that counter, and perf's event tables name
 * it INST_RETIRED.ANY. On AMD the same bits are another event.
 */
static bool x86_raw_instructions(const char *root, const struct perf_event_attr *attr)
{
	const uint64_t counts = 0xfull << 32 | 0xff840000ull | 0xffffull;
	const uint64_t sel = attr->config & counts;

	if (sel == 0x0100)
		return x86_vendor_is(root, "GenuineIntel");
	return sel == 0xc0;
}

#ifdef CONFIG_PMU_EVENTS
/*
 * One line of a CPU's block of /proc/cpuinfo: its vendor_id into @vendor
 * (32 bytes), its "cpu family", "model" and "stepping" into @num[0..2].
 */
static void x86_cpu_field(const char *line, char *vendor, long num[3])
{
	static const char *const keys[] = { "cpu family", "model", "stepping" };
	const char *v = field(line, "vendor_id");

	if (v) {
		if (sscanf(v, " %31s", vendor) != 1)
			vendor[0] = '\0';
		return;
	}
	for (int i = 0; i < 3; i++) {
		v = field(line, keys[i]);
		if (v) {
			num[i] = strtol(v, NULL, 10);
			return;
		}
	}
}

/*
 * CPUID's vendor, family, model and stepping (leaves 0 and 1) as the
 * kernel's /proc/cpuinfo prints them for CPU @cpu, read line by line (the
 * file grows with the CPUs; it is never taken whole), spelt as perf spells
 * the id mapfile.csv's rules match: family in decimal, model and stepping
 * in hex (tools/perf/arch/x86/util/header.c in the kernel tree).
 */
static int x86_cpu_id(const char *root, int cpu, char *buf, size_t size)
{
	char path[4096], line[512], vendor[32] = "";
	long num[3] = { -1, -1, -1 }; /* family, model, stepping */
	const char *v;
	bool mine = false;
	FILE *f;
	int err = selfmon_root__path(root, "/proc/cpuinfo", path, sizeof(path));

	if (err)
		return err;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		v = field(line, "processor");
		if (v)
			mine = strtol(v, NULL, 10) == cpu;
		else if (mine)
			x86_cpu_field(line, vendor, num);
	}
	fclose(f);
	if (!vendor[0] || num[0] < 0 || num[1] < 0 || num[2] < 0)
		return -ENOENT;
	return selfmon_fmt__print(buf, size, "%s-%ld-%lX-%lX", vendor, num[0], num[1], num[2]) < (int)size ?
		       0 :
		       -ENAMETOOLONG;
}
#endif

const struct selfmon_arch selfmon_arch__x86 = {
	.name = "x86_64",
	.prepare = x86_prepare,
	.retry = selfmon_arch__no_retry,
	.raw_instructions = x86_raw_instructions,
#ifdef CONFIG_PMU_EVENTS
	.cpu_id = x86_cpu_id,
#endif
};
