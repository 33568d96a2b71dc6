// SPDX-License-Identifier: MIT
/* C++: a region object per scope; selfmon::marker_region for a name made at run time. */
#include <string>
#include <vector>
#include <selfmon/marker.hpp>

static long sum(const std::vector<long> &v)
{
	SELFMON_MARKER_REGION("sum");
	long s = 0;
	for (long x : v)
		s += x;
	return s;
}

int main()
{
	std::vector<long> v(1000, 1);
	std::string name = "phase-" + std::to_string(v.size());
	selfmon::marker_region phase(name.c_str());

	return sum(v) == 1000 ? 0 : 1;
}
