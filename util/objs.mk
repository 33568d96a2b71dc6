# SPDX-License-Identifier: MIT
# util/'s objects: libselfmon-util.a, and inside the library made local
# (the Makefile says why not in obj-y; core/objs.mk says how to list one).
util-y += json.o opts.o sort.o text.o
