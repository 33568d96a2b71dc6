// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "pin.h"

int selfmon_pin__parse(const char *policy, struct selfmon_pin *pin)
{
	static const struct { const char *name; enum selfmon_pin_kind kind; } words[] = {
		{ "none", SELFMON_PIN_NONE }, { "current", SELFMON_PIN_CURRENT },
		{ "big", SELFMON_PIN_BIG }, { "little", SELFMON_PIN_LITTLE },
	};
	const char *list = policy;

	memset(pin, 0, sizeof(*pin));
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(policy, words[i].name)) {
			pin->kind = words[i].kind;
			return 0;
		}
	}
	if (!strncmp(policy, "cpus:", 5))
		list += 5;
	if (list != policy || (*list >= '0' && *list <= '9')) {
		pin->kind = SELFMON_PIN_CPUS;
		if (selfmon_cpulist__parse(list, &pin->cpus) || !CPU_COUNT(&pin->cpus))
			return selfmon__err(-EINVAL, "pinning policy '%s': not a CPU list", policy);
		return 0;
	}
	if (!*policy || strlen(policy) >= sizeof(pin->pmu) || strchr(policy, '/'))
		return selfmon__err(-EINVAL, "pinning policy '%s': use none, current, big, little, "
				    "a CPU list or a core PMU's name", policy);
	pin->kind = SELFMON_PIN_PMU;
	strcpy(pin->pmu, policy);
	return 0;
}

int selfmon_pin__resolve(const struct selfmon_pin *pin, const struct selfmon_topology *t,
			 int cpu, const struct selfmon_cluster **cl, cpu_set_t *cpus)
{
	const struct selfmon_cluster *c = NULL;
	char have[512];

	*cl = NULL;
	if (pin->kind == SELFMON_PIN_NONE)
		return 0;
	selfmon_topology__describe(t, have, sizeof(have));
	if (!t->nr)
		return selfmon__err(-ENOENT, "cannot pin to a cluster: %s on this machine", have);

	switch (pin->kind) {
	case SELFMON_PIN_CURRENT:
		c = selfmon_topology__of_cpu(t, cpu);
		if (!c)
			return selfmon__err(-ENOENT, "CPU %d, where the thread runs, has no CPU PMU (clusters: %s)",
					    cpu, have);
		break;
	case SELFMON_PIN_BIG:
	case SELFMON_PIN_LITTLE:
		c = pin->kind == SELFMON_PIN_BIG ? selfmon_topology__big(t) : selfmon_topology__little(t);
		if (!c)
			return selfmon__err(-EINVAL, "cannot tell the %s cluster among %s: pin to a PMU or "
					    "a CPU list instead", pin->kind == SELFMON_PIN_BIG ? "big" : "little",
					    have);
		break;
	case SELFMON_PIN_PMU:
		c = selfmon_topology__find(t, pin->pmu);
		if (!c)
			return selfmon__err(-ENOENT, "no CPU PMU '%s' to pin to; clusters: %s", pin->pmu, have);
		break;
	case SELFMON_PIN_CPUS:
		for (int i = 0; i < CPU_SETSIZE; i++) {
			const struct selfmon_cluster *of;

			if (!CPU_ISSET(i, &pin->cpus))
				continue;
			of = selfmon_topology__of_cpu(t, i);
			if (!of)
				return selfmon__err(-ENOENT, "CPU %d is in no cluster (%s)", i, have);
			if (c && of != c)
				return selfmon__err(-EINVAL, "the CPU list spans two clusters, %s and %s: "
						    "user-space reads need one core type (%s)",
						    c->pmu->name, of->pmu->name, have);
			c = of;
		}
		*cl = c;
		*cpus = pin->cpus;
		return 0;
	case SELFMON_PIN_NONE:
		break;
	}
	*cl = c;
	*cpus = c->cpus;
	return 0;
}
