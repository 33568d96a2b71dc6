#!/bin/sh
# SPDX-License-Identifier: MIT
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
# SIGTERM, SIGINT or SIGHUP (a LAVA timeout, a CI cancel, Ctrl-C) stop the
# suites, restore the sysctl, and end the script by that signal. Its files
# live in one private directory (mktemp -d), removed at the end.
# SELFMON_PROC_SYS (default /proc/sys) is where the sysctl is: a test seam.
set -u
# A CDPATH from the environment would make `cd` print and pick another folder.
unset CDPATH
here=$(cd "$(dirname "$0")" && pwd)

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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-tests.XXXXXX") || exit 1
sysctl=${SELFMON_PROC_SYS:-/proc/sys}/kernel/perf_user_access
old=""
suites=""

# Put back what the run changed; once, whichever way the script ends.
restore() {
	if [ -n "$suites" ]; then
		kill -TERM "$suites" 2>/dev/null
		wait "$suites" 2>/dev/null
		suites=""
	fi
	if [ -n "$old" ]; then
		echo "$old" >"$sysctl"
		old=""
	fi
	rm -rf "$tmp"
}
# dash and busybox ash run no EXIT trap on death by a signal: each signal
# restores, then ends the script by itself, so that the caller sees it.
trap restore EXIT
for sig in TERM INT HUP; do
	# shellcheck disable=SC2064
	trap "restore; trap - $sig EXIT; kill -$sig \$\$" "$sig"
done

if [ -w "$sysctl" ]; then
	old=$(cat "$sysctl")
	echo 1 >"$sysctl"
elif [ -e "$sysctl" ]; then
	echo "# not root: kernel.perf_user_access stays $(cat "$sysctl")"
fi

# The unit tests read the boards' sysfs trees from here.
export SELFMON_FIXTURES="$here/fixtures"

echo "TAP version 13"
echo "# selfmon tests on $(uname -r) $(uname -m)"
# In the background: a shell runs its traps only once a foreground command
# ends, and `wait` returns at once on a signal.
"$here/run_suites.sh" "$tmp/selfmon.tap" "$here"/bin/* &
suites=$!
wait "$suites"
suites=""
"$here/summary.sh" "$tmp/selfmon.tap"
rc=$?
restore
exit $rc
