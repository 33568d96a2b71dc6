#!/bin/sh
# Build the third-party pieces selfmon links against, from Debian's
# linux-source-6.1 tarball, into a build-local prefix:
#   $DEPS/src/          the few tools/ directories we need, extracted once
#   $DEPS/kselftest/    kselftest_harness.h and kselftest.h
#   $DEPS/<arch>/       libperf.a, libapi.a and the libperf headers
# Usage: scripts/build-deps.sh DEPS_DIR ARCH [CROSS_COMPILE]
# A stamp file per step makes a second run a no-op.
set -eu

deps=$1 arch=$2 cross=${3:-}
tarball=${SELFMON_LINUX_SOURCE:-/usr/src/linux-source-6.1.tar.xz}
top=linux-source-6.1

mkdir -p "$deps"
deps=$(cd "$deps" && pwd)

if [ ! -f "$deps/src/.stamp" ]; then
	[ -f "$tarball" ] || { echo "build-deps: $tarball missing: run scripts/deps.sh (package linux-source-6.1)" >&2; exit 1; }
	rm -rf "$deps/src" && mkdir -p "$deps/src"
	echo "  EXTRACT $tarball (libperf, libapi, kselftest headers)"
	# One pass over the 130 MB tarball: only the members named here.
	tar -xJf "$tarball" -C "$deps/src" --strip-components=1 --wildcards \
		"$top/tools/lib/perf" "$top/tools/lib/api" "$top/tools/lib/*.c" \
		"$top/tools/include" "$top/tools/arch/x86/include" \
		"$top/tools/arch/arm64/include" "$top/tools/scripts" "$top/tools/build" \
		"$top/tools/testing/selftests/kselftest_harness.h" \
		"$top/tools/testing/selftests/kselftest.h"
	touch "$deps/src/.stamp"
fi

if [ ! -f "$deps/kselftest/.stamp" ]; then
	mkdir -p "$deps/kselftest"
	cp "$deps/src/tools/testing/selftests/kselftest_harness.h" \
	   "$deps/src/tools/testing/selftests/kselftest.h" "$deps/kselftest/"
	touch "$deps/kselftest/.stamp"
fi

out="$deps/$arch"
if [ ! -f "$out/.stamp" ]; then
	rm -rf "$out" && mkdir -p "$out/obj"
	echo "  LIBPERF $arch"
	# EXTRA_CFLAGS=-O2: libperf's own Makefile builds without optimisation.
	make -s -C "$deps/src/tools/lib/perf" ARCH="$arch" CROSS_COMPILE="$cross" \
		EXTRA_CFLAGS="-O2 -fPIC" O="$out/obj/" prefix="$out" libdir="$out/lib" \
		install_lib install_headers >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; echo "build-deps: libperf build failed for $arch" >&2; exit 1; }
	# libperf.a calls into libapi; a static link needs both.
	cp "$out/obj/libapi.a" "$out/lib/"
	rm -f "$out"/lib/libperf.so*
	touch "$out/.stamp"
fi
