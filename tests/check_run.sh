#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run` as a newcomer reads it: the build in one line, the probe, a short
# bench and the commands to try next, all on one screen. TAP to OUT.
# Usage: tests/check_run.sh OUT.tap [MAKE_ARG...]   (run from the source tree)
set -u
out=$1
shift
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_run: $*" >&2; }

log=$(make --no-print-directory run "$@" 2>&1)
rc=$?
lines=$(printf '%s\n' "$log" | wc -l)
[ "$rc" -eq 0 ] && ok "make run exits 0" || notok "make run exits 0, not $rc: $(printf '%s\n' "$log" | tail -n 3 | tr '\n' ' ')"
[ "$lines" -le 60 ] && ok "make run prints $lines lines, a screen (at most 60)" ||
	notok "make run prints $lines lines, more than a screen (60)"
builds=$(printf '%s\n' "$log" | grep -c '^  BUILD ')
compiles=$(printf '%s\n' "$log" | grep -cE '^  (CC|LD|AR|GEN) ')
[ "$builds" -eq 1 ] && [ "$compiles" -eq 0 ] && ok "the build is one line (no compiler lines without V=1)" ||
	notok "the build is one line: $builds BUILD lines, $compiles compiler lines"
for part in '== selfmon probe' '== selfmon bench' '== next'; do
	printf '%s\n' "$log" | grep -q "^$part" && ok "make run shows '$part'" || notok "make run shows '$part'"
done
# A benchmark table row for each kernel of the short bench, and what was
# dropped said once, with what to do.
rows=$(printf '%s\n' "$log" | grep -cE '^  (add_chain|load_chain|branch_random|memcpy_4k|readcost/[a-z_()0-9]+) ')
[ "$rows" -ge 8 ] && ok "the bench is one line per benchmark ($rows)" || notok "the bench is one line per benchmark: $rows rows"
drops=$(printf '%s\n' "$log" | grep -c '^  dropped: ')
if printf '%s\n' "$log" | grep -qE ' [1-9][0-9]* of [0-9]+$| 0 of [0-9]+: all dropped'; then
	kept_all=$(printf '%s\n' "$log" | awk '/ repetitions kept$/ { t = 1; next } t && / 0 of [0-9]+: all dropped$/ { d = 1 } t && / [0-9]+ of [0-9]+$/ && $(NF-2) != $NF { d = 1 } END { print d + 0 }')
	if [ "$kept_all" -eq 1 ]; then
		[ "$drops" -eq 1 ] && printf '%s\n' "$log" | grep -q '^  dropped: .*--keep-noisy' &&
			ok "dropped repetitions are said in one line, with what to do" ||
			notok "dropped repetitions are said in one line with what to do ($drops lines)"
	else
		[ "$drops" -eq 0 ] && ok "nothing dropped, nothing said" || notok "nothing dropped, yet $drops dropped lines"
	fi
fi
