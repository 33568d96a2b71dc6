// SPDX-License-Identifier: MIT
/*
 * What an arch without a hook of its own puts in struct selfmon_arch
 * (core/arch_int.h): written once here, not in each arch/<arch>/gate.c.
 */
#include "arch_int.h"

bool selfmon_arch__no_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	(void)ev;
	(void)err;
	(void)notes;
	return false;
}
