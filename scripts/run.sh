#!/bin/sh
# SPDX-License-Identifier: MIT
# `make run` after the build: selfmon probe, a short selfmon bench that fits
# a screen, and the commands to try next.
# Usage: scripts/run.sh SELFMON_BINARY
# Exit status: probe's 2 (an error) or bench's failure; 0 otherwise (probe's
# 1, "no user-space reads here", is an answer about the machine).
set -u
selfmon=$1
# The short bench: one kernel of each kind, and the read costs.
kernels='^(add_chain|load_chain|branch_random|memcpy_4k|readcost)'

echo "== selfmon probe: what this machine offers"
out=$("$selfmon" probe 2>&1)
probe=$?
# Standard events that fail to open for one same reason take one line.
printf '%s\n' "$out" | awk '
function flush() {
	if (nfail == 1) print line1
	else if (nfail) printf "  %s: do not open: %s\n", names, why
	nfail = 0; names = ""
}
/^  [^ ]+ +does not open: event '"'"'[^'"'"']*'"'"': / {
	r = $0; sub(/^  [^ ]+ +does not open: event '"'"'[^'"'"']*'"'"': /, "", r)
	if (nfail && r != why) flush()
	why = r; line1 = $0; names = names (nfail++ ? ", " : "") $1
	next
}
{ flush(); print }
END { flush() }'
[ "$probe" -le 1 ] || exit "$probe"

echo
echo "== selfmon bench: a short run (up to 5 kept repetitions each; per iteration, median)"
csv=$("$selfmon" bench --repetitions 5 --filter "$kernels" --format csv) || exit 1
# One line per benchmark from bench's CSV (a header row, then one row per
# benchmark and event), then one line on what was dropped and why.
printf '%s\n' "$csv" | awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
	name = $col["name"]; ev = $col["event"]
	if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	reps[name] = $col["repetitions"]; kept[name] = $col["kept"]
	sw[name] = $col["dropped_switch"]; mig[name] = $col["dropped_migration"]
	fb[name] = $col["dropped_fallback"]; exp_[name] = $col["expected"]
	if (ev == "time") t[name] = $col["median"]
	else if (ev ~ /^instructions/) { ins[name] = $col["median"]; hw = 1 }
	else if (ev ~ /^cycles/) { cyc[name] = $col["median"]; hw = 1 }
}
END {
	printf "  %-20s %12s %14s %12s  %s\n", "benchmark", "time (ns)", "instructions", "cycles", "repetitions kept"
	for (i = 1; i <= n; i++) {
		b = order[i]
		dsw += sw[b]; dmig += mig[b]; dfb += fb[b]; all += reps[b]
		if (kept[b] == 0) {
			printf "  %-20s %12s %14s %12s  0 of %d: all dropped\n", b, "-", "-", "-", reps[b]
			empty++
			continue
		}
		in_ = (b in ins) ? sprintf("%.1f", ins[b]) : (exp_[b] != "" ? "(" exp_[b] " expected)" : "-")
		cy = (b in cyc) ? sprintf("%.1f", cyc[b]) : "-"
		printf "  %-20s %12.2f %14s %12s  %d of %d\n", b, t[b], in_, cy, kept[b], reps[b]
	}
	if (!hw)
		print "  counted: time and task-clock only: no hardware counter opened here (the probe above says why)"
	d = dsw + dmig + dfb
	if (d)
		printf "  dropped: %d of %d repetitions (%d saw a context switch, %d a migration, %d a read(2) fallback)%s: another task took the CPU mid-run, so their figures are not this code'"'"'s. On a quieter machine fewer are dropped; or run more (selfmon bench --repetitions 20), pin (--cpu N), or keep them flagged (--keep-noisy).\n", \
			d, all, dsw, dmig, dfb, empty ? sprintf("; %d benchmark%s kept none", empty, empty > 1 ? "s" : "") : ""
}' || exit 1

echo
echo "== next"
next() { printf '  %-48s %s\n' "$1" "$2"; }
next "make check" "every test suite, here and on the emulated arm64 board"
next "$selfmon bench --list" "every benchmark kernel; then --filter, --format json"
next "$selfmon record --filter '^add_chain\$'" "where the time goes, into perf.data for perf report"
next "README.md, \"A tour\"" "count, group and sample your own code (examples/)"
next "docs/counting.md, \"The gates\"" "what each gate above means, and how to open it"
exit 0
