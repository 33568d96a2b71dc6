#!/bin/sh
# SPDX-License-Identifier: MIT
# Replay each fuzz harness's seed corpus (tests/fuzz/corpus/<name>/) once, as
# `make check` does: one TAP line per harness into OUT. A harness that
# crashes, leaks or trips a sanitizer on any input is "not ok".
# Usage: replay.sh OUT.tap HARNESS...   (binaries built by `make fuzz-build`)
set -u
out=$1
shift
: >"$out"
echo "1..$#" >>"$out"
n=0
for bin in "$@"; do
	n=$((n + 1))
	name=${bin##*/fuzz_}
	corpus=tests/fuzz/corpus/$name
	log=$out.$name.log
	inputs=$(find "$corpus" -type f 2>/dev/null | wc -l)
	if [ ! -x "$bin" ]; then
		echo "not ok $n - fuzz_$name was not built ($bin): run make fuzz-build" >>"$out"
	elif [ "$inputs" -eq 0 ]; then
		echo "not ok $n - fuzz_$name has no seed corpus in $corpus" >>"$out"
	elif "$bin" -runs=0 "$corpus" >"$log" 2>&1; then
		echo "ok $n - fuzz_$name replays its $inputs seed inputs cleanly" >>"$out"
	else
		echo "not ok $n - fuzz_$name fails on its seed corpus: see $log" >>"$out"
		tail -n 20 "$log" | sed 's/^/# /' >>"$out"
	fi
done
cat "$out"
