#!/bin/sh
# Build the third-party pieces selfmon links against, from Debian's
# linux-source-6.1 tarball, into a build-local prefix:
#   $DEPS/src/          the few tools/ directories we need, extracted once
#   $DEPS/kselftest/    kselftest_harness.h and kselftest.h
#   $DEPS/<arch>/       libperf.a, libapi.a and the libperf headers
#   $DEPS/<arch>-musl/  the same for musl (SELFMON_LIBC=musl), and uapi/: the
#                       target's kernel UAPI headers, which musl's -nostdinc
#                       specs leave out
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
cc="${cross}gcc"

# ---- the C library variant: musl (SELFMON_LIBC=musl, set by the Makefile) ----
# gcc with musl's specs file (Debian's musl-dev, musl-dev:arm64). The UAPI
# headers are the target toolchain's: a cross build never takes the build
# host's. Patches for libperf under musl, if any, are
# scripts/patches/libperf-musl-*.patch, applied to a copy of the extracted
# sources (the glibc build keeps the pristine ones).
if [ "${SELFMON_LIBC:-glibc}" = musl ]; then
	triple=$($cc -dumpmachine) || { echo "build-deps: no $cc: install the toolchain (scripts/deps.sh)" >&2; exit 1; }
	triple=${triple%-gnu}-musl
	specs=/usr/lib/$triple/musl-gcc.specs
	[ -f "$specs" ] || { echo "build-deps: $specs missing: install musl (scripts/deps.sh tests board: musl-tools, musl-dev:arm64)" >&2; exit 1; }
	if [ -n "$cross" ]; then inc=/usr/${cross%-}/include asm=/usr/${cross%-}/include/asm
	else inc=/usr/include asm=/usr/include/$($cc -dumpmachine)/asm; fi
	out="$deps/$arch-musl"
	if [ ! -f "$out/.stamp" ]; then
		for d in "$inc/linux" "$inc/asm-generic" "$asm"; do
			[ -d "$d" ] || { echo "build-deps: $d missing: the target's kernel headers (linux-libc-dev, or linux-libc-dev-arm64-cross)" >&2; exit 1; }
		done
		rm -rf "$out" && mkdir -p "$out/uapi"
		cp -R "$inc/linux" "$inc/asm-generic" "$out/uapi/" && cp -R "$asm" "$out/uapi/asm"
	fi
	cc="$cc -specs $specs -isystem $out/uapi"
	set -- "$(cd "$(dirname "$0")" && pwd)"/patches/libperf-musl-*.patch
	if [ -f "$1" ] && [ ! -f "$out/.stamp" ]; then
		mkdir -p "$out/src" && cp -R "$deps/src/tools" "$out/src/"
		for p in "$@"; do
			patch -s -d "$out/src" -p1 <"$p" || { echo "build-deps: $p does not apply" >&2; exit 1; }
		done
		src_perf="$out/src/tools/lib/perf"
	fi
fi
if [ ! -f "$out/.stamp" ]; then
	rm -rf "$out/obj" "$out/lib" "$out/include" && mkdir -p "$out/obj"
	echo "  LIBPERF $arch${SELFMON_LIBC:+ $SELFMON_LIBC}"
	# EXTRA_CFLAGS=-O2: libperf's own Makefile builds without optimisation.
	# A section per function and datum: libperf.a and libapi.a are each one
	# relocatable object, which a --gc-sections link (the minimal program)
	# could otherwise only take whole (libapi's 37 KB of path buffers).
	make -s -C "${src_perf:-$deps/src/tools/lib/perf}" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc" \
		EXTRA_CFLAGS="-O2 -fPIC -ffunction-sections -fdata-sections" O="$out/obj/" prefix="$out" libdir="$out/lib" \
		install_lib install_headers >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; echo "build-deps: libperf build failed for $arch" >&2; exit 1; }
	# libperf.a calls into libapi; a static link needs both.
	cp "$out/obj/libapi.a" "$out/lib/"
	rm -f "$out"/lib/libperf.so*
	touch "$out/.stamp"
fi
