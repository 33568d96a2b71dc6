// SPDX-License-Identifier: MIT
/*
 * A program whose call sites are all resolved when markers start
 * (tests/check_plugin.sh), linked against libselfmon.so or the archive:
 * after its first pair every site in its own section "selfmon_sites"
 * holds its region, those it has not reached yet too, so that none is
 * looked up later inside another region; with markers off each holds 0,
 * and each by-name word of the arch's fixed sequence (arm64, the section
 * "selfmon_names") is 0: those pairs make no call. Prints
 * "sites N resolved R off O unresolved U; words W off X".
 */
#include <stdio.h>
#include <selfmon/marker.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	int n = 0, resolved = 0, off = 0, words = 0, words_off = 0;

	(void)argv;
	SELFMON_MARKER_BEGIN("sites first");
	sink++;
	SELFMON_MARKER_END("sites first");
	selfmon_marker__begin("sites by name");
	sink++;
	selfmon_marker__end("sites by name");
	for (struct selfmon_marker_site *s = __start_selfmon_sites; s && s < __stop_selfmon_sites; s++) {
		n++;
		off += !s->marker;
		resolved += s->marker && s->marker != (struct selfmon_marker *)s;
	}
	for (struct selfmon_priv_marker_named *w = __start_selfmon_names; w && w < __stop_selfmon_names; w++) {
		words++;
		words_off += !w->live;
	}
	printf("sites %d resolved %d off %d unresolved %d; words %d off %d\n", n, resolved, off,
	       n - resolved - off, words, words_off);
	/* Never reached: a pair whose sites no call has resolved. */
	if (argc > 5) {
		SELFMON_MARKER_BEGIN("sites later");
		sink++;
		SELFMON_MARKER_END("sites later");
	}
	return 0;
}
