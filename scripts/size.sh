#!/bin/sh
# SPDX-License-Identifier: MIT
# `make size`: text, data, bss (size(1) of the target's binutils) and the
# stripped file size of libselfmon.a, the selfmon CLI and the minimal
# program (tests/min/min.c) of each build tree named; with TAP=file, also
# the checks of `make check`: the minimal program's budget and that it
# carries no bench, report or CLI code.
# Usage: scripts/size.sh BUDGET_KIB LABEL:CROSS_COMPILE:TREE...
#   BUDGET_KIB applies to the tree labelled "arm64-musl" (stripped minimal program).
# A library archive is stripped of debug information only (-g): its symbols
# are its interface. Programs are stripped whole.
set -u
budget=$1
shift
tap=${TAP:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-size.XXXXXX")
cleanup() { rm -rf "$tmp"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
[ -z "$tap" ] || : >"$tap"
# TAP lines are numbered: tests/summary.sh counts "ok N" lines.
n=0
ok() { n=$((n + 1)); [ -z "$tap" ] || echo "ok $n - $*" >>"$tap"; }
notok() { n=$((n + 1)); [ -z "$tap" ] || echo "not ok $n - $*" >>"$tap"; echo "size: $*" >&2; }

# Code that only bench, the report writers and the CLI define (bench/, tools/,
# arch/*/kernels.c): none of it may reach the minimal program.
not_min='^(selfmon_(bench|bench_cli|bench_result|stats|calib|report|json|csv|readcost|kernels|arch_kernel)_|cli_|cmd_)'

printf '%-12s %-14s %9s %8s %8s %10s %8s\n' build file text data bss stripped KiB
for spec in "$@"; do
	label=${spec%%:*} rest=${spec#*:}
	cross=${rest%%:*} tree=${rest#*:}
	for f in libselfmon.a selfmon tests/min tests/min.nogc; do
		path=$tree/$f
		if [ ! -f "$path" ]; then
			printf '%-12s %-14s %s\n' "$label" "$f" "(not built)"
			[ "$f" != tests/min ] || notok "[$label] no minimal program in $tree"
			continue
		fi
		case $f in *.a) sflag=-g ;; *) sflag= ;; esac
		"${cross}strip" $sflag -o "$tmp/s" "$path" || continue
		bytes=$(wc -c <"$tmp/s" | tr -d ' ')
		# size -t sums an archive's members; its last line is the total.
		set -- $("${cross}size" -t "$path" | tail -n 1)
		printf '%-12s %-14s %9s %8s %8s %10s %8s\n' "$label" "$f" "$1" "$2" "$3" "$bytes" \
			"$(awk "BEGIN { printf \"%.1f\", $bytes / 1024 }")"
		[ "$f" = tests/min ] || continue
		bad=$("${cross}nm" "$path" | awk '{ print $NF }' | grep -E "$not_min" | head -n 5 | tr '\n' ' ')
		if [ -z "$bad" ]; then ok "[$label] the minimal program carries no bench, report or CLI code"
		else notok "[$label] the minimal program carries bench, report or CLI code: $bad"; fi
		if [ "$label" = arm64-musl ]; then
			if [ "$bytes" -le $((budget * 1024)) ]; then
				ok "[$label] the minimal static program is $bytes bytes stripped, within the ${budget} KiB budget"
			else
				notok "[$label] the minimal static program is $bytes bytes stripped, over the ${budget} KiB budget"
			fi
		fi
	done
	# The check above must be able to fail: the same program linked without
	# --gc-sections keeps the whole library, bench included.
	if [ -f "$tree/tests/min.nogc" ]; then
		if "${cross}nm" "$tree/tests/min.nogc" | awk '{ print $NF }' | grep -qE "$not_min"; then
			ok "[$label] the symbol check sees bench code in the minimal program linked without --gc-sections"
		else
			notok "[$label] the symbol check sees no bench code even without --gc-sections: it cannot fail"
		fi
	fi
done
