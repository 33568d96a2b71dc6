#!/bin/sh
# SPDX-License-Identifier: MIT
# Sum the TAP results of every file given and print the closing line
# "N passed, N failed, N skipped". Exits 1 if a test failed or none ran.
# Usage: summary.sh FILE.tap...
set -u
awk '
	/^ok [0-9]+/ || /^not ok/ {
		# cmocka 1.1 prints a skip as "not ok N # SKIP": the directive decides.
		if ($0 ~ /# [Ss][Kk][Ii][Pp]/) { skipped[FILENAME]++; ts++ }
		else if ($0 ~ /^not ok/) { failed[FILENAME]++; tf++; fails = fails "\n  " FILENAME ": " $0 }
		else { passed[FILENAME]++; tp++ }
		seen[FILENAME] = 1
	}
	END {
		for (f in seen)
			printf("# %-40s %d passed, %d failed, %d skipped\n", f, passed[f], failed[f], skipped[f])
		if (tf)
			printf("# failures:%s\n", fails)
		printf("%d passed, %d failed, %d skipped\n", tp, tf, ts)
		exit (tf > 0 || tp + tf == 0) ? 1 : 0
	}' "$@"
