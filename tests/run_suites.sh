#!/bin/sh
# Run test binaries, appending their TAP to OUT. A binary that crashes, exits
# non-zero with no failed test, or runs fewer tests than it planned gets a
# "not ok" line of its own, so the summary cannot miss it.
# POSIX sh: the same script runs on the host, in the emulated board's
# busybox and on a real board.
# Usage: run_suites.sh OUT.tap BINARY...
set -u
out=$1
shift
: >"$out"
cur="$out.cur"
for bin in "$@"; do
	[ -x "$bin" ] || continue
	name=${bin##*/}
	echo "# suite: $bin" | tee -a "$out"
	# cmocka prints TAP when asked; kselftest always does.
	CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$cur" 2>&1
	rc=$?
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
