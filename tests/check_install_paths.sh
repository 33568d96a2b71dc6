#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install` as users run it, beyond the cross staging of
# tests/check_install.sh: into a prefix holding a space, '&' and a quote,
# for the glibc build and for the musl build (LIBC=musl); then a program
# compiled and linked against each install through pkg-config alone. The
# musl toolchain ships no kernel UAPI headers: the install must bring the
# <linux/perf_event.h> the public headers include, and selfmon.pc name it.
# TAP to OUT.
# Usage: tests/check_install_paths.sh OUT.tap MAKE GLIBC_O MUSL_O PROGRAM.c
#   MAKE: the make command for this tree (with its DEPS=...), one string
set -u
unset CDPATH
# shellcheck disable=SC2034 # prog: read inside eval
out=$1 make=$2 glibc_o=$3 musl_o=$4 prog=$5
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_install_paths: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >>"$out"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-install-paths.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# One install: LIBC, O, the compiler a user of that C library runs.
check() {
	libc=$1 o=$2 cc=$3
	prefix="$work/$libc/odd prefix & co's"
	# shellcheck disable=SC2086
	if ! log=$($make O="$o" LIBC="$libc" install prefix="$prefix" 2>&1); then
		notok "$libc: make install prefix='$prefix': $log"
		return
	fi
	if [ -f "$prefix/lib/libselfmon.a" ] && [ -f "$prefix/include/selfmon/selfmon.h" ] &&
	   [ -x "$prefix/bin/selfmon" ] && [ -f "$prefix/lib/pkgconfig/selfmon.pc" ]; then
		ok "$libc: make install puts the library, headers, CLI and selfmon.pc in a prefix with a space, '&' and a quote"
	else
		notok "$libc: make install into '$prefix' left: $(cd "$work" && find . | tr '\n' ' ')"
		return
	fi
	# pkg-config prints the flags as shell words ("a\ b"): eval reads them so.
	export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig"
	if ! flags=$(pkg-config --cflags --static --libs selfmon 2>&1); then
		notok "$libc: pkg-config reads the installed selfmon.pc: $flags"
		return
	fi
	bin="$work/$libc/program"
	if log=$(eval "$cc -static -o \"\$bin\" \"\$prog\" $flags" 2>&1); then
		ok "$libc: $cc compiles and links a program against the install with pkg-config's flags alone"
	else
		notok "$libc: $cc compiles and links a program against the install with pkg-config's flags ($flags): $log"
		return
	fi
	# It runs: counts, or says why it cannot (no PMU here); never a crash.
	"$bin" 1000 >"$work/$libc/run.log" 2>&1
	rc=$?
	if [ $rc -lt 126 ]; then
		ok "$libc: the program runs (status $rc: $(head -n 1 "$work/$libc/run.log"))"
	else
		notok "$libc: the program dies with status $rc: $(cat "$work/$libc/run.log")"
	fi
}

# The shared link of the same install: pkg-config --libs (not --static)
# names -lselfmon alone, the link finds libselfmon.so, the program runs with
# it from the odd prefix.
shared() {
	prefix="$work/glibc/odd prefix & co's"
	export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig"
	flags=$(pkg-config --cflags --libs selfmon 2>&1)
	bin="$work/glibc/program-shared"
	if log=$(eval "gcc -o \"\$bin\" \"\$prog\" $flags" 2>&1) && readelf -d "$bin" | grep -q 'NEEDED.*libselfmon\.so\.0'; then
		ok "glibc: pkg-config --libs selfmon ($flags) links a program against the installed libselfmon.so.0"
	else
		notok "glibc: pkg-config --libs selfmon ($flags) links no program against libselfmon.so.0: $log"
		return
	fi
	LD_LIBRARY_PATH="$prefix/lib" "$bin" 1000 >"$work/glibc/run-shared.log" 2>&1
	rc=$?
	if [ $rc -lt 126 ]; then
		ok "glibc: the program runs with the installed libselfmon.so (status $rc)"
	else
		notok "glibc: the program with libselfmon.so dies with status $rc: $(cat "$work/glibc/run-shared.log")"
	fi
}

if [ -f "$glibc_o/libselfmon.a" ]; then
	check glibc "$glibc_o" gcc
	shared
else
	notok "glibc: no build at '$glibc_o' (make all first)"
fi
musl_cc=$(command -v musl-gcc 2>/dev/null)
if [ -z "$musl_cc" ]; then
	skip "musl: install and a program against it" "no musl-gcc here (Debian: apt-get install musl-tools; scripts/deps.sh installs it)"
elif [ ! -f "$musl_o/libselfmon.a" ]; then
	notok "musl: no LIBC=musl build at '$musl_o' (make O=$musl_o LIBC=musl all first)"
else
	check musl "$musl_o" musl-gcc
	# The UAPI headers come from the install, not from the build host.
	if [ -f "$work/musl/odd prefix & co's/include/selfmon/uapi/linux/perf_event.h" ]; then
		ok "musl: the install holds the kernel UAPI headers the library was built with (include/selfmon/uapi)"
	else
		notok "musl: the install holds no include/selfmon/uapi/linux/perf_event.h"
	fi
fi
echo "1..$n" >>"$out"
grep -q '^not ok' "$out" && exit 1
exit 0
