/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_MACHINE_H
#define SELFMON_CORE_MACHINE_H

#include <selfmon/machine.h>
#include "pmu.h"
#include "topology.h"

/*
 * What selfmon_set__open() borrows from a machine view: its PMUs, its
 * clusters (or the error loading them gave) and its root. Valid until
 * selfmon_machine__close().
 */
const struct selfmon_pmus *selfmon_machine__pmus_of(const struct selfmon_machine *m);
int selfmon_machine__topology_of(const struct selfmon_machine *m,
				 const struct selfmon_topology **t);

#endif
