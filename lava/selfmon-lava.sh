#!/bin/sh
# SPDX-License-Identifier: MIT
# selfmon's test bundle under LAVA (Lava-Test Test Definition 1.0,
# lava/selfmon.yaml): run the bundle, turn its TAP into LAVA results and
# send them, as Linaro's send-to-lava.sh convention does.
#
#   selfmon-lava.sh run BUNDLE_DIR [OUTDIR]  run BUNDLE_DIR/run_tests.sh, parse, send
#                                            (OUTDIR: a new mktemp -d folder if not given)
#   selfmon-lava.sh parse TAPFILE            print the result lines (below)
#   selfmon-lava.sh send RESULTFILE          report result lines to LAVA
#
# A result line is "SET NAME RESULT [MEASUREMENT UNITS]":
#   - one per TAP line ("ok N", "not ok N", "not ok - why" from
#     run_suites.sh), in the set named after the suite binary ("# suite:"),
#     named after the test; "# SKIP" makes it skip, whatever ok/not ok says
#     (cmocka 1.1 prints a skip as "not ok N # SKIP"). A kselftest skip line
#     carries no name: the last "#  RUN  fixture.name ..." gives it.
#   - "selfmon-tap plan pass|fail RESULTS tests": the plan check. The bundle
#     runs several suites, each with its own "1..N": the plan is their sum,
#     and the numbered results ("ok N"/"not ok N") must match it exactly.
#     The unnumbered "not ok - ..." lines that run_suites.sh adds (a binary
#     crashed, or ran fewer tests than it planned) belong to no plan: they
#     are reported as failures and left out of the count.
#   - "selfmon-figures NAME pass VALUE UNITS": the bundle's figures (the
#     "# file.c:line:test:label: ..." lines of its measurements).
# Outside LAVA (no lava-test-case in PATH), "send" prints what it would send.
# POSIX sh and awk: it runs in busybox on the board.
set -u
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

# Names LAVA takes: no blanks, '=' or '>' (they end a signal field), no '/'
# (lava-test-case makes a folder of the name), so only [A-Za-z0-9_.-]. They
# map 1:1: each other byte (a '-', a leading '.') becomes -XX, its hex code;
# a name longer than 128 keeps 117 and adds "--h" and a hash of the whole;
# a name seen twice in a set gets "--2", "--3" (no escape makes "--").
parse() {
	tr -d '\r' <"$1" | LC_ALL=C awk '
	BEGIN { for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i }
	function clean(s,   out, i, c, h) {
		out = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c ~ /^[A-Za-z0-9_]$/ || (c == "." && i > 1))
				out = out c
			else
				out = out sprintf("-%02x", ord[c])
		}
		if (length(out) <= 128)
			return out
		h = 0
		for (i = 1; i <= length(s); i++)
			h = (h * 31 + ord[substr(s, i, 1)]) % 2147483647
		return substr(out, 1, 117) sprintf("--h%08x", h)
	}
	function uniq(set, name) {
		if ((set SUBSEP name) in used)
			name = name "--" (++dup[set SUBSEP name] + 1)
		used[set SUBSEP name] = 1
		return name
	}
	function figure(name, value, units) {
		if (value !~ /^[0-9]+(\.[0-9]+)?$/) {
			printf("# figure %s: \"%s\" is not a number: format changed?\n", name, value) > "/dev/stderr"
			return
		}
		# Held to the end: one set, after the tests.
		figures = figures sprintf("selfmon-figures %s pass %s %s\n", uniq("selfmon-figures", clean(suite "." name)), value, units)
	}
	/^# suite: / { suite = $3; sub(/.*\//, "", suite); suite = clean(suite); running = ""; next }
	/^#  RUN / { running = $3; next }
	/^1\.\.[0-9]+/ { plan += substr($1, 4); plans++; next }
	/^(not )?ok( |$)/ {
		line = $0
		result = (line ~ /^not ok/) ? "fail" : "pass"
		if (line ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) result = "skip"
		numbered = (line ~ /^(not )?ok [0-9]+/)
		if (numbered) results++
		sub(/^(not )?ok( [0-9]+)?[ \t]*(- )?/, "", line)
		sub(/[ \t]*#.*$/, "", line)
		if (line == "") line = running
		if (line == "") line = "test"
		set = (suite == "") ? "selfmon" : suite
		printf("%s %s %s\n", set, uniq(set, clean(line)), result)
		running = ""
		next
	}
	# The figures: "# path.c:LINE:TEST:LABEL: text".
	/^# [^ :]+\.c:[0-9]+:[^:]+:/ {
		split($0, f, ":"); test = f[3]; label = f[4]
		text = $0; sub(/^# [^:]+:[0-9]+:[^:]+:/, "", text)
		if (match(text, /^[^:]*: [0-9.]+ instructions\/iteration/)) {
			split(text, w, " "); k = label
			figure(k ".instructions", w[2], "instructions/iteration")
			if (match(text, /, [0-9.]+ cycles\/iteration/))
				figure(k ".cycles", substr(text, RSTART + 2, RLENGTH - 19), "cycles/iteration")
		} else if (text ~ /^readcost per read: selfmon [0-9]+, libperf [0-9]+, read\(2\) [0-9]+ user \/ [0-9]+ user\+kernel/) {
			split(text, t, " ")
			figure("readcost.selfmon", t[5] + 0, "instructions/read")
			figure("readcost.libperf", t[7] + 0, "instructions/read")
			figure("readcost.read2_user", t[9] + 0, "instructions/read")
			figure("readcost.read2_total", t[12] + 0, "instructions/read")
		} else if (text ~ /^pmc_width [0-9]+: empty region [0-9]+ instructions by mrs, [0-9]+ by read\(2\)/) {
			split(text, t, /[ :,]+/)
			figure("empty_region.pmc" t[2] ".mrs", t[5], "instructions")
			figure("empty_region.pmc" t[2] ".read2", t[9], "instructions")
		} else if (text ~ /^[0-9.]+ instructions per inline read/) {
			split(text, t, " ")
			figure("inline_read", t[1], "instructions/read")
		} else if (text ~ /^index [0-9]+ \([A-Z0-9_]+\): [0-9.]+ user instructions per inline read/) {
			split(text, t, " ")
			figure("inline_read.index" t[2], t[4] + 0, "instructions/read")
		} else if (text ~ /^selfmon_set__read: [0-9.]+ user instructions per call/) {
			split(text, t, " ")
			figure("set_read.call", t[2] + 0, "instructions/call")
		} else if (text ~ /^group [0-9]+: ran [0-9.]+% of the time/) {
			split(text, t, /[ :%]+/)
			figure("group" t[2] ".running", t[4], "percent")
		} else if (text ~ /^[0-9]+ reads by mrs, [0-9]+ fell back to read\(2\)/) {
			split(text, t, " ")
			figure("multiplexed.by_mrs", t[1], "reads")
			figure("multiplexed.by_read2", t[5], "reads")
		} else if (text ~ /^selfmon_set__read: [0-9]+ user instructions, read\(2\): [0-9]+/) {
			split(text, t, /[ :,]+/)
			figure("set_read.selfmon", t[2], "instructions/read")
			figure("set_read.read2", t[6], "instructions/read")
		} else if (text ~ /^selfmon_set__read \/ read\(2\), time: [0-9.]+ \(medians\)/) {
			split(text, t, " ")
			figure("set_read.time_ratio", t[5], "ratio")
		}
		next
	}
	END {
		printf("%s", figures)
		ok = (plans > 0 && results == plan) ? "pass" : "fail"
		printf("selfmon-tap plan %s %d tests\n", ok, results)
		if (ok == "fail")
			printf("# plan check: %d results, %d planned by %d plan lines\n", results, plan, plans) > "/dev/stderr"
	}'
}

# One lava-test-set per set, in the order the sets first appear.
send() {
	if command -v lava-test-case >/dev/null 2>&1; then lava=1; else lava=0; fi
	cur=""
	while read -r set name result value units; do
		if [ "$set" != "$cur" ]; then
			if [ $lava = 1 ]; then
				[ -z "$cur" ] || lava-test-set stop
				lava-test-set start "$set"
			fi
			cur=$set
		fi
		if [ $lava = 0 ]; then
			echo "$set $name $result${value:+ $value $units}"
		elif [ -n "$value" ]; then
			lava-test-case "$name" --result "$result" --measurement "$value" --units "$units"
		else
			lava-test-case "$name" --result "$result"
		fi
	done <"$1"
	if [ $lava = 1 ] && [ -n "$cur" ]; then lava-test-set stop; fi
}

usage() {
	echo "usage: selfmon-lava.sh run BUNDLE_DIR [OUTDIR] | parse TAPFILE | send RESULTFILE" >&2
	exit 2
}

case "${1:-}" in
parse) [ $# -eq 2 ] || usage; parse "$2" ;;
send) [ $# -eq 2 ] || usage; send "$2" ;;
run)
	[ $# -ge 2 ] || usage
	bundle=$2 out=${3:-}
	if [ ! -x "$bundle/run_tests.sh" ]; then
		echo "selfmon-lava: no executable '$bundle/run_tests.sh': set the definition's BUNDLE parameter to where the bundle (make tests-bundle) lies on the board" >&2
		exit 1
	fi
	# No fixed name in a shared folder: a private one unless OUTDIR is given.
	if [ -z "$out" ]; then
		out=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-lava.XXXXXX") || exit 1
		echo "selfmon-lava: TAP and results in $out" >&2
	fi
	mkdir -p "$out"
	# The TAP goes to the console too: the raw record beside LAVA's results.
	(cd "$bundle" && ./run_tests.sh) 2>&1 | tee "$out/selfmon.tap"
	parse "$out/selfmon.tap" >"$out/results.txt"
	send "$out/results.txt"
	;;
*) usage ;;
esac
