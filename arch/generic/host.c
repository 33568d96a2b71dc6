// SPDX-License-Identifier: MIT
/* Built only when this arch is the configured one: core/ asks here, not in #ifdefs. */
#include "../../core/arch_int.h"

const struct selfmon_arch *selfmon_arch__host(void)
{
	return &selfmon_arch__generic;
}

/* No user-space read here that a migration could make fault. */
int selfmon_arch__guard_user_reads(void)
{
	return 0;
}
