// SPDX-License-Identifier: MIT
/*
 * Count regions of a C++ program: a region object ends its region however
 * its scope is left, an exception too; the report comes at exit.
 */
#include <cstdio>
#include <stdexcept>
#include <vector>
#include <selfmon/marker.hpp>

static unsigned long checksum(const std::vector<unsigned long> &v)
{
	SELFMON_MARKER_REGION("checksum");
	unsigned long sum = 0;

	for (unsigned long x : v)
		sum += x;
	if (sum % 7 == 0)
		throw std::runtime_error("a multiple of 7"); /* "checksum" ends here too */
	return sum;
}

int main()
{
	std::vector<unsigned long> v;
	unsigned long total = 0;
	int refused = 0;

	for (unsigned long i = 0; i < 100000; i++)
		v.push_back(i);
	for (int round = 0; round < 10; round++) {
		v[0] = static_cast<unsigned long>(round);
		try {
			total += checksum(v);
		} catch (const std::runtime_error &) {
			refused++;
		}
	}
	std::printf("10 checksums, %d refused: total %lu\n", refused, total);
	return 0;
}
