// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"

int selfmon_cpulist__parse(const char *list, cpu_set_t *set)
{
	const char *p = list;

	CPU_ZERO(set);
	while (*p && *p != '\n') {
		char *end;
		long lo, hi;

		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || lo >= CPU_SETSIZE)
			return -EINVAL;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(++p, &end, 10);
			if (end == p || hi < lo || hi >= CPU_SETSIZE)
				return -EINVAL;
			p = end;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (*p == ',' && p[1] && p[1] != '\n')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int selfmon_cpulist__format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < CPU_SETSIZE) {
		int lo, n;

		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set))
			c++;
		n = lo == c ? snprintf(buf + len, size - len, "%s%d", len ? "," : "", lo)
			    : snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", lo, c);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += (size_t)n;
		c++;
	}
	return 0;
}
