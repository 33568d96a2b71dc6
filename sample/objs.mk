# SPDX-License-Identifier: MIT
# sample/'s objects, part of the library (core/objs.mk says how to list one).
obj-y += cursor.o elf.o elf_plt.o maps.o perfdata.o record.o record_sample.o ring.o
obj-y += sampler.o sampler_drain.o symbols.o
