# SPDX-License-Identifier: MIT
# core/'s objects (the Makefile's "objects" block reads each directory's
# objs.mk): every .c of core/ is named here once, in the list its build
# takes. A source named nowhere stops the build, naming itself.
#   obj-y += x.o                          always in the library
#   obj-$(CONFIG_FOO) += x.o              with FOO only
#   obj-$(call off,CONFIG_FOO) += x_none.o   FOO's stubs, without it
# util/objs.mk (util-y) and tools/objs.mk (cli-y, prog-y) list the other kinds.

obj-y += closest.o counter.o cpulist.o dir.o error.o event.o event_same.o fmt.o format.o
obj-y += list.o machine.o number.o outfile.o owner.o pmu.o refusal.o set.o set_read.o
obj-y += arch.o stats.o sysfs.o topology.o
# The memory of a set and of libperf: the C library's, or an arena of its own.
obj-$(call off,CONFIG_SMALL_HEAP) += heap.o
obj-$(CONFIG_SMALL_HEAP) += heap_small.o
# An errno's text in messages: the C library's sentence, or the error's name.
obj-$(CONFIG_ERRNO_TEXT) += errtext.o
obj-$(call off,CONFIG_ERRNO_TEXT) += errtext_names.o
# Pinning to one core type; without it "none" is the only policy (pin_none.c).
obj-$(CONFIG_PINNING) += pin.o
obj-$(call off,CONFIG_PINNING) += pin_none.o
# selfmon_metrics__split(): any build tells a list's metrics from its events.
obj-y += metric_split.o

# perf event groups, through libperf's evlist; without them a group is
# refused (group_none.c), and a static program keeps no scanf (Kconfig).
obj-$(CONFIG_GROUPS) += group.o
obj-$(call off,CONFIG_GROUPS) += group_none.o

# The kernel's pmu-events tables: event names and metrics. Without them
# <selfmon/metric.h>'s stubs say so, and the event parser finds no table
# name (inline, core/event_table_none.h: the smallest image's size budget).
obj-$(CONFIG_PMU_EVENTS) += pmu_events.o event_table.o
obj-$(CONFIG_PMU_EVENTS) += metric.o metric_api.o metric_expr.o metric_list.o metric_share.o
obj-$(call off,CONFIG_PMU_EVENTS) += metric_none.o
