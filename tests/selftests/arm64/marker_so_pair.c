// SPDX-License-Identifier: MIT
/*
 * A user's shared object with markers, for marker_shared.c: built once
 * against libselfmon.so (a plugin) and once with libselfmon_pic.a inside
 * (scripts/mk/markers.mk). Its loops are what the board test meters, its
 * region of 3000 nops what it checks for exactness.
 */
#include <stdint.h>
#include <selfmon/marker.h>
#include <selfmon/marker_result.h>

void so_loop_cached(void *arg, int n);
void so_loop_empty(void *arg, int n);
void so_region_3000(void);
int so_region_min(const char *region, int64_t *min, uint64_t *calls, uint64_t *fallbacks);

/* so_loop_cached() - @n empty cached pairs, as marker_board_test's loop_cached(). */
void so_loop_cached(void *arg, int n)
{
	(void)arg;
	for (int i = 0; i < n; i++) {
		SELFMON_MARKER_BEGIN("so pair");
		SELFMON_MARKER_END("so pair");
	}
}

/* so_loop_empty() - the same loop with no pair: what the meter subtracts. */
void so_loop_empty(void *arg, int n)
{
	for (int i = 0; i < n; i++)
		__asm__ __volatile__("" : : "r"(arg) : "memory");
}

/* so_region_3000() - a region of exactly 3000 instructions. */
void so_region_3000(void)
{
	SELFMON_MARKER_BEGIN("so 3000");
	__asm__ __volatile__(".rept 3000\n\tnop\n\t.endr");
	SELFMON_MARKER_END("so 3000");
}

/*
 * so_region_min() - @region's least first event per call, its calls and its
 * read(2) fallbacks, as
 * the library this object calls (libselfmon.so, or its own copy) has them.
 */
int so_region_min(const char *region, int64_t *min, uint64_t *calls, uint64_t *fallbacks)
{
	struct selfmon_marker_result r = { .sz = sizeof(r) };
	int err = selfmon_marker__result(region, -1, &r);

	if (err)
		return err;
	*min = r.event[0].min;
	*calls = r.calls;
	*fallbacks = r.fallbacks;
	return 0;
}
