#!/bin/sh
# SPDX-License-Identifier: MIT
# Symbol hygiene of the installed library, as TAP for the summary (docs/architecture.md,
# "Conventions"): scripts/symbols.py checks LIB against the public headers, then
# two self-tests show that the check can fail.
# Usage: [SHLIB=libselfmon.so] check_symbols.sh LIB RAW NM CC HEADER...
set -u
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH
lib=$1 raw=$2 nm=$3 cc=$4
shift 4
here=$(cd "$(dirname "$0")/.." && pwd)
sym="$here/scripts/symbols.py"
rc=0

echo "# suite: symbols of $lib"
python3 "$sym" check "$lib" "$raw" "$nm" "$@" || rc=1
# libselfmon.so (SHLIB= in the environment): its dynamic symbols are the same
# documented list, libperf's and libapi's none (the version script).
if [ -n "${SHLIB:-}" ]; then
	echo "# suite: symbols of $SHLIB"
	python3 "$sym" check "$SHLIB" "$raw" "$nm" "$@" || rc=1
fi

echo "# suite: the symbol check fails where it should"
echo "1..2"
# The raw objects export every internal function: the check must name them.
out=$(python3 "$sym" check "$raw" "$raw" "$nm" "$@")
n=$(printf '%s\n' "$out" | grep -c '^# undocumented global:')
if printf '%s\n' "$out" | grep -q '^not ok 1 ' && [ "$n" -gt 0 ]; then
	echo "ok 1 - the check fails on the library before objcopy: $n undocumented globals named"
else
	echo "not ok 1 - the check passed the library before objcopy"; rc=1
fi
# A function declared in a public header without a doc comment.
tmp=$(mktemp -d)
cat >"$tmp/demo.h" <<'H'
/** selfmon_demo__documented() - has its doc comment. */
int selfmon_demo__documented(void);
int selfmon_demo__undocumented(void);
/** selfmon_demo__var - a documented thread variable, which an inline path may read. */
extern __thread int selfmon_demo__var;
extern int selfmon_demo__undocumented_var;
H
printf 'int selfmon_demo__documented(void) { return 0; }\nint selfmon_demo__undocumented(void) { return 1; }\n__thread int selfmon_demo__var;\nint selfmon_demo__undocumented_var;\n' >"$tmp/demo.c"
if $cc -c "$tmp/demo.c" -o "$tmp/demo.o" && ar rcs "$tmp/demo.a" "$tmp/demo.o"; then
	out=$(python3 "$sym" check "$tmp/demo.a" "$tmp/demo.a" "$nm" "$tmp/demo.h")
	if printf '%s\n' "$out" | grep -q '^# undocumented global: selfmon_demo__undocumented ' &&
	   printf '%s\n' "$out" | grep -q 'without a /\*\* doc comment \*/: selfmon_demo__undocumented$' &&
	   printf '%s\n' "$out" | grep -q '^# undocumented global: selfmon_demo__undocumented_var ' &&
	   ! printf '%s\n' "$out" | grep -q 'selfmon_demo__documented\|selfmon_demo__var'; then
		echo "ok 2 - an undocumented public function or variable fails the check, by name; documented ones pass"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok 2 - an undocumented public function did not fail the check"; rc=1
	fi
else
	echo "not ok 2 - cannot compile the demonstration object"; rc=1
fi
rm -rf "$tmp"
exit $rc
