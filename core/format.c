// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "format.h"
#include "number.h"

static const char *const fields[] = { "config", "config1", "config2" };

int selfmon_format__parse(const char *spec, struct selfmon_format *fmt)
{
	const char *colon = strchr(spec, ':');
	const char *p;
	size_t len;
	int f;

	if (!colon)
		return -EINVAL;
	len = (size_t)(colon - spec);
	for (f = 2; f >= 0; f--)
		if (strlen(fields[f]) == len && !strncmp(spec, fields[f], len))
			break;
	if (f < 0)
		return -EINVAL;
	fmt->field = f;
	fmt->nr_bits = 0;

	p = colon + 1;
	for (;;) {
		uint64_t lo, hi;

		if (selfmon_number__parse(&p, 10, 63, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (selfmon_number__parse(&p, 10, 63, &hi) || hi < lo)
				return -EINVAL;
		}
		for (uint64_t b = lo; b <= hi; b++) {
			if (fmt->nr_bits == 64)
				return -EINVAL;
			fmt->bits[fmt->nr_bits++] = (uint8_t)b;
		}
		if (*p == '\0' || *p == '\n')
			return 0;
		if (*p++ != ',')
			return -EINVAL;
	}
}

static uint64_t *field_of(struct perf_event_attr *attr, int field)
{
	switch (field) {
	case 0:
		return (uint64_t *)&attr->config;
	case 1:
		return (uint64_t *)&attr->config1;
	default:
		return (uint64_t *)&attr->config2;
	}
}

int selfmon_format__apply(const struct selfmon_format *fmt, uint64_t value,
			  struct perf_event_attr *attr)
{
	uint64_t *dst = field_of(attr, fmt->field);
	uint64_t bits = 0;
	int i;

	if (fmt->nr_bits < 64 && value >> fmt->nr_bits)
		return -ERANGE;
	for (i = 0; i < fmt->nr_bits; i++)
		if (value >> i & 1)
			bits |= (uint64_t)1 << fmt->bits[i];
	*dst |= bits;
	return 0;
}

uint64_t selfmon_format__mask(const struct selfmon_format *fmt)
{
	uint64_t mask = 0;

	for (int i = 0; i < fmt->nr_bits; i++)
		mask |= (uint64_t)1 << fmt->bits[i];
	return mask;
}

void selfmon_format__clear(const struct selfmon_format *fmt, struct perf_event_attr *attr)
{
	*field_of(attr, fmt->field) &= ~selfmon_format__mask(fmt);
}
