#!/bin/sh
# SPDX-License-Identifier: MIT
# The ABI check (docs/abi.md), TAP to OUT: libselfmon.so against the
# baseline in the tree; then the check itself: a copy of the tree with an
# incompatible change injected as a layout bump makes it (a field in the
# middle of struct selfmon_priv_marker_thread, SELFMON_ABI_LAYOUT 2, the layout-1
# thread variable kept as the library keeps an older one), which abidiff
# must refuse, and with which a program built against layout 1 still runs:
# its pairs take the library's path, said once, the same regions counted.
# Usage: tests/check_abi.sh OUT.tap SO BASELINE ARCH WORK 'MAKE...'
# (run from the source tree; MAKE builds the copy: make DEPS=... LINUX_SRC=...)
set -u
out=$1 so=$2 base=$3 arch=$4 work=$5 make=$6
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_abi: $*" >&2; }
finish() { echo "1..$n" >>"$out"; cat "$out"; exit 0; }

if ! command -v abidiff >/dev/null 2>&1; then
	notok "abidiff is installed (Debian: apt-get install abigail-tools; scripts/deps.sh tests)"
	finish
fi
if [ ! -f "$base" ]; then
	n=$((n + 1)); echo "ok $n - the ABI check # SKIP no baseline for $arch ($base): make abi-baseline makes one" >>"$out"
	finish
fi
if log=$(scripts/abi.sh diff "$so" "$base" "$arch" 2>&1); then
	ok "libselfmon.so's ABI is the baseline's ($base), additions aside"
else
	notok "libselfmon.so's ABI differs from $base (if on purpose: docs/abi.md): $(printf '%s' "$log" | head -n 20 | tr '\n' ' ')"
fi

# The copy, its change, its build.
rm -rf "$work" && mkdir -p "$work/tree" || exit 1
tar --exclude=./build --exclude=./.git -cf - . | tar -C "$work/tree" -xf - || exit 1
h="$work/tree/include/selfmon"
python3 - "$h/marker.h" "$h/priv/marker.h" <<'PY' || { notok "the injection finds its places in marker.h and priv/marker.h"; finish; }
import sys
text = {p: open(p).read() for p in sys.argv[1:]}
edits = [
    ('#define SELFMON_ABI_LAYOUT 1', '#define SELFMON_ABI_LAYOUT 2'),
    ('#if SELFMON_ABI_LAYOUT != 1', '#if SELFMON_ABI_LAYOUT != 2'),
    ('#define selfmon_priv_marker_self selfmon_priv_marker_self_1', '#define selfmon_priv_marker_self selfmon_priv_marker_self_2'),
    ('extern __thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self_1;',
     'extern __thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self_2;\n'
     '/** selfmon_priv_marker_self_1 - layout 1\'s, for code built against it. */\n'
     'extern __thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self_1;'),
    ('\tunsigned long nr_slots;\n', '\tunsigned long nr_slots;\n\tunsigned long injected_;\n'),
]
for a, b in edits:
    at = [p for p in text if text[p].count(a) == 1]
    if len(at) != 1 or sum(t.count(a) for t in text.values()) != 1:
        sys.exit('not once: ' + a)
    text[at[0]] = text[at[0]].replace(a, b)
for p in text:
    open(p, 'w').write(text[p])
PY
# shellcheck disable=SC2086 # MAKE is a command line
if ! blog=$(cd "$work/tree" && $make O="$work/tree/build" lib 2>&1); then
	notok "the tree with a changed layout builds: $(printf '%s' "$blog" | tail -n 5 | tr '\n' ' ')"
	finish
fi
new=""
for f in "$work/tree/build"/libselfmon.so.*.*.*; do [ -f "$f" ] && new=$f; done
log=$(scripts/abi.sh diff "$new" "$base" "$arch" 2>&1)
rc=$?
# abidiff's status: bit 4 an ABI change, bit 8 an incompatible one.
if [ $((rc & 12)) -ne 0 ] && printf '%s' "$log" | grep -q selfmon_priv_marker_thread; then
	ok "the check fails on a field added in the middle of struct selfmon_priv_marker_thread (abidiff status $rc, the struct named)"
else
	notok "the check passes a field added in the middle of struct selfmon_priv_marker_thread (abidiff status $rc): $(printf '%s' "$log" | head -n 10 | tr '\n' ' ')"
fi

# A program of layout 1 run with each library: the same regions. One whose
# pairs are inline C (x86_64: as built against an earlier release,
# SELFMON_X86_INLINE_PAIR) reads the layout: with the changed library its
# pairs go to the library's path, said once. One whose pairs are the arch's
# fixed sequence only calls the library: it names no layout-bound symbol
# and has nothing to say.
regions() { awk -F, 'NR > 1 && $2 == "all" { print $1 " " $4 }' "$1" 2>/dev/null | sort | tr '\n' ';'; }
export SELFMON_EVENTS="${EVENTS:-task-clock}" SELFMON_FORMAT=csv
run_layout_1() { # NAME CFLAGS BOUND: 1 when its pairs read the layout (said once), 0 when not (never said), any
	prog="$work/host-$1"
	# shellcheck disable=SC2086 # CFLAGS are words
	if ! plog=$(cc -std=c11 -O2 $2 -Iinclude -Iarch/"$arch"/include tests/plugin/host.c -L"$(dirname "$so")" -lselfmon -ldl -o "$prog" 2>&1); then
		notok "a program ($1) builds against libselfmon.so: $plog"
		return
	fi
	bound=$(nm -u "$prog" | grep -c 'selfmon_priv_marker_self_1')
	LD_LIBRARY_PATH=$(dirname "$so") SELFMON_OUTPUT="$work/same-$1.csv" "$prog" 10 2>"$work/same-$1.err"
	a=$(regions "$work/same-$1.csv")
	LD_LIBRARY_PATH="$work/tree/build" SELFMON_OUTPUT="$work/other-$1.csv" "$prog" 10 2>"$work/other-$1.err"
	rc=$?
	b=$(regions "$work/other-$1.csv")
	said=$(grep -c "code built against layout 1 of <selfmon/marker.h>, this library has layout 2" "$work/other-$1.err")
	if [ $rc -eq 0 ] && [ -n "$a" ] && [ "$a" = "$b" ] && [ "$said" -eq "$bound" ] &&
	   { [ "$3" = any ] || [ "$3" -eq "$bound" ]; }; then
		ok "a program of layout 1 ($1, layout-bound: $bound) with a library of layout 2 (LD_LIBRARY_PATH) runs, says so $said times, counts the same regions: $b"
	else
		notok "a program of layout 1 ($1) with a library of layout 2: status $rc, regions '$b' (its own library: '$a'), said $said times, layout-bound $bound (expected $3): $(cat "$work/other-$1.err")"
	fi
}
if [ "$arch" = x86 ]; then
	run_layout_1 "inline C pairs" -DSELFMON_X86_INLINE_PAIR 1
	run_layout_1 "the fixed sequence" "" 0
else
	run_layout_1 "its arch's pairs" "" any
fi
finish
