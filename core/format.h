/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_FORMAT_H
#define SELFMON_CORE_FORMAT_H

#include <stdint.h>

struct perf_event_attr;

/*
 * One file of a PMU's sysfs format/ directory: which bits of which attr
 * field a term fills, e.g. "config:0-15", "config1:1", "config1:1,6-10,44"
 * (ABI: Documentation/ABI/testing/sysfs-bus-event_source-devices-format).
 * The value's bit 0 goes to the first listed bit, bit 1 to the next, ...
 */
struct selfmon_format {
	char name[32];
	int field; /* 0: config, 1: config1, 2: config2 */
	int nr_bits;
	uint8_t bits[64]; /* attr bit for each value bit, in order */
};

/* Parse @spec into @fmt (name untouched). Return: 0 or -EINVAL. */
int selfmon_format__parse(const char *spec, struct selfmon_format *fmt);

/* OR @value into @attr as @fmt says. Return: 0, or -ERANGE if it does not fit. */
int selfmon_format__apply(const struct selfmon_format *fmt, uint64_t value,
			  struct perf_event_attr *attr);

/* Clear @fmt's bits in @attr. */
void selfmon_format__clear(const struct selfmon_format *fmt, struct perf_event_attr *attr);

/* Mask of @fmt's bits within its field. */
uint64_t selfmon_format__mask(const struct selfmon_format *fmt);

#endif
