// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: kernel CPU lists (selfmon_cpulist__parse). A list that
 * parses prints (selfmon_cpulist__format) to a list that parses back to the
 * same set; the printed form is canonical, so printing is a fixed point.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/cpulist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[CPU_SETSIZE * 6], again[CPU_SETSIZE * 6];
	cpu_set_t set, back;
	char *list = malloc(size + 1);

	if (!list)
		return 0;
	memcpy(list, data, size);
	list[size] = '\0';
	if (selfmon_cpulist__parse(list, &set))
		goto out;
	if (selfmon_cpulist__format(&set, text, sizeof(text)))
		abort();
	if (selfmon_cpulist__parse(text, &back) || !CPU_EQUAL(&set, &back))
		abort();
	if (selfmon_cpulist__format(&back, again, sizeof(again)) || strcmp(text, again))
		abort();
	/* a buffer too short is -ENOSPC, never an overflow */
	if (text[0] && selfmon_cpulist__format(&set, again, strlen(text)) == 0)
		abort();
out:
	free(list);
	return 0;
}
