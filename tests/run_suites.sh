#!/bin/sh
# SPDX-License-Identifier: MIT
# Run test binaries, appending their TAP to OUT. A binary that crashes, exits
# non-zero with no failed test, or runs fewer tests than it planned gets a
# "not ok" line of its own, so the summary cannot miss it.
# POSIX sh: the same script runs on the host, in the emulated board's
# busybox and on a real board.
# SIGTERM, SIGINT or SIGHUP (Ctrl-C on make check; run_tests.sh forwards its
# signals as SIGTERM) ends the binary running, then this script by that signal.
# Usage: run_suites.sh OUT.tap BINARY...
set -u
unset CDPATH
out=$1
shift
: >"$out"
cur="$out.cur"
pid=""
stop() {
	# SIGTERM: a background job ignores SIGINT.
	if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null; fi
	rm -f "$cur"
	trap - "$1"
	kill -"$1" $$
}
for sig in TERM INT HUP; do
	# shellcheck disable=SC2064
	trap "stop $sig" "$sig"
done
for bin in "$@"; do
	[ -x "$bin" ] || continue
	name=${bin##*/}
	echo "# suite: $bin" | tee -a "$out"
	# cmocka prints TAP when asked; kselftest always does.
	# In the background, so that a signal here is handled at once (not when the
	# binary ends); stdin stays the script's.
	CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$cur" 2>&1 <&0 &
	pid=$!
	wait "$pid"
	rc=$?
	pid=""
	tee -a "$out" <"$cur"
	planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\).*/\1/p' "$cur" | head -n 1)
	ran=$(grep -cE '^(not )?ok [0-9]+' "$cur")
	failed=$(grep -E '^not ok' "$cur" | grep -cvi '# skip')
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		echo "not ok - $name exited with status $rc" | tee -a "$out"
	fi
	if [ -n "$planned" ] && [ "$ran" -lt "$planned" ]; then
		echo "not ok - $name ran $ran of the $planned tests it planned" | tee -a "$out"
	fi
done
rm -f "$cur"
