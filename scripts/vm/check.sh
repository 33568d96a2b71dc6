#!/bin/bash
# The arm64 part of `make check`: boot Debian's arm64 kernel on the emulated
# board and run the test bundle there, twice:
#   -cpu max         64-bit counters granted (pmc_width 64)
#   -cpu cortex-a72  64-bit counters refused: selfmon must fall back to 32-bit
# Each boot's TAP lands in CHECKDIR/arm64-<cpu>.tap for tests/summary.sh.
# Usage: scripts/vm/check.sh BUNDLE_DIR CHECKDIR [VMDIR]
set -euo pipefail
bundle=$1 check=$2 vm=${3:-build/vm}
here=$(dirname "$0")

image=$("$here/fetch-kernel.sh" "$vm")
"$here/mkinitramfs.sh" "$bundle" "$vm/busybox" "$vm/selfmon-tests.cpio"
mkdir -p "$check"

status=0
for board in "max 1" "cortex-a72 0"; do
	set -- $board
	cpu=$1 long=$2
	log="$check/arm64-$cpu.log" tap="$check/arm64-$cpu.tap"
	echo "vm: booting $(basename "$image") on -cpu $cpu (icount, 1 CPU)"
	start=$SECONDS
	rc=0
	"$here/run.sh" --cpu "$cpu" --timeout 240 \
		--append "selfmon.expect_user_read=1 selfmon.expect_long=$long" \
		"$image" "$vm/selfmon-tests.cpio" "$log" >/dev/null || rc=$?
	# The console adds \r; kernel lines are not TAP. Name the board in each line.
	tr -d '\r' <"$log" | grep -aE '^(not )?ok [0-9-]' | sed "s/^\(\(not \)\{0,1\}ok [0-9-]*\)/\1 [arm64 $cpu]/" >"$tap" || true
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$tap"; then
		echo "not ok - [arm64 $cpu] the VM run failed (status $rc): see $log" >>"$tap"
	fi
	# What the board measured: the path taken and the exact counts.
	tr -d '\r' <"$log" | sed -n 's/^# tests\/selftests\/arm64\/[^:]*:[0-9]*:\([^:]*\):/vm: -cpu '"$cpu"': \1: /p' || true
	tr -d '\r' <"$log" | grep -aE '^[0-9]+ passed, [0-9]+ failed' | sed "s/^/vm: -cpu $cpu: /" || true
	echo "vm: -cpu $cpu took $((SECONDS - start)) s, status $rc (log: $log)"
	[ "$rc" -eq 0 ] || status=1
done
exit $status
