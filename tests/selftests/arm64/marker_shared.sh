#!/bin/sh
# SPDX-License-Identifier: MIT
# On the board (scripts/board-run --sysroot, make check-run-shared-pair):
# marker_shared beside its two shared objects and libselfmon.so.0, which
# LD_LIBRARY_PATH finds there, then the same program bound lazily. Their
# TAP and their logs (stderr, each line "# ...") on stdout; fails if
# either fails.
d=$(dirname "$(command -v marker_shared)")
export LD_LIBRARY_PATH="$d"
unset LD_BIND_NOW
rc=0
marker_shared 2>&1 || rc=1
marker_shared_lazy 2>&1 || rc=1
exit $rc
