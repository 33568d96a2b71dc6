#!/bin/sh
# SPDX-License-Identifier: MIT
# On the board (scripts/board-run --sysroot, make check-run-shared-pair):
# each build of marker_shared that came along (bound at load, lazily, and
# on the cortex-a72 boot without PIE with BTI's and with PAC's PLT) beside
# its two shared objects and libselfmon.so.0, which LD_LIBRARY_PATH finds
# there. Their TAP and their logs (stderr, each line "# ...") on stdout;
# fails if any fails, or if none came.
progs="marker_shared marker_shared_lazy marker_shared_bti marker_shared_pacplt"
d=
for p in $progs; do
	f=$(command -v "$p") && d=$(dirname "$f") && break
done
if [ -z "$d" ]; then
	echo "not ok - no build of marker_shared came to the board"
	exit 1
fi
export LD_LIBRARY_PATH="$d"
unset LD_BIND_NOW
rc=0
for p in $progs; do
	[ -x "$d/$p" ] || continue
	"$d/$p" 2>&1 || rc=1
done
exit $rc
