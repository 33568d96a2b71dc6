// SPDX-License-Identifier: MIT
/* A region that ends wherever its block is left. */
#include <stddef.h>
#include <selfmon/marker.h>

static int find(const int *v, size_t n, int key)
{
	SELFMON_MARKER_SCOPE("find");
	for (size_t i = 0; i < n; i++)
		if (v[i] == key)
			return (int)i; /* "find" ends here */
	return -1; /* and here */
}

int main(void)
{
	static const int v[] = { 3, 1, 4, 1, 5, 9, 2, 6 };

	return find(v, sizeof(v) / sizeof(v[0]), 9) == 5 ? 0 : 1;
}
