#!/bin/sh
# SPDX-License-Identifier: MIT
# On the cortex-a72 board (scripts/board-run --cpu cortex-a72 --sysroot,
# make check-run-shared-pair): marker_shared built without PIE, with BTI's
# PLT entries (marker_shared_bti) and with PAC's (marker_shared_pacplt),
# beside its two shared objects and libselfmon.so.0. Their TAP and their
# logs on stdout; fails if either fails.
d=$(dirname "$(command -v marker_shared_bti)")
export LD_LIBRARY_PATH="$d"
unset LD_BIND_NOW
rc=0
marker_shared_bti 2>&1 || rc=1
marker_shared_pacplt 2>&1 || rc=1
exit $rc
