// SPDX-License-Identifier: MIT
/*
 * SELFMON_MARKER_REGION() and selfmon::marker_region (<selfmon/marker.hpp>),
 * and SELFMON_MARKER_SCOPE() in C++: each region ends at every way out of
 * its scope, an exception among them. A region that did not end would make
 * the next entry a nested begin, which counts no call: so each region's
 * calls (the report's "iterations", checked by tests/check_cxx.sh) are the
 * entries of its scope. Run with SELFMON_EVENTS=task-clock and
 * SELFMON_OUTPUT=FILE.json.
 */
#include <cstdio>
#include <stdexcept>
#include <selfmon/marker.hpp>

static volatile unsigned long sink;

static void work(int n)
{
	for (int i = 0; i < n; i++)
		sink = sink + static_cast<unsigned long>(i);
}

static __attribute__((noinline)) int by_return(int i)
{
	SELFMON_MARKER_REGION("region by return");
	if (i & 1)
		return i;
	work(100);
	return 0;
}

static __attribute__((noinline)) void by_goto(int i)
{
	{
		SELFMON_MARKER_REGION("region by goto");
		if (i & 1)
			goto out;
		work(100);
	}
out:
	work(1);
}

static __attribute__((noinline)) void by_throw(int i)
{
	SELFMON_MARKER_REGION("region by throw");
	if (i & 1)
		throw std::runtime_error("odd");
	work(100);
}

static __attribute__((noinline)) void by_name_throw(int i)
{
	static const char *const names[] = { "by name region", "by name region" };
	selfmon::marker_region region(names[i & 1]);

	if (i & 1)
		throw std::runtime_error("odd");
	work(100);
}

static __attribute__((noinline)) void scope_throw(int i)
{
	SELFMON_MARKER_SCOPE("scope by throw");
	if (i & 1)
		throw std::runtime_error("odd");
	work(100);
}

int main()
{
	int caught = 0;

	for (int i = 0; i < 4; i++)
		by_return(i);
	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_REGION("region by break");
		if (i == 2)
			break;
		work(100);
	}
	for (int i = 0; i < 4; i++) {
		SELFMON_MARKER_REGION("region by continue");
		if (i & 1)
			continue;
		work(100);
	}
	for (int i = 0; i < 3; i++)
		by_goto(i);
	for (int i = 0; i < 4; i++) {
		try {
			by_throw(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
		try {
			by_name_throw(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
		try {
			scope_throw(i);
		} catch (const std::runtime_error &) {
			caught++;
		}
	}
	/* A region object and a pair of one region: one region, their calls added. */
	for (int i = 0; i < 2; i++) {
		SELFMON_MARKER_REGION("region and pair");
		work(100);
	}
	SELFMON_MARKER_BEGIN("region and pair");
	SELFMON_MARKER_END("region and pair");
	if (caught != 6) {
		std::fprintf(stderr, "caught %d exceptions, not 6\n", caught);
		return 1;
	}
	return 0;
}
