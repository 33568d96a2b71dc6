// SPDX-License-Identifier: MIT
/* Count a region of your program: the include and two marker lines; the report comes at exit. */
#include <selfmon/marker.h>

static volatile unsigned long sum;

int main(void)
{
	for (int i = 0; i < 10; i++) {
		SELFMON_MARKER_BEGIN("sum");
		for (unsigned long k = 0; k < 100000; k++)
			sum += k;
		SELFMON_MARKER_END("sum");
	}
	return 0;
}
