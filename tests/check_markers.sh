#!/bin/sh
# SPDX-License-Identifier: MIT
# examples/markers.c as a user builds it: against the library installed in
# STAGING (make install DESTDIR=STAGING prefix=/usr), with pkg-config's flags;
# then run, markers on and off. TAP to OUT.
# Usage: tests/check_markers.sh OUT.tap STAGING PROGRAM.c [CC]
set -u
out=$1 staging=$2 prog=$3 cc=${4:-cc}
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_markers: $*" >&2; }

export PKG_CONFIG_SYSROOT_DIR="$staging" PKG_CONFIG_LIBDIR="$staging/usr/lib/pkgconfig" PKG_CONFIG_PATH=
# pkg-config's -lselfmon links libselfmon.so where it is installed: the
# program finds it in the staging folder, as in /usr/lib once installed.
export LD_LIBRARY_PATH="$staging/usr/lib"
bin="$staging/../markers-example"
if ! flags=$(pkg-config --cflags --static --libs selfmon 2>&1); then
	notok "pkg-config finds selfmon in the staging folder: $flags"
	cat "$out"
	exit 0
fi
# shellcheck disable=SC2086
if log=$($cc $(pkg-config --cflags selfmon) "$prog" $(pkg-config --static --libs selfmon) -o "$bin" 2>&1); then
	ok "$prog builds against the installed library with pkg-config's flags alone"
else
	notok "$prog builds against the installed library: $log"
	cat "$out"
	exit 0
fi

# Markers on (the default events, or task-clock where no core PMU counts them).
err=$(SELFMON_EVENTS='' "$bin" 2>&1 >/dev/null); rc=$?
if [ $rc -eq 0 ] && [ -z "$err" ]; then
	ok "SELFMON_EVENTS= (empty): the example runs silently, exit status 0"
else
	notok "SELFMON_EVENTS= (empty): status $rc, stderr '$err'"
fi
unset SELFMON_EVENTS SELFMON_OUTPUT SELFMON_FORMAT
err=$("$bin" 2>&1 >/dev/null); rc=$?
row=$(printf '%s\n' "$err" | grep -E '^sum +10 ' || true)
if [ $rc -eq 0 ] && [ -n "$row" ]; then
	ok "the example's report at exit has region 'sum' with its 10 calls: $row"
else
	notok "the example's report at exit: status $rc, stderr: $err"
fi
json="$staging/../markers.json"
rm -f "$json"
SELFMON_OUTPUT="$json" "$bin" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && grep -q '"name": "sum"' "$json" 2>/dev/null && grep -q '"iterations": 10,' "$json"; then
	ok "SELFMON_OUTPUT=markers.json: the report is JSON with region 'sum', 10 iterations"
else
	notok "SELFMON_OUTPUT=markers.json: status $rc, file: $(cat "$json" 2>/dev/null)"
fi
cat "$out"
