// SPDX-License-Identifier: MIT
/*
 * A plugin with markers (tests/check_plugin.sh): a shared object that a
 * program dlopen()s, calls and dlclose()s before exit. Its regions, both
 * forms, must be in the program's report at exit.
 */
#include <selfmon/marker.h>

int plugin_work(int n);
int plugin_unresolved(int *sites);

static volatile unsigned long sink;

/* plugin_unresolved() - of this plugin's @sites, how many no call has resolved. */
int plugin_unresolved(int *sites)
{
	int n = 0;

	*sites = 0;
	for (struct selfmon_marker_site *s = __start_selfmon_sites; s && s < __stop_selfmon_sites; s++) {
		++*sites;
		n += s->marker == (struct selfmon_marker *)s;
	}
	return n;
}

/* plugin_work() - @n pairs of the cached form, then one by name. Return: 0. */
int plugin_work(int n)
{
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("plugin loop");
		sink += (unsigned long)i;
		SELFMON_MARKER_END("plugin loop");
	}
	selfmon_marker__begin("plugin by name");
	sink++;
	selfmon_marker__end("plugin by name");
	return 0;
}
