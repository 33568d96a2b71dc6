#!/bin/sh
# SPDX-License-Identifier: MIT
# The regression gate's figures on this machine (docs/compare.md):
#  1. a run against a rerun of itself: alarms in TRIES tries (each compares
#     two fresh runs of the built-in kernels at the default limits);
#  2. a 50% slowdown injected into KERNEL: caught in TRIES tries;
#  3. the gate's resolution: the smallest injected slowdown of KERNEL caught
#     in at least TRIES - 1 of TRIES tries, with REPS repetitions a side.
# Each side of a try is REPS repetitions made of ROUNDS runs of REPS/ROUNDS
# repetitions, the two sides' runs in pairs, each pair in a random order, so
# that a change in the machine's load hits both sides alike, and compared with
# selfmon compare --base A1 --base A2 ... --new B1 ... (the repetitions of a
# side pooled). ROUNDS=1 is two sequential runs, as a CI step that compares
# with a baseline written earlier does.
# The slowdown is SELFMON_TEST_SLOWDOWN=KERNEL=PCT (a test knob: the kernel
# runs PCT% more iterations than it is asked for).
# Usage: [GATE_ALPHA=A] scripts/gate-resolution.sh SELFMON [TRIES [REPS [ROUNDS]]]   (make gate-resolution)
# make check runs a short form of 1 and 2 (tests/check_compare.py).
# Environment: KERNEL (default add_chain), FILTER (benchmarks of part 1,
# default the built-in kernels, not readcost or samplecost), STEPS (slowdowns of part 3, in %).
set -u
selfmon=${1:?usage: gate-resolution.sh SELFMON [TRIES [REPS [ROUNDS]]]}
tries=${2:-20}
reps=${3:-15}
rounds=${4:-$reps}
# The README's CI step judges at 0.01 (docs/compare.md); GATE_ALPHA for another.
alpha=${GATE_ALPHA:-0.01}
kernel=${KERNEL:-add_chain}
filter=${FILTER:-^(add_|load_|branch_|memcpy_|memset_|empty)}
steps=${STEPS:-2 5 10 15 20 30 40 50}
if [ "$rounds" -lt 1 ] || [ $((reps % rounds)) -ne 0 ]; then
	echo "gate-resolution: ROUNDS ($rounds) must divide REPS ($reps)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
bench="--format json --keep-noisy --repetitions $((reps / rounds))"

# run FILTER OUT [SLOWDOWN]: one bench run into OUT.
run() {
	# shellcheck disable=SC2086 # $bench: several options
	SELFMON_TEST_SLOWDOWN=${3:-} "$selfmon" bench $bench --filter "$1" --out "$2" 2>"$tmp/err" || {
		echo "gate-resolution: selfmon bench failed:" >&2; cat "$tmp/err" >&2; exit 2; }
}

# try FILTER [SLOWDOWN]: ROUNDS runs a side, alternating, the second side
# slowed down by SLOWDOWN; then compare: 0 quiet, 1 alarm (compare's exit
# 1, a regression, or 3, an inconclusive rise: either fails a CI step; each
# 3 is tallied in $tmp/inconclusive as well); anything else stops the script.
try() {
	set --  "$1" "${2:-}"
	r=1
	args=""
	while [ $r -le "$rounds" ]; do
		# A coin per pair (not A B, B A, ...): no pattern in the machine's speed can follow the order.
		if [ $(($(od -An -N1 -tu1 /dev/urandom) % 2)) -eq 1 ]; then
			run "$1" "$tmp/a$r.json"
			run "$1" "$tmp/b$r.json" "$2"
		else
			run "$1" "$tmp/b$r.json" "$2"
			run "$1" "$tmp/a$r.json"
		fi
		args="$args --base $tmp/a$r.json --new $tmp/b$r.json"
		r=$((r + 1))
	done
	# shellcheck disable=SC2086 # the paths are ours: no spaces
	"$selfmon" compare --alpha "$alpha" $args >"$tmp/out" 2>&1
	rc=$?
	if [ $rc -eq 3 ]; then
		echo x >>"$tmp/inconclusive"
		return 1
	fi
	if [ $rc -gt 1 ]; then
		echo "gate-resolution: selfmon compare failed ($rc):" >&2; cat "$tmp/out" >&2; exit 2
	fi
	return $rc
}

# inconclusive: how many tries since the last call were inconclusive (exit 3).
inconclusive() {
	if [ -f "$tmp/inconclusive" ]; then wc -l <"$tmp/inconclusive" | tr -d ' '; else echo 0; fi
	rm -f "$tmp/inconclusive"
}

# caught PCT: in how many of TRIES tries a PCT% slowdown of KERNEL is flagged.
caught() {
	n=0
	i=0
	while [ $i -lt "$tries" ]; do
		try "^$kernel\$" "$kernel=$1" || n=$((n + 1))
		i=$((i + 1))
	done
	echo $n
}

echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$rounds" -gt 1 ]; then
	how="$rounds runs a side of selfmon bench $bench, alternating; selfmon compare --alpha $alpha --base ... --new ..."
else
	how="one run a side of selfmon bench $bench, one after the other; selfmon compare --alpha $alpha BASE NEW"
fi
alarms=0
i=0
while [ $i -lt "$tries" ]; do
	if ! try "$filter"; then
		alarms=$((alarms + 1))
		grep -E 'REGRESSION|inconclusive:' "$tmp/out" | sed 's/^/#   false alarm: /'
	fi
	i=$((i + 1))
done
echo "self vs rerun ($how; --filter '$filter'): $alarms alarms in $tries tries" \
	"($(inconclusive) of them inconclusive)"
c50=$(caught 50)
echo "50% slowdown of $kernel: caught in $c50 of $tries tries ($(inconclusive) of them inconclusive)"
best=""
for pct in $steps; do
	c=$(caught "$pct")
	echo "$pct% slowdown of $kernel: caught in $c of $tries tries ($reps repetitions a side;" \
		"$(inconclusive) inconclusive)"
	if [ -z "$best" ] && [ "$c" -ge $((tries - 1)) ]; then
		best=$pct
	fi
done
echo "resolution: the smallest slowdown caught in at least $((tries - 1)) of $tries tries: ${best:-none of $steps}%"
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
