// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "sysfs.h"

#define DEVICES "/sys/bus/event_source/devices"

static bool is_core_name(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom");
}

static void load_formats(struct selfmon_pmu *pmu, const char *root)
{
	char path[PATH_MAX], spec[128];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s" DEVICES "/%s/format", root, pmu->name);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) && pmu->nr_formats < SELFMON_PMU_MAX_FORMATS) {
		struct selfmon_format *f = &pmu->formats[pmu->nr_formats];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(f->name))
			continue;
		snprintf(path, sizeof(path), DEVICES "/%s/format/%s", pmu->name, de->d_name);
		/* A term we cannot parse cannot be used; the rest of the PMU still can. */
		if (selfmon_sysfs__read(root, path, spec, sizeof(spec)) < 0 ||
		    selfmon_format__parse(spec, f))
			continue;
		strcpy(f->name, de->d_name);
		pmu->nr_formats++;
	}
	closedir(dir);
}

static int load_one(struct selfmon_pmu *pmu, const char *root, const char *name)
{
	char path[PATH_MAX], buf[4096];
	long val;
	int err;

	memset(pmu, 0, sizeof(*pmu));
	if (strlen(name) >= sizeof(pmu->name))
		return -ENAMETOOLONG;
	strcpy(pmu->name, name);

	snprintf(path, sizeof(path), DEVICES "/%s/type", name);
	err = selfmon_sysfs__read_long(root, path, &val);
	if (err)
		return err;
	pmu->type = (uint32_t)val;

	/* Core PMUs name their CPUs in 'cpus'; uncore ones in 'cpumask'. */
	snprintf(path, sizeof(path), DEVICES "/%s/cpus", name);
	err = selfmon_sysfs__read(root, path, buf, sizeof(buf));
	if (err >= 0) {
		pmu->core = true;
	} else {
		snprintf(path, sizeof(path), DEVICES "/%s/cpumask", name);
		err = selfmon_sysfs__read(root, path, buf, sizeof(buf));
	}
	if (err >= 0 && !selfmon_cpulist__parse(buf, &pmu->cpus))
		pmu->has_cpus = true;
	if (is_core_name(name))
		pmu->core = true;

	snprintf(path, sizeof(path), DEVICES "/%s/rdpmc", name);
	pmu->rdpmc = selfmon_sysfs__read_long(root, path, &val) ? -1 : (int)val;

	load_formats(pmu, root);
	return 0;
}

static int by_type(const void *a, const void *b)
{
	const struct selfmon_pmu *x = a, *y = b;

	return x->type < y->type ? -1 : x->type > y->type;
}

int selfmon_pmus__load(struct selfmon_pmus *pmus, const char *root)
{
	char path[PATH_MAX];
	struct dirent *de;
	int err = 0, cap = 0;
	DIR *dir;

	pmus->root = root;
	pmus->nr = 0;
	pmus->pmu = NULL;
	snprintf(path, sizeof(path), "%s" DEVICES, root);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;

	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		if (pmus->nr == cap) {
			struct selfmon_pmu *n;

			cap = cap ? cap * 2 : 16;
			n = realloc(pmus->pmu, (size_t)cap * sizeof(*n));
			if (!n) {
				err = -ENOMEM;
				goto out;
			}
			pmus->pmu = n;
		}
		/* A PMU whose type cannot be read cannot be opened: skip it. */
		if (!load_one(&pmus->pmu[pmus->nr], root, de->d_name))
			pmus->nr++;
	}
	/* readdir order is not type order; the kernel's "first PMU" is the lowest type. */
	qsort(pmus->pmu, (size_t)pmus->nr, sizeof(*pmus->pmu), by_type);
out:
	closedir(dir);
	if (err)
		selfmon_pmus__free(pmus);
	return err;
}

void selfmon_pmus__free(struct selfmon_pmus *pmus)
{
	free(pmus->pmu);
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
	const struct selfmon_pmu *p;

	if ((p = selfmon_pmus__find(pmus, "cpu")) || (p = selfmon_pmus__find(pmus, "cpu_core")))
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
	snprintf(path, sizeof(path), DEVICES "/%s/events/%s", pmu->name, alias);
	return selfmon_sysfs__read(pmus->root, path, buf, size);
}
