#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-lab: bring the LAVA lab up (scripts/lab/lab.sh start), run
# tests/check_lab.py through it, and stop it whatever happened (a trap):
# every process by its PID, every mount undone. The last TAP line says that
# nothing is left: no process in the lab's tree, no mount under it.
# Usage: tests/check_lab.sh CHECKDIR SELFMON BUNDLE_TGZ VMDIR KERNEL
set -u
here=$(cd "$(dirname "$0")" && pwd)
srctree=$(dirname "$here")
lab=$srctree/scripts/lab/lab.sh
RUN=${LAB_RUN:-$srctree/build/lab}
check=$1 tap=$1/lab.tap
mkdir -p "$check" && rm -f "$tap"

finish() {
	rc=$?
	trap - EXIT INT TERM
	"$lab" stop
	left=$(for p in /proc/[0-9]*; do
		case "$(readlink "$p/root" 2>/dev/null)" in "$RUN"/*) echo "${p#/proc/}" ;; esac
	done)
	mounted=$(awk -v r="$RUN/" 'index($2, r) == 1 { print $2 }' /proc/mounts)
	n=$(( $(grep -c '^\(not \)\{0,1\}ok ' "$tap" 2>/dev/null || echo 0) + 1 ))
	if [ -z "$left$mounted" ]; then
		echo "ok $n - [lab] stopped: no process in the lab's tree, no mount under $RUN" | tee -a "$tap"
	else
		echo "not ok $n - [lab] left behind: processes '$left', mounts '$mounted'" | tee -a "$tap"
		rc=1
	fi
	exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM

t0=$(date +%s)
if ! "$lab" start; then
	echo "not ok 1 - [lab] the lab did not start: see the message above and $RUN/logs/" | tee "$tap"
	exit 1
fi
echo "# check-lab: the lab up in $(( $(date +%s) - t0 )) s"
python3 "$here/check_lab.py" "$RUN" "$check" "$2" "$3" "$4" "$5"
