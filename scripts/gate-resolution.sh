#!/bin/sh
# SPDX-License-Identifier: MIT
# The regression gate's figures on this machine (docs/compare.md):
#  1. a run against a rerun of itself: alarms in TRIES tries (each compares
#     two fresh runs of the built-in kernels at the default limits);
#  2. a 50% slowdown injected into KERNEL: caught in TRIES tries;
#  3. the gate's resolution: the smallest injected slowdown of KERNEL caught
#     in at least TRIES - 1 of TRIES tries, with REPS repetitions.
# The slowdown is SELFMON_TEST_SLOWDOWN=KERNEL=PCT (a test knob: the kernel
# runs PCT% more iterations than it is asked for).
# Usage: scripts/gate-resolution.sh SELFMON [TRIES [REPS]]   (make gate-resolution)
# make check runs a short form of 1 and 2 (tests/check_compare.py).
# Environment: KERNEL (default add_chain), FILTER (benchmarks of part 1,
# default the built-in kernels, not readcost or samplecost), STEPS (slowdowns of part 3, in %).
set -u
selfmon=${1:?usage: gate-resolution.sh SELFMON [TRIES [REPS]]}
tries=${2:-20}
reps=${3:-15}
kernel=${KERNEL:-add_chain}
filter=${FILTER:-^(add_|load_|branch_|memcpy_|memset_|empty)}
steps=${STEPS:-2 5 10 15 20 30 40 50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
bench="--format json --keep-noisy --repetitions $reps"

# run FILTER OUT [SLOWDOWN]: one bench run into OUT.
run() {
	SELFMON_TEST_SLOWDOWN=${3:-} "$selfmon" bench $bench --filter "$1" --out "$2" 2>"$tmp/err" || {
		echo "gate-resolution: selfmon bench failed:" >&2; cat "$tmp/err" >&2; exit 2; }
}

# compare BASE NEW: 0 quiet, 1 alarm; anything else stops the script.
compare() {
	"$selfmon" compare "$1" "$2" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "gate-resolution: selfmon compare failed ($rc):" >&2; cat "$tmp/out" >&2; exit 2
	fi
	return $rc
}

# caught PCT: in how many of TRIES tries a PCT% slowdown of KERNEL is flagged.
caught() {
	n=0
	i=0
	while [ $i -lt "$tries" ]; do
		run "^$kernel\$" "$tmp/base.json"
		run "^$kernel\$" "$tmp/new.json" "$kernel=$1"
		compare "$tmp/base.json" "$tmp/new.json" || n=$((n + 1))
		i=$((i + 1))
	done
	echo $n
}

alarms=0
i=0
while [ $i -lt "$tries" ]; do
	run "$filter" "$tmp/a.json"
	run "$filter" "$tmp/b.json"
	if ! compare "$tmp/a.json" "$tmp/b.json"; then
		alarms=$((alarms + 1))
		grep REGRESSION "$tmp/out" | sed 's/^/#   false alarm: /'
	fi
	i=$((i + 1))
done
echo "self vs rerun (selfmon bench $bench --filter '$filter', twice; selfmon compare): $alarms alarms in $tries tries"
c50=$(caught 50)
echo "50% slowdown of $kernel: caught in $c50 of $tries tries"
best=""
for pct in $steps; do
	c=$(caught "$pct")
	echo "$pct% slowdown of $kernel: caught in $c of $tries tries ($reps repetitions)"
	if [ -z "$best" ] && [ "$c" -ge $((tries - 1)) ]; then
		best=$pct
	fi
done
echo "resolution: the smallest slowdown caught in at least $((tries - 1)) of $tries tries: ${best:-none of $steps}%"
