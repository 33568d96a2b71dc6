// SPDX-License-Identifier: MIT
/* No counter instruction: every event is read with read(2). */
#include "../../core/arch.h"

static enum selfmon_reason generic_prepare(const char *root, struct selfmon_event *ev,
					   bool want_long, unsigned int *notes)
{
	(void)root;
	(void)ev;
	(void)want_long;
	(void)notes;
	return SELFMON_REASON_ARCH;
}

static bool generic_retry(struct selfmon_event *ev, int err, unsigned int *notes)
{
	(void)ev;
	(void)err;
	(void)notes;
	return false;
}

const struct selfmon_arch selfmon_arch__generic = {
	.name = "generic",
	.prepare = generic_prepare,
	.retry = generic_retry,
};
