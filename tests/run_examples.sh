#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the programs of examples/ built by scripts/build-examples.sh, as the
# README's tour shows them: each must exit 0 and print something. Where it
# cannot count by default because the machine has no hardware PMU (its
# message says so), it runs again with the arguments its source gives for
# such a machine (NAME.nopmu), unless the board says it has user reads
# (SELFMON_EXPECT_USER_READ=1). A perf.data an example writes must open in
# `perf report`, where perf is installed. TAP on stdout.
# Usage: tests/run_examples.sh [DIR]   (default: ../examples beside this
# script, as in the test bundle, where it is bin/examples_test)
set -u
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/examples}
dir=$(cd "$dir" && pwd) || exit 1
progs=""
for p in "$dir"/*; do
	[ -f "$p" ] && [ -x "$p" ] && progs="$progs $p"
done
set -- $progs
echo "1..$(( $# > 0 ? $# : 1 ))"
[ $# -gt 0 ] || { echo "not ok 1 - examples were built into $dir"; exit 0; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
n=0
for p in "$@"; do
	n=$((n + 1))
	name=$(basename "$p")
	rm -rf "$work/run" && mkdir "$work/run" && cd "$work/run" || exit 1
	args="" how="as the tour runs it"
	out=$("$p" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && [ -f "$p.nopmu" ] && [ "${SELFMON_EXPECT_USER_READ:-0}" != 1 ] &&
	   printf '%s\n' "$out" | grep -q 'no hardware PMU'; then
		args=$(cat "$p.nopmu")
		how="with $args (no hardware PMU here)"
		# The arguments as a shell reads them from the source's comment (quotes).
		out=$(eval "set -- $args" && "$p" "$@" 2>&1)
		rc=$?
	fi
	printf '%s\n' "$out" | sed "s/^/# $name: /"
	if [ $rc -ne 0 ]; then
		echo "not ok $n - examples/$name runs $how: status $rc"
	elif [ -z "$out" ]; then
		echo "not ok $n - examples/$name runs $how: it printed nothing"
	elif [ -f perf.data ] && command -v "${SELFMON_PERF:-perf}" >/dev/null 2>&1 &&
	     ! rep=$("${SELFMON_PERF:-perf}" report --stdio -i perf.data 2>&1); then
		echo "not ok $n - examples/$name writes a perf.data that perf report opens: $(printf '%s' "$rep" | tail -n 2 | tr '\n' ' ')"
	else
		echo "ok $n - examples/$name runs $how$([ -f perf.data ] && command -v "${SELFMON_PERF:-perf}" >/dev/null 2>&1 && echo ', and perf report opens its perf.data')"
	fi
done
