// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: a PMU format file (selfmon_format__parse), as sysfs
 * would hold it. A spec that parses must name at most 64 bits, each below 64,
 * and applying the largest value it holds must set exactly its mask.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "../../core/format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct selfmon_format fmt;
	struct perf_event_attr attr;
	uint64_t all, *field;
	char *spec = malloc(size + 1);

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (selfmon_format__parse(spec, &fmt))
		goto out;
	if (fmt.nr_bits < 1 || fmt.nr_bits > 64 || fmt.field < 0 || fmt.field > 2)
		abort();
	for (int i = 0; i < fmt.nr_bits; i++)
		if (fmt.bits[i] > 63)
			abort();
	memset(&attr, 0, sizeof(attr));
	all = fmt.nr_bits == 64 ? UINT64_MAX : ((uint64_t)1 << fmt.nr_bits) - 1;
	if (selfmon_format__apply(&fmt, all, &attr))
		abort();
	field = fmt.field == 0 ? (uint64_t *)&attr.config : fmt.field == 1 ? (uint64_t *)&attr.config1 :
		(uint64_t *)&attr.config2;
	if (*field != selfmon_format__mask(&fmt))
		abort();
	/* one more bit than it holds never fits */
	if (fmt.nr_bits < 64 && selfmon_format__apply(&fmt, all + 1, &attr) == 0)
		abort();
	selfmon_format__clear(&fmt, &attr);
	if (*field)
		abort();
out:
	free(spec);
	return 0;
}
