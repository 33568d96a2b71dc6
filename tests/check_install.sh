#!/bin/sh
# SPDX-License-Identifier: MIT
# `make install` of a cross build into a sysroot's staging folder, as
# Buildroot stages a library: the selfmon.pc it writes must give a cross
# pkg-config (PKG_CONFIG_SYSROOT_DIR, PKG_CONFIG_LIBDIR) the flags with which
# the cross compiler links a program against the staged library. TAP to OUT.
# Usage: tests/check_install.sh OUT.tap STAGING CROSS_COMPILE PROGRAM.c [CC_FLAGS]
# (STAGING holds `make ARCH=... CROSS_COMPILE=... install DESTDIR=STAGING prefix=/usr`;
# CC_FLAGS go to the compiler before pkg-config's, e.g. musl's -specs file.)
# The program is left at STAGING.program, for the board to run.
set -u
out=$1 staging=$2 cross=$3 prog=$4 ccflags=${5:-}
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_install: $*" >&2; }

export PKG_CONFIG_SYSROOT_DIR="$staging" PKG_CONFIG_LIBDIR="$staging/usr/lib/pkgconfig" PKG_CONFIG_PATH=
cflags=$(pkg-config --cflags selfmon 2>&1) && libs=$(pkg-config --static --libs selfmon 2>&1)
if [ $? -ne 0 ]; then
	notok "a cross pkg-config finds selfmon.pc in the staging folder: $cflags $libs"
	exit 0
fi
# Every path it gives lies in the staging folder, none on the build host.
case " $cflags $libs " in
*" -I$staging/usr/include"*" -L$staging/usr/lib "*)
	ok "a cross pkg-config gives the staged include and library folders: $cflags $libs" ;;
*) notok "a cross pkg-config gives the staged include and library folders, not '$cflags $libs'" ;;
esac

bin="$staging.program"
rm -f "$bin"
# shellcheck disable=SC2086
if log=$("${cross}gcc" $ccflags -static $cflags "$prog" $libs -o "$bin" 2>&1); then
	# The program is for the staged library's machine (AArch64), not the host's.
	want=$("${cross}readelf" -h "$staging/usr/lib/libselfmon.a" | sed -n 's/^ *Machine: *//p' | head -n 1)
	got=$("${cross}readelf" -h "$bin" | sed -n 's/^ *Machine: *//p')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		ok "${cross}gcc${ccflags:+ $ccflags} links a program against the staged library with pkg-config's flags ($got)"
	else
		notok "the program linked against the staged library is for '$got', not '$want'"
	fi
else
	notok "${cross}gcc${ccflags:+ $ccflags} links a program against the staged library with pkg-config's flags: $log"
fi
