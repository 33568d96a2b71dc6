# SPDX-License-Identifier: MIT
# sample/'s objects, part of the library (core/objs.mk says how to list one).
obj-y += cursor.o elf.o maps.o perfdata.o record.o record_sample.o ring.o sampler.o
obj-y += sampler_drain.o symbols.o
