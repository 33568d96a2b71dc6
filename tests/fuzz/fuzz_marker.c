// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the marker front end as a host program meets it.
 * The input is SELFMON_EVENTS up to the first NUL, then region names
 * separated by NULs; each name is begun and ended by name, every other one
 * ended twice (unbalanced) and the last left open; then the report, in the
 * format the first name's length picks, to /dev/null. Nothing may crash,
 * leak, or leave a message with a raw control byte; mk__reset() makes each
 * input a fresh process's first use.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/marker.h>
#include "../../bench/marker_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "table", "csv", "json" };
	char *buf = malloc(size + 1), *events, *p, *end;
	int k = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	end = buf + size;
	events = buf;
	p = buf + strlen(buf) + 1;
	setenv("SELFMON_EVENTS", events, 1);
	setenv("SELFMON_OUTPUT", "/dev/null", 1);
	setenv("SELFMON_FORMAT", formats[(p < end ? strlen(p) : 0) % 3], 1);
	for (; p < end && k < 64; p += strlen(p) + 1, k++) {
		selfmon_marker__begin(p);
		if (p + strlen(p) + 1 < end)
			selfmon_marker__end(p);
		if (k & 1)
			selfmon_marker__end(p);
	}
	selfmon_marker__begin(NULL);
	selfmon_marker__end(NULL);
	selfmon_marker__report();
	mk__reset();
	free(buf);
	return 0;
}
