// SPDX-License-Identifier: MIT
/* errtext.h by the C library: the build with CONFIG_ERRNO_TEXT. */
#include <string.h>

#include "errtext.h"

const char *selfmon_errtext__str(int errnum)
{
	return strerror(errnum);
}
