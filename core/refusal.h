/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_REFUSAL_H
#define SELFMON_CORE_REFUSAL_H

#include "set.h"

/* Why the page said no, when the gates were open at open time. */
enum selfmon_reason selfmon_refusal__why(const struct selfmon_set *set,
					 const struct selfmon_counter *c);

#endif
