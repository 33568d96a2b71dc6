# SPDX-License-Identifier: MIT
# bench/'s objects, part of the library (core/objs.mk says how to list one).
obj-y += bench.o bench_run.o budget.o calib.o
obj-y += marker.o marker_output.o marker_report.o marker_result.o marker_row.o marker_say.o
obj-y += marker_module.o marker_slow.o marker_registry.o marker_thread.o
obj-y += report.o report_table.o
