// SPDX-License-Identifier: MIT
/* Regions by name, for names made at run time (a lookup at each call). */
#include <stdio.h>
#include <selfmon/marker.h>

int main(int argc, char **argv)
{
	char name[SELFMON_MARKER_NAME_MAX + 1];

	for (int i = 1; i < argc; i++) {
		snprintf(name, sizeof(name), "arg-%d", i);
		selfmon_marker__begin(name);
		puts(argv[i]);
		selfmon_marker__end(name);
	}
	return 0;
}
