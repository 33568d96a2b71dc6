#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzz each harness for SECONDS, starting from its seed corpus, and print its
# executions and coverage. New inputs go to WORK/corpus/<name>, crashes to
# WORK/crash-<name>-*; the seeds in the tree are left alone.
# Usage: run.sh SECONDS WORK HARNESS...   Exit: 1 if a harness crashed.
set -u
secs=$1 work=$2
shift 2
rc=0
summary=""
for bin in "$@"; do
	name=${bin##*/fuzz_}
	mkdir -p "$work/corpus/$name"
	log=$work/$name.log
	echo "  FUZZ     fuzz_$name for ${secs}s"
	"$bin" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$work/crash-$name-" \
		"$work/corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1
	status=$?
	# libFuzzer's stats: "stat::number_of_executed_units: N"; the last "cov:" line.
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
	corp=$(grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' "$log" | tail -n 1)
	line="fuzz_$name: ${execs:-?} executions in ${secs}s, ${cov:-no coverage line}, ${corp:-}"
	if [ "$status" -ne 0 ]; then
		line="$line: CRASH (status $status), see $log and $work/crash-$name-*"
		rc=1
	fi
	summary="$summary$line
"
done
printf '%s' "$summary"
exit $rc
