// SPDX-License-Identifier: MIT
#include <errno.h>

#include "number.h"

/* A digit's value, or 36 (no base has it) for anything else. */
static unsigned int digit(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned int)(c - '0');
	if (c >= 'a' && c <= 'z')
		return (unsigned int)(c - 'a') + 10;
	if (c >= 'A' && c <= 'Z')
		return (unsigned int)(c - 'A') + 10;
	return 36;
}

int selfmon_number__parse(const char **p, unsigned int base, uint64_t max, uint64_t *val)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned int d;
	int err = 0;

	if (digit(*s) >= base) {
		err = -EINVAL;
		goto out;
	}
	for (; (d = digit(*s)) < base; s++) {
		if (d > max || v > (max - d) / base) {
			err = -ERANGE;
			goto out;
		}
		v = v * base + d;
	}
	*val = v;
	*p = s;
out:
	return err;
}
