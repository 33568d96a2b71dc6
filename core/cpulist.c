// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"
#include "fmt.h"
#include "number.h"

/* A CPU number: decimal digits only, below SELFMON_NR_CPUS. */
static int cpu_number(const char **p, long *cpu)
{
	uint64_t v;
	int err = selfmon_number__parse(p, 10, SELFMON_NR_CPUS - 1, &v);

	if (!err)
		*cpu = (long)v;
	return err;
}

int selfmon_cpulist__parse(const char *list, cpu_set_t *set)
{
	const char *p = list;

	CPU_ZERO(set);
	while (*p && *p != '\n') {
		long lo, hi;

		if (cpu_number(&p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (cpu_number(&p, &hi) || hi < lo)
				return -EINVAL;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (*p == ',' && p[1] && p[1] != '\n')
			p++;
		else if (*p && (*p != '\n' || p[1]))
			return -EINVAL;
	}
	return 0;
}

int selfmon_cpulist__format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < SELFMON_NR_CPUS) {
		int lo, n;

		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < SELFMON_NR_CPUS && CPU_ISSET(c + 1, set))
			c++;
		n = lo == c ? selfmon_fmt__print(buf + len, size - len, "%s%d", len ? "," : "", lo) :
			      selfmon_fmt__print(buf + len, size - len, "%s%d-%d", len ? "," : "", lo, c);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += (size_t)n;
		c++;
	}
	return 0;
}
