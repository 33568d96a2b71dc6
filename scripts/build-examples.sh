#!/bin/sh
# SPDX-License-Identifier: MIT
# Build examples/*.c as a user of the installed library builds them: against
# a `make install DESTDIR=STAGING prefix=/usr`, with the flags a (cross)
# pkg-config gives for that sysroot, by the target's compiler, optimized
# (-O2: a budget, as examples/budget_cmocka.c's, holds for the code an
# optimized build makes; built -O0, its checksum measured 1109 instructions
# on the board, over its budget of 450).
# Usage: scripts/build-examples.sh STAGING OUTDIR "CC [CC flags]" "LDFLAGS" SRC...
#   (SRC: NAME.c or NAME.cpp)
# One line per example on stdout ("built NAME", "skipped NAME: why" or
# "failed NAME: why"); exit 1
# when one failed. Beside each program, NAME.nopmu holds the arguments its
# source gives for a machine without a hardware PMU ("Without a hardware
# PMU: ./NAME ARGS" in its first comment), if any. An example that includes
# <selfmon/cmocka.h> is a cmocka test: it gets $CMOCKA (default -lcmocka; a
# static build passes its own static cmocka's -I and libcmocka.a).
# An example in C++ (NAME.cpp) is built by the C++ compiler of the same
# toolchain: $CXX, else CC's first word with gcc, clang or cc made g++,
# clang++ or c++ (its flags kept); a toolchain with none (musl, through
# musl-gcc or gcc's specs) says "skipped NAME: why".
set -u
staging=$1 outdir=$2 cc=$3 ldflags=$4
shift 4
mkdir -p "$outdir" || exit 1
export PKG_CONFIG_SYSROOT_DIR="$staging" PKG_CONFIG_LIBDIR="$staging/usr/lib/pkgconfig" PKG_CONFIG_PATH=
if ! flags=$(pkg-config --cflags --libs --static selfmon 2>&1); then
	echo "failed pkg-config: no selfmon.pc in $staging/usr/lib/pkgconfig: $flags"
	exit 1
fi
# The C++ compiler of CC's toolchain (see above); empty: none.
cxx_of() {
	# musl through gcc's specs (scripts/mk/libc.mk) has no C++ library.
	case $1 in *musl*) return ;; esac
	# shellcheck disable=SC2086
	set -- $1
	first=$1
	shift
	case $first in
	*musl-gcc) return ;;
	*gcc) first=${first%gcc}g++ ;;
	*clang) first=${first}++ ;;
	*cc) first=${first%cc}c++ ;;
	*) return ;;
	esac
	command -v "$first" >/dev/null 2>&1 && echo "$first $*"
}
# The archive, also where libselfmon.so is installed beside it: the examples
# travel without the library (the board's test bundle).
flags=$(printf '%s\n' "$flags" | sed 's/-lselfmon\b/-l:libselfmon.a/')
rc=0
for src in "$@"; do
	name=$(basename "$src" .c)
	comp="$cc -std=c11"
	case $src in
	*.cpp)
		name=$(basename "$src" .cpp)
		cxx=${CXX:-$(cxx_of "$cc")}
		if [ -z "$cxx" ]; then
			echo "skipped $name: no C++ compiler beside '$cc'"
			continue
		fi
		comp="$cxx -std=c++17"
		;;
	esac
	extra=""
	grep -q '^#include <selfmon/cmocka.h>' "$src" && extra=${CMOCKA:--lcmocka}
	# shellcheck disable=SC2086
	if log=$($comp -O2 -Wall -Wextra -Werror "$src" $flags $ldflags $extra -o "$outdir/$name" 2>&1); then
		echo "built $name"
	else
		echo "failed $name: $(printf '%s\n' "$log" | head -n 5 | tr '\n' ' ')"
		rc=1
	fi
	sed -n "s|^.*Without a hardware PMU: \./$name \(.*\)\$|\1|p" "$src" | head -n 1 >"$outdir/$name.nopmu"
	[ -s "$outdir/$name.nopmu" ] || rm -f "$outdir/$name.nopmu"
done
exit $rc
