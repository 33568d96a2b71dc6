#!/bin/sh
# SPDX-License-Identifier: MIT
# Run each test program N times in a row and count the runs that fail: a
# flaky test shows here before it blocks a landing at random.
# Usage: tests/repeat.sh N PROGRAM...   Exit: 1 if any run failed.
# e.g. tests/repeat.sh 20 build/tests/selftests/sample_test build/asan/tests/selftests/sample_test
set -u
n=$1
shift
fails=0
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	for t in "$@"; do
		out=$("$t" 2>&1)
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fails=$((fails + 1))
			echo "run $i: $t: exit $rc"
			# The failed cases and their assertions first: a test's own
			# log lines (TH_LOG) would fill the few lines shown.
			printf '%s\n' "$out" | grep -E '^not ok|:Expected |\[ *(FAILED|ERROR) *\]|^# .*(Error|Failure)' |
				grep -v '# SKIP' | head -n 20 | sed 's/^/#   /'
		fi
	done
done
echo "$n runs of $# programs: $fails failed"
[ "$fails" -eq 0 ]
