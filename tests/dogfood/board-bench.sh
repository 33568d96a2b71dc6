#!/bin/sh
# SPDX-License-Identifier: MIT
# The dogfood gate's board side (run by scripts/board-run, with selfmon and
# selfmon-inject next to it): the bench kernels RERUNS times, each run's JSON
# in bench-NN.json, then once by the build whose add_chain retires one more
# instruction per iteration (inject.json), when it was sent along.
# Usage: board-bench.sh RERUNS FILTER
set -u
n=${1:-20} filter=${2:-.}
i=1
while [ "$i" -le "$n" ]; do
	f=bench-$(printf '%02d' "$i").json
	selfmon bench --format json --events instructions:u,cycles:u --filter "$filter" \
		--repetitions 5 --iterations 1000 --out "$f" || { echo "board-bench: run $i failed" >&2; exit 1; }
	i=$((i + 1))
done
if command -v selfmon-inject >/dev/null; then
	selfmon-inject bench --format json --events instructions:u,cycles:u --filter "$filter" \
		--repetitions 5 --iterations 1000 --out inject.json || { echo "board-bench: the injected run failed" >&2; exit 1; }
fi
echo "board-bench: $n runs$(command -v selfmon-inject >/dev/null && echo ' and the injected one')"
