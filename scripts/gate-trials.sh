#!/bin/bash
# SPDX-License-Identifier: MIT
# The README's host CI step, exactly as written there, run TRIALS times in a
# row on this machine (docs/compare.md, "The README's step, 200 times"): each
# trial is 15 pairs of `selfmon bench --format json --repetitions 1
# --keep-noisy`, each pair in a random order, then `selfmon compare --alpha
# 0.01 --format junit --out compare.xml` of all of them.
#  MODE quiet: the same build on both sides; any exit but 0 is a false alarm.
#  MODE slow:  the new side's KERNEL (default add_chain) slowed by 50%
#              (SELFMON_TEST_SLOWDOWN, a test knob: the kernel runs 50% more
#              iterations than asked); the gate must never call it "same".
# A line per trial (its exit status and KERNEL's rows), then a summary line.
# Exit: 0 when every quiet trial exited 0 (or no slow trial said "same" nor
# exited 2), 1 otherwise, 2 on bad usage.
# Usage: scripts/gate-trials.sh SELFMON quiet|slow [TRIALS]
set -u
selfmon=${1:-}
mode=${2:-}
trials=${3:-200}
kernel=${KERNEL:-add_chain}
case "$mode" in
quiet | slow) ;;
*)
	echo "usage: gate-trials.sh SELFMON quiet|slow [TRIALS]" >&2
	exit 2
	;;
esac
if [ ! -x "$selfmon" ]; then
	echo "gate-trials: '$selfmon' is not an executable selfmon: build it (make) and name it" >&2
	exit 2
fi
selfmon=$(cd "$(dirname "$selfmon")" && pwd)/$(basename "$selfmon")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 2

# side NAME I: one run of the README's bench command; the new side slowed in slow mode.
side() {
	if [ "$mode" = slow ] && [ "$1" = new ]; then
		SELFMON_TEST_SLOWDOWN=$kernel=50 "$selfmon" bench --format json --repetitions 1 \
			--keep-noisy --out "$1-$2.json" 2>/dev/null
	else
		"$selfmon" bench --format json --repetitions 1 --keep-noisy --out "$1-$2.json" \
			2>/dev/null
	fi
}

declare -A exits
bad=0
for t in $(seq "$trials"); do
	set --
	for i in $(seq 15); do
		for s in $(if [ $((RANDOM % 2)) = 0 ]; then echo old new; else echo new old; fi); do
			side "$s" "$i"
		done
		set -- "$@" --base "old-$i.json" --new "new-$i.json"
	done
	"$selfmon" compare --alpha 0.01 --format junit --out compare.xml "$@" > table.txt 2> err.txt
	rc=$?
	exits[$rc]=$((${exits[$rc]:-0} + 1))
	rows=$(grep -E "^ *$kernel +(time|cpu_time) " table.txt | tr -s ' ' | tr '\n' '|')
	if [ "$mode" = quiet ] && [ $rc != 0 ]; then
		bad=$((bad + 1))
	elif [ "$mode" = slow ] && { [ $rc = 2 ] || echo "$rows" | grep -q " same"; }; then
		bad=$((bad + 1))
	fi
	echo "trial $t $(date +%T) load $(cut -d' ' -f1 /proc/loadavg): exit $rc | $rows"
	[ $rc = 2 ] && sed 's/^/  /' err.txt
done
summary=$(for k in "${!exits[@]}"; do printf ' %s:%s' "$k" "${exits[$k]}"; done)
echo "gate-trials $mode: $trials trials, exit status:count$summary;" \
	"$([ "$mode" = quiet ] && echo "false alarms" || echo "'same' or exit 2"): $bad"
[ $bad = 0 ]
