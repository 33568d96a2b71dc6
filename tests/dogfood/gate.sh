#!/bin/sh
# SPDX-License-Identifier: MIT
# The dogfood gate's verdicts, as TAP: the board ran the bench kernels RERUNS
# times (bench-NN.json) and once with one instruction injected into
# add_chain's loop (inject.json), all in RUNDIR (tests/dogfood/board-bench.sh
# through scripts/board-run). COMPARE is the gate's command, given BASE NEW
# after its own words; exit 0: no regression, 1: a regression.
# Usage: gate.sh OUT.tap BASELINE RUNDIR RERUNS COMPARE...
set -u
out=$1 base=$2 dir=$3 n=$4
shift 4
compare="$*"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dogfood.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$out"
tap() { echo "$*" | tee -a "$out"; }

runs=$(find "$dir" -maxdepth 1 -name "bench-*.json" 2>/dev/null | wc -l)
tap "# suite: the dogfood gate: $n board runs of the bench kernels against $base"
tap "1..5"
if [ "$runs" -eq "$n" ] && [ -s "$dir/inject.json" ]; then
	tap "ok 1 - the board ran the bench $n times and the injected build once"
else
	tap "not ok 1 - the board left $runs of $n runs$([ -s "$dir/inject.json" ] || echo ', and no inject.json') in $dir"
fi

# The figure: reruns on the exact board give the same instructions, every one.
if python3 "$here/counts.py" same "$dir"/bench-*.json >"$tmp/same" 2>&1; then
	tap "ok 2 - $n reruns on the board: $(cat "$tmp/same")"
else
	tap "not ok 2 - reruns on the board differ: $(tr '\n' ' ' <"$tmp/same")"
fi

# The injection is what it says: add_chain's instructions, one per iteration more, and nothing else.
python3 "$here/counts.py" diff "$dir/bench-01.json" "$dir/inject.json" >"$tmp/diff" 2>&1
if [ "$(cut -d' ' -f1,2 "$tmp/diff" | sort -u)" = "add_chain instructions:u" ] &&
	awk '{ exit !($4 - $3 == 1) }' "$tmp/diff"; then
	tap "ok 3 - the injected build differs from a rerun in add_chain's instructions alone: $(cat "$tmp/diff")"
else
	tap "not ok 3 - the injected build is not one add_chain instruction more: $(tr '\n' ';' <"$tmp/diff")"
fi

# The gate itself: no alarm on any rerun, and an alarm naming add_chain and instructions on the injection.
$compare "$base" "$base" >"$tmp/probe" 2>&1
if [ $? -eq 2 ] && grep -q "unknown command 'compare'" "$tmp/probe"; then
	tap "ok 4 # SKIP the compare command is not in this build ($compare): the gate cannot run"
	tap "ok 5 # SKIP the compare command is not in this build ($compare): the gate cannot run"
	exit 0
fi
alarms=0 first=""
for f in "$dir"/bench-*.json; do
	$compare "$base" "$f" >"$tmp/cmp" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		alarms=$((alarms + 1))
		[ -n "$first" ] || first="$(basename "$f") (exit $rc): $(tr '\n' ' ' <"$tmp/cmp" | cut -c1-400)"
	fi
done
if [ "$alarms" -eq 0 ]; then
	tap "ok 4 - the gate ($compare) passes all $runs reruns: 0 false alarms"
else
	tap "not ok 4 - the gate ($compare) raised $alarms alarms on $runs reruns; first: $first"
fi
$compare "$base" "$dir/inject.json" >"$tmp/inject" 2>&1
rc=$?
sed 's/^/# /' "$tmp/inject" >>"$out"
if [ "$rc" -eq 1 ] && grep -q 'add_chain' "$tmp/inject" && grep -q 'instructions' "$tmp/inject"; then
	tap "ok 5 - the gate fails the injected build (exit 1), naming add_chain and instructions"
else
	tap "not ok 5 - the gate let one injected instruction through, or did not name it (exit $rc): $(grep -m2 -E 'add_chain|instructions' "$tmp/inject" | tr '\n' ' ')"
fi
exit 0
