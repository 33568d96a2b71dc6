// SPDX-License-Identifier: MIT
/* The test of OPTS_VALID() (util/opts.h). */
#include "opts.h"

bool util_opts_valid(const void *opts, size_t user_sz, size_t min_sz, size_t known_sz)
{
	const unsigned char *p = opts;

	if (user_sz < min_sz)
		return false;
	for (size_t i = known_sz; i < user_sz; i++)
		if (p[i])
			return false;
	return true;
}
