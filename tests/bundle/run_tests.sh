#!/bin/sh
# selfmon's test suites on an arm64 board, or on the emulated board of
# `make check` (which runs exactly this bundle). Run as root:
#   ./run_tests.sh
# It turns kernel.perf_user_access on for the run and restores it after,
# prints TAP and ends with "N passed, N failed, N skipped"; exit 0 only when
# nothing failed. What the machine must show can be stated, so that a test
# fails instead of skipping when it does not:
#   SELFMON_EXPECT_USER_READ=1   the PMU allows user reads (mrs)
#   SELFMON_EXPECT_LONG=0|1      64-bit counters are refused | granted
#   SELFMON_INEXACT=1            counts are not instruction-exact (emulated SMP)
#   SELFMON_BOARD=biglittle      the emulated big.LITTLE board: its layout is asserted
#   SELFMON_EXPECT_THRESHOLD=0|1 the core PMU's format/ lacks | has the threshold
#                                terms (arm_pmuv3 of the 6.12 line; 6.1 has none)
# (the emulated board passes them as selfmon.expect_* on the kernel command line).
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=${TMPDIR:-/tmp}

for arg in $(cat /proc/cmdline 2>/dev/null); do
	case "$arg" in
	selfmon.expect_user_read=*) export SELFMON_EXPECT_USER_READ="${arg#*=}" ;;
	selfmon.expect_long=*) export SELFMON_EXPECT_LONG="${arg#*=}" ;;
	selfmon.expect_threshold=*) export SELFMON_EXPECT_THRESHOLD="${arg#*=}" ;;
	# With several vCPUs QEMU's icount charges one vCPU's instructions to
	# another: counts are close, not exact, and the exact tests skip.
	selfmon.board=biglittle) export SELFMON_INEXACT=1 SELFMON_BOARD=biglittle ;;
	esac
done

sysctl=/proc/sys/kernel/perf_user_access
old=""
if [ -w "$sysctl" ]; then
	old=$(cat "$sysctl")
	echo 1 >"$sysctl"
	trap 'echo "$old" >"$sysctl"' EXIT
elif [ -e "$sysctl" ]; then
	echo "# not root: kernel.perf_user_access stays $(cat "$sysctl")"
fi

# The unit tests read the boards' sysfs trees from here.
export SELFMON_FIXTURES="$here/fixtures"

echo "TAP version 13"
echo "# selfmon tests on $(uname -r) $(uname -m)"
"$here/run_suites.sh" "$tmp/selfmon.tap" "$here"/bin/*
"$here/summary.sh" "$tmp/selfmon.tap"
