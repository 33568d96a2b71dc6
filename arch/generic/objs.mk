# SPDX-License-Identifier: MIT
# This arch's objects, read when it is the build's (SRCARCH); core/objs.mk
# says how to list one. gate.c and host.c implement core/arch_int.h for the
# library; kernels.c holds the CLI's fixed-count bench kernels.
obj-y += gate.o host.o
cli-y += kernels.o
