// SPDX-License-Identifier: MIT
/* Built only when this arch is the configured one: core/ asks here, not in #ifdefs. */
#include "../../core/arch.h"

const struct selfmon_arch *selfmon_arch__host(void)
{
	return &selfmon_arch__x86;
}
