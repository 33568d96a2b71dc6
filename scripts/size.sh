#!/bin/sh
# SPDX-License-Identifier: MIT
# `make size`: text, data, bss (size(1) of the target's binutils) and the
# stripped file size of libselfmon.a, the selfmon CLI and the minimal
# program (tests/min/min.c) of each build tree named; with TAP=file, also
# the checks of `make check`: the minimal program's budgets and that it
# carries no bench, report or CLI code. After the table, where the bytes of
# each budgeted minimal program go (scripts/size-top.sh: by object, by symbol).
# Usage: scripts/size.sh 'LABEL=BYTES...' LABEL:CROSS_COMPILE:TREE...
#   each LABEL=BYTES: the stripped minimal program of the tree so labelled
#   stays within BYTES (e.g. 'arm64-musl=204800 arm64-min=65536').
# A library archive is stripped of debug information only (-g): its symbols
# are its interface. Programs are stripped whole.
set -u
budgets=$1
shift
specs=$*	# the loop below reuses "$@" (set -- of size's fields)
# The budget in bytes of a label, empty where it has none.
budget_of() {
	for b in $budgets; do [ "${b%%=*}" != "$1" ] || { echo "${b#*=}"; return; }; done
}
tap=${TAP:-}
# The source tree, as the compiler saw it (make's CURDIR: symlinks resolved).
top=$(cd "$(dirname "$0")/.." && pwd -P)
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

# A static musl tree built without groups links none of the C library's
# printf family into its minimal program: selfmon formats with core/fmt.c,
# libperf's default logger and asserts are out of musl's libperf
# (scripts/build-deps.sh), and the program writes with fputs. The same program
# linked without --gc-sections has it (bench formats floats), so that the
# check can fail. (With groups, libperf's CPU map code prints with fprintf.)
# Nor the C library's number scanner (core/number.c parses), realloc (the
# PMU list grows by malloc and copy), its pthread mutex or pthread_once
# (core/lock.h); with CONFIG_SMALL_HEAP, nor its malloc (core/heap_small.c);
# without CONFIG_ERRNO_TEXT, nor strerror's sentences (core/errtext_names.c).
printf_check() {
	grep -q '^CONFIG_LIBC_MUSL=y' "$2/.config" 2>/dev/null &&
		grep -q '^# CONFIG_GROUPS is not set' "$2/.config" || return 0
	libc_check "$1" "$3" "printf family" vfprintf '^(v?f?s?n?printf|printf_core|fmt_fp)$'
	libc_check "$1" "$3" "number scanner (strtol family)" __intscan '^(__intscan|strto[u]?l+)$'
	libc_check "$1" "$3" "realloc" realloc '^(realloc|__libc_realloc)$'
	libc_check "$1" "$3" "pthread mutex" __pthread_mutex_lock '^(__)?pthread_mutex_(timed)?lock$'
	libc_check "$1" "$3" "pthread_once" pthread_once '^(__)?pthread_once(_full)?$'
	grep -q '^# CONFIG_ERRNO_TEXT is not set' "$2/.config" &&
		libc_check "$1" "$3" "error sentences (strerror)" strerror '^(strerror|__strerror_l|errmsgstr)$'
	grep -q '^CONFIG_SMALL_HEAP=y' "$2/.config" || return 0
	libc_check "$1" "$3" "malloc" __libc_malloc_impl '^(__libc_malloc_impl|alloc_slot|__malloc_alloc_meta|__libc_free)$'
}

# libc_check LABEL PROGRAM WHAT NOGC_SYMBOL PATTERN: PROGRAM has no symbol
# of PATTERN, and PROGRAM.nogc has NOGC_SYMBOL (so the check can fail).
libc_check() {
	got=$("${cross}nm" "$2" | awk '{ print $NF }' | grep -E "$5" | head -n 3 | tr '\n' ' ')
	if [ -n "$got" ]; then notok "[$1] the minimal program carries the C library's $3 ($got): who calls it? (objdump -d $2)"
	elif ! "${cross}nm" "$2.nogc" 2>/dev/null | awk '{ print $NF }' | grep -qx "$4"; then
		notok "[$1] the minimal program linked without --gc-sections has no $4 either: the $3 check cannot fail"
	else ok "[$1] the minimal program carries none of the C library's $3"; fi
}

# libselfmon.a's one object keeps the sections of one name from different
# objects apart (ld -r --unique, the Makefile's one_object): the inline read
# of <selfmon/priv/read.h> that two files keep a copy of is two sections
# there, as min.nogc, which keeps every copy, has two functions; joined,
# --gc-sections would keep both copies for a program that calls one.
apart_check() {
	fn=selfmon_priv_page_read_timed
	copies=$("${3}nm" "$2/tests/min.nogc" 2>/dev/null | awk -v f="$fn" '$NF == f' | wc -l)
	[ "$copies" -ge 2 ] || { ok "[$1] # SKIP min.nogc has $copies out-of-line copies of $fn: nothing to keep apart"; return 0; }
	secs=$("${3}readelf" -SW "$2/libselfmon.a" | awk -v s=".text.$fn" '{ for (i = 1; i <= NF; i++) if ($i == s) n++ } END { print n + 0 }')
	if [ "$secs" -eq "$copies" ]; then ok "[$1] libselfmon.a keeps the $copies copies of $fn in sections of their own"
	else notok "[$1] libselfmon.a holds $copies copies of $fn in $secs section(s): ld -r joined them (the Makefile's one_object needs --unique)"; fi
}

# A tree built without groups (CONFIG_GROUPS off, Kconfig) links no libperf
# evlist into its minimal program, nor the C library's scanf that the
# evlist's CPU map reading brings; one built with them links the evlist, so
# that the check can fail.
groups_check() {
	evl=$("${cross}nm" "$3" | awk '{ print $NF }' | grep -E '^(perf_evlist__|v?fscanf$|__floatscan$)' | head -n 3 | tr '\n' ' ')
	if grep -q '^# CONFIG_GROUPS is not set' "$2/.config" 2>/dev/null; then
		if [ -z "$evl" ]; then ok "[$1] built without groups, the minimal program carries no libperf evlist and no scanf"
		else notok "[$1] built without groups (CONFIG_GROUPS off), the minimal program still carries $evl: who calls them? (scripts/size-top.sh ${4} $3)"; fi
	elif [ -f "$2/.config" ]; then
		if [ -n "$evl" ]; then ok "[$1] built with groups, the minimal program carries what a build without them leaves out ($evl)"
		else notok "[$1] built with groups, the minimal program carries no libperf evlist: the check without groups cannot fail"; fi
	fi
}

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
		# Nothing in it may name the folder it was built in (a __FILE__
		# of the library's or of libperf's): its bytes, and its size against
		# the budget, would then depend on where the tree was cloned.
		if LC_ALL=C grep -qF "$top" "$tmp/s"; then
			notok "[$label] the minimal program names the source folder '$top' (a __FILE__ in an assert?): build with -fmacro-prefix-map, as scripts/build-deps.sh does for libperf"
		else
			ok "[$label] the minimal program names no folder of the machine it was built on"
		fi
		groups_check "$label" "$tree" "$path" "$cross"
		printf_check "$label" "$tree" "$path" "$cross"
		apart_check "$label" "$tree" "$cross"
		budget=$(budget_of "$label")
		if [ -n "$budget" ]; then
			if [ "$bytes" -le "$budget" ]; then
				ok "[$label] the minimal static program is $bytes bytes stripped, within its budget of $budget bytes"
			else
				notok "[$label] the minimal static program is $bytes bytes stripped, over its budget of $budget bytes: scripts/size-top.sh ${cross} $path says where they go"
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
# Where the bytes of each budgeted minimal program go.
# shellcheck disable=SC2086 # one word per tree spec
[ -n "$tap" ] || for spec in $specs; do
	label=${spec%%:*} rest=${spec#*:}
	cross=${rest%%:*} tree=${rest#*:}
	if [ -z "$(budget_of "$label")" ] || [ ! -f "$tree/tests/min.map" ]; then continue; fi
	echo
	echo "[$label] $(scripts/size-top.sh "$cross" "$tree/tests/min" 15)"
done
