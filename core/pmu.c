// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "sysfs.h"
#include "fmt.h"
#include "dir.h"
#include "heap.h"

#define DEVICES "/sys/bus/event_source/devices"

static bool is_core_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom");
}

/* Append one line to the notes probe shows; a full buffer ends with "...". */
static void __attribute__((format(printf, 2, 3)))
note(struct selfmon_pmus *pmus, const char *fmt, ...)
{
	size_t len = strlen(pmus->notes), room = sizeof(pmus->notes) - len;
	va_list ap;
	int n;

	if (room < 5)
		return;
	va_start(ap, fmt);
	n = selfmon_fmt__vprint(pmus->notes + len, room - 4, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room - 4)
		strcpy(pmus->notes + sizeof(pmus->notes) - 5, "...\n");
	else
		strcpy(pmus->notes + len + n, "\n");
}

/* A directory name is untrusted text: control characters become '?'. */
static const char *printable(const char *name, char *buf, size_t size)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < size; i++) {
		buf[i] = name[i];
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			buf[i] = '?';
	}
	buf[i] = '\0';
	return buf;
}

static void load_formats(struct selfmon_pmus *pmus, struct selfmon_pmu *pmu)
{
	char path[PATH_MAX], spec[128], q[80];
	struct selfmon_dir dir;
	const char *name;

	selfmon_fmt__print(path, sizeof(path), "%s" DEVICES "/%s/format", pmus->root, pmu->name);
	if (selfmon_dir__open(&dir, path))
		return;
	while ((name = selfmon_dir__next(&dir)) && pmu->nr_formats < SELFMON_PMU_MAX_FORMATS) {
		struct selfmon_format *f = &pmu->formats[pmu->nr_formats];

		if (name[0] == '.' || strlen(name) >= sizeof(f->name))
			continue;
		selfmon_fmt__print(path, sizeof(path), DEVICES "/%s/format/%s", pmu->name, name);
		/* A term we cannot parse cannot be used; the rest of the PMU still can. */
		if (selfmon_sysfs__read(pmus->root, path, spec, sizeof(spec)) < 0 ||
		    selfmon_format__parse(spec, f)) {
			note(pmus,
			     "PMU '%s': format term '%s' unreadable or not 'config[12]:bits': term left out",
			     pmu->name, printable(name, q, sizeof(q)));
			continue;
		}
		strcpy(f->name, name);
		pmu->nr_formats++;
	}
	selfmon_dir__close(&dir);
}

/*
 * The CPUs of @pmu from its 'cpus' (core PMUs) or 'cpumask' (uncore) file.
 * Return: 0 (no file: every CPU), or a reason the file is wrong. A wrong file
 * leaves the PMU out: guessing "every CPU" would widen a cluster over its
 * neighbour's cores.
 */
static const char *load_cpus(struct selfmon_pmu *pmu, const char *root, const cpu_set_t *possible)
{
	static const char *const files[] = { "cpus", "cpumask" };
	char path[PATH_MAX], buf[4096];
	cpu_set_t both;
	int err = -ENOENT;

	for (int i = 0; i < 2 && err == -ENOENT; i++) {
		selfmon_fmt__print(path, sizeof(path), DEVICES "/%s/%s", pmu->name, files[i]);
		err = selfmon_sysfs__read(root, path, buf, sizeof(buf));
		pmu->core = err != -ENOENT && i == 0;
	}
	if (err == -ENOENT)
		return NULL;
	if (err < 0)
		return pmu->core ? "its 'cpus' file is unreadable" :
				   "its 'cpumask' file is unreadable";
	if (selfmon_cpulist__parse(buf, &pmu->cpus))
		return "its CPU list is not a CPU list";
	if (!CPU_COUNT(&pmu->cpus))
		return "its CPU list is empty";
	CPU_AND(&both, &pmu->cpus, possible);
	if (!CPU_EQUAL(&both, &pmu->cpus))
		return "its CPU list names CPUs beyond /sys/devices/system/cpu/possible";
	pmu->has_cpus = true;
	return NULL;
}

static int load_one(struct selfmon_pmus *pmus, struct selfmon_pmu *pmu, const char *name,
		    const cpu_set_t *possible)
{
	const char *why;
	char path[PATH_MAX], q[80];
	long val;
	int err;

	memset(pmu, 0, sizeof(*pmu));
	if (strlen(name) >= sizeof(pmu->name)) {
		note(pmus, "PMU '%.40s...': name too long: left out",
		     printable(name, q, sizeof(q)));
		return -ENAMETOOLONG;
	}
	strcpy(pmu->name, name);

	selfmon_fmt__print(path, sizeof(path), DEVICES "/%s/type", name);
	err = selfmon_sysfs__read_long(pmus->root, path, &val);
	if (!err && (val < 0 || val > UINT32_MAX))
		err = -ERANGE;
	if (err) {
		/* A PMU whose type cannot be read cannot be opened. */
		note(pmus, "PMU '%s': its 'type' file is %s: left out",
		     printable(name, q, sizeof(q)),
		     err == -ENOENT ? "missing" : "unreadable or not a type number");
		return err;
	}
	pmu->type = (uint32_t)val;

	why = load_cpus(pmu, pmus->root, possible);
	if (why) {
		note(pmus, "PMU '%s': %s: left out", printable(name, q, sizeof(q)), why);
		return -EINVAL;
	}
	if (is_core_name(name))
		pmu->core = true;

	selfmon_fmt__print(path, sizeof(path), DEVICES "/%s/rdpmc", name);
	err = selfmon_sysfs__read_long(pmus->root, path, &val);
	pmu->rdpmc = err || val < 0 || val > 2 ? -1 : (int)val;
	if (err != -ENOENT && pmu->rdpmc < 0)
		note(pmus,
		     "PMU '%s': its 'rdpmc' file is unreadable or not 0, 1 or 2: taken as absent",
		     pmu->name);

	load_formats(pmus, pmu);
	return 0;
}

/* The CPUs a PMU may name: 'possible', or any a cpu_set_t holds if that is unreadable. */
static void load_possible(struct selfmon_pmus *pmus, cpu_set_t *possible)
{
	char buf[4096];

	if (selfmon_sysfs__read(pmus->root, "/sys/devices/system/cpu/possible", buf, sizeof(buf)) >=
		    0 &&
	    !selfmon_cpulist__parse(buf, possible) && CPU_COUNT(possible))
		return;
	note(pmus,
	     "/sys/devices/system/cpu/possible is missing or not a CPU list: "
	     "PMU CPU lists checked against %d CPUs",
	     SELFMON_NR_CPUS);
	CPU_ZERO(possible);
	for (int c = 0; c < SELFMON_NR_CPUS; c++)
		CPU_SET(c, possible);
}

/*
 * Move the PMU just loaded at @at down to its place by type: readdir order
 * is not type order, and the kernel's "first PMU" is the lowest type. An
 * insertion as each one comes, not qsort(3): a machine has tens of PMUs, and
 * musl's qsort is 2 KB of the smallest image (docs/building.md, "Size").
 */
static void insert_by_type(struct selfmon_pmus *pmus, int at)
{
	struct selfmon_pmu p = pmus->pmu[at];
	int i = at;

	for (; i > 0 && pmus->pmu[i - 1].type > p.type; i--)
		pmus->pmu[i] = pmus->pmu[i - 1];
	pmus->pmu[i] = p;
}

/*
 * Room for twice as many PMUs. By malloc, copy and free rather than
 * realloc(3): the smallest static musl program calls no realloc otherwise,
 * and musl's is 1 KB of it (docs/building.md, "Size").
 */
static int grow(struct selfmon_pmus *pmus, int *cap)
{
	int more = *cap ? *cap * 2 : 16;
	struct selfmon_pmu *n = selfmon_heap__malloc((size_t)more * sizeof(*n));

	if (!n)
		return -ENOMEM;
	if (pmus->nr)
		memcpy(n, pmus->pmu, (size_t)pmus->nr * sizeof(*n));
	selfmon_heap__free(pmus->pmu);
	pmus->pmu = n;
	*cap = more;
	return 0;
}

int selfmon_pmus__load(struct selfmon_pmus *pmus, const char *root)
{
	char path[PATH_MAX];
	struct selfmon_dir dir;
	const char *name;
	int err = 0, cap = 0;
	cpu_set_t possible;

	pmus->root = root;
	pmus->nr = 0;
	pmus->pmu = NULL;
	pmus->notes[0] = '\0';
	selfmon_fmt__print(path, sizeof(path), "%s" DEVICES, root);
	err = selfmon_dir__open(&dir, path);
	if (err)
		return err == -ENOENT ? 0 : err;

	load_possible(pmus, &possible);
	while ((name = selfmon_dir__next(&dir))) {
		if (name[0] == '.')
			continue;
		if (pmus->nr == cap) {
			err = grow(pmus, &cap);
			if (err)
				goto out;
		}
		/* A PMU with a wrong file is left out, with a note: never guessed. */
		if (!load_one(pmus, &pmus->pmu[pmus->nr], name, &possible))
			insert_by_type(pmus, pmus->nr++);
	}
	/* A list cut short by a failed read would leave PMUs out unseen. */
	if (!name && errno)
		err = -errno;
out:
	selfmon_dir__close(&dir);
	if (err)
		selfmon_pmus__free(pmus);
	return err;
}

const char *selfmon_pmus__notes(const struct selfmon_pmus *pmus)
{
	return pmus->notes;
}

void selfmon_pmus__free(struct selfmon_pmus *pmus)
{
	selfmon_heap__free(pmus->pmu);
	pmus->pmu = NULL;
	pmus->nr = 0;
}

const struct selfmon_pmu *selfmon_pmus__find(const struct selfmon_pmus *pmus, const char *name)
{
	for (int i = 0; i < pmus->nr; i++)
		if (!strcmp(pmus->pmu[i].name, name))
			return &pmus->pmu[i];
	return NULL;
}

const struct selfmon_pmu *selfmon_pmus__by_type(const struct selfmon_pmus *pmus, uint32_t type)
{
	for (int i = 0; i < pmus->nr; i++)
		if (pmus->pmu[i].type == type)
			return &pmus->pmu[i];
	return NULL;
}

const struct selfmon_pmu *selfmon_pmus__default_core(const struct selfmon_pmus *pmus)
{
	const struct selfmon_pmu *p = selfmon_pmus__find(pmus, "cpu");

	if (!p)
		p = selfmon_pmus__find(pmus, "cpu_core");
	if (p)
		return p;
	for (int i = 0; i < pmus->nr; i++)
		if (pmus->pmu[i].core)
			return &pmus->pmu[i];
	return NULL;
}

int selfmon_pmus__nr_core(const struct selfmon_pmus *pmus)
{
	int n = 0;

	for (int i = 0; i < pmus->nr; i++)
		n += pmus->pmu[i].core;
	return n;
}

const struct selfmon_format *selfmon_pmu__format(const struct selfmon_pmu *pmu, const char *term)
{
	for (int i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, term))
			return &pmu->formats[i];
	return NULL;
}

int selfmon_pmu__alias(const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu,
		       const char *alias, char *buf, size_t size)
{
	char path[PATH_MAX];

	if (strchr(alias, '/'))
		return -EINVAL;
	selfmon_fmt__print(path, sizeof(path), DEVICES "/%s/events/%s", pmu->name, alias);
	return selfmon_sysfs__read(pmus->root, path, buf, size);
}
