#!/bin/bash
# SPDX-License-Identifier: MIT
# The arm64 part of `make check`: boot Debian's arm64 kernel on the emulated
# board and run the test bundle there, three times:
#   -cpu max         64-bit counters granted (pmc_width 64)
#   -cpu cortex-a72  64-bit counters refused: selfmon must fall back to 32-bit
#   biglittle        -cpu max, 4 CPUs, GICv3, mkdtb-biglittle.sh's tree:
#                    armv8_cortex_a53 on CPUs 0-1 and armv8_cortex_a72 on
#                    CPUs 2-3 (cpu_capacity 485 / 1024), as on RK3399.
#                    Several vCPUs share icount, so counts there are not exact.
# and, when SELFMON_MUSL_BUNDLE names the same bundle built against musl
# (make check does), once more:
#   max-musl         -cpu max, 1 CPU: the musl bundle, with the same exact counts
# and, given BUNDLE_612 (the bundle built against linux-source-6.12's
# libperf), once more on the second kernel line:
#   max-612          Debian's arm64 6.12 kernel (the rewritten arm_pmuv3
#                    driver), -cpu max, one vCPU, icount
# Each boot's TAP lands in CHECKDIR/arm64-<board>.tap for tests/summary.sh.
# The boots run SELFMON_BOOT_JOBS at a time (default 2, the longest first):
# each QEMU (TCG, one thread even with 4 vCPUs under icount) keeps one host
# core busy, and icount makes what the guest counts independent of the host's
# load. A boot's lines are printed when it ends.
# Usage: scripts/vm/check.sh BUNDLE_DIR CHECKDIR [VMDIR [BUNDLE_612]]
set -euo pipefail
bundle=$1 check=$2 vm=${3:-build/vm} bundle612=${4:-}
here=$(dirname "$0")

image=$("$here/fetch-kernel.sh" "$vm")
"$here/mkinitramfs.sh" "$bundle" "$vm/busybox" "$vm/selfmon-tests.cpio"
if [ -n "${SELFMON_MUSL_BUNDLE:-}" ]; then
	"$here/mkinitramfs.sh" "$SELFMON_MUSL_BUNDLE" "$vm/busybox" "$vm/selfmon-tests-musl.cpio"
fi
if [ -n "$bundle612" ]; then
	image612=$("$here/fetch-kernel.sh" "$vm" 6.12)
	"$here/mkinitramfs.sh" "$bundle612" "$vm/busybox" "$vm/selfmon-tests-612.cpio"
fi
mkdir -p "$check"

# The big.LITTLE tree is QEMU's own, edited: rebuild it when the script or
# QEMU changes.
bl_smp=4
bl_dtb="$vm/biglittle-$bl_smp.dtb"
qemu=$(command -v qemu-system-aarch64 || true)
if [ ! -s "$bl_dtb" ] || [ "$here/mkdtb-biglittle.sh" -nt "$bl_dtb" ] ||
	{ [ -n "$qemu" ] && [ "$qemu" -nt "$bl_dtb" ]; }; then
	"$here/mkdtb-biglittle.sh" "$bl_smp" "$bl_dtb" || rm -f "$bl_dtb"
fi

# A boot runs the whole bundle under TCG with icount: about 2 to 3 minutes on
# an idle core, more on a loaded one (two boots at once beside six other
# builds here: 540 s each for -cpu max and max-musl). The limit catches a
# hang, not a slow host.
boot_timeout=${SELFMON_BOOT_TIMEOUT:-900}
status=0
# board cpu expect_long smp machine-opts dtb extra-append [image initramfs]
boot() {
	local board=$1 cpu=$2 long=$3 smp=$4 mopts=$5 dtb=$6 extra=$7
	local image=${8:-$image} cpio=${9:-$vm/selfmon-tests.cpio}
	local log="$check/arm64-$board.log" tap="$check/arm64-$board.tap"
	local name rc=0 start=$SECONDS
	if [ "$board" = "$cpu" ]; then name="-cpu $cpu"; else name=$board; fi
	echo "vm: booting $(basename "$image") on $name (icount, $smp CPU$([ "$smp" -eq 1 ] || echo s))"
	: >"$log"
	if [ -n "$dtb" ] && [ ! -s "$dtb" ]; then
		echo "vm: $name: no device tree $dtb (mkdtb-biglittle.sh failed above)" >"$log"
		rc=1
	else
		"$here/run.sh" --cpu "$cpu" --smp "$smp" --timeout "$boot_timeout" \
			--machine-opts "$mopts" ${dtb:+--dtb "$dtb"} \
			--append "${extra:+$extra }selfmon.expect_user_read=1 selfmon.expect_long=$long" \
			"$image" "$cpio" "$log" >/dev/null || rc=$?
	fi
	# The console adds \r; kernel lines are not TAP. Name the board in each line.
	tr -d '\r' <"$log" | grep -aE '^(not )?ok [0-9-]' | sed "s/^\(\(not \)\{0,1\}ok [0-9-]*\)/\1 [arm64 $board]/" >"$tap" || true
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$tap"; then
		echo "not ok - [arm64 $board] the VM run failed (status $rc): see $log" >>"$tap"
	fi
	# What the board measured: the path taken and the exact counts.
	tr -d '\r' <"$log" | sed -n 's/^# tests\/selftests\/arm64\/[^:]*:[0-9]*:\([^:]*\):/vm: '"$name"': \1: /p' || true
	tr -d '\r' <"$log" | grep -aE '^[0-9]+ passed, [0-9]+ failed' | sed "s/^/vm: $name: /" || true
	echo "vm: $name took $((SECONDS - start)) s, status $rc (log: $log)"
	return "$rc"
}

# start_boot ARGS...: boot ARGS in the background once a slot is free; its
# lines go to arm64-<board>.out, its status to arm64-<board>.rc.
boot_jobs=${SELFMON_BOOT_JOBS:-2}
case "$boot_jobs" in ''|*[!0-9]*|0) echo "vm: SELFMON_BOOT_JOBS='$boot_jobs': give a number of boots at once (1 or more)" >&2; exit 2 ;; esac
boards=()
start_boot() {
	while [ "$(jobs -pr | wc -l)" -ge "$boot_jobs" ]; do wait -n || true; done
	rm -f "$check/arm64-$1.rc"
	echo "vm: starting the $1 boot (its lines follow when the boots end)"
	{ rc=0; boot "$@" || rc=$?; echo "$rc" >"$check/arm64-$1.rc"; } >"$check/arm64-$1.out" 2>&1 &
	boards+=("$1")
}

# The longest first, in an order that ends the two lanes together with the
# last clean-clone run's times (cortex-a72 182 s, musl 126 s, 6.12 98 s,
# max 110 s, big.LITTLE 84 s: cortex-a72 then max, 292 s; musl, 6.12, then
# big.LITTLE, 308 s).
start_boot cortex-a72 cortex-a72 0 1 "" "" "selfmon.expect_threshold=0"
if [ -n "${SELFMON_MUSL_BUNDLE:-}" ]; then
	start_boot max-musl max 1 1 "" "" "selfmon.expect_threshold=0" "$image" "$vm/selfmon-tests-musl.cpio"
fi
# The 6.1 boots declare the 6.1 driver's format (no threshold terms); the
# 6.12 boot the rewritten arm_pmuv3's (threshold, threshold_compare,
# threshold_count; tests/selftests/arm64/threshold_test.c).
# cryptomgr.notests=1: 6.12 runs the crypto self-tests in cryptomgr_test
# kthreads for seconds after boot (under TCG), which then take the CPU from
# the tests: a 1.5 ms region was switched out for a whole 4 ms tick about
# every other time, and bench rows lost every repetition to the switch.
if [ -n "$bundle612" ]; then
	start_boot max-612 max 1 1 "" "" "selfmon.expect_threshold=1 cryptomgr.notests=1" \
		"$image612" "$vm/selfmon-tests-612.cpio"
fi
start_boot max max 1 1 "" "" "selfmon.expect_threshold=0"
start_boot biglittle max 1 "$bl_smp" gic-version=3 "$bl_dtb" "selfmon.board=biglittle selfmon.expect_threshold=0"
wait
for b in "${boards[@]}"; do
	cat "$check/arm64-$b.out"
	rc=$(cat "$check/arm64-$b.rc" 2>/dev/null || echo 1)
	[ "$rc" = 0 ] || status=1
done
exit $status
