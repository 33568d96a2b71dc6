#!/bin/sh
# SPDX-License-Identifier: MIT
# On the board (scripts/board-run --sysroot, make check-run-shared-pair):
# marker_shared beside its two shared objects and libselfmon.so.0, which
# LD_LIBRARY_PATH finds there. Its TAP on stdout.
d=$(dirname "$(command -v marker_shared)")
LD_LIBRARY_PATH=$d exec marker_shared
