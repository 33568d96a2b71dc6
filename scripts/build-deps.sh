#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the third-party pieces selfmon links against from a kernel source
# (LINUX_SRC: a tree, or a .tar.xz/.tar.gz/.tar of one; Debian's
# linux-source-6.1 tarball by default) into a build-local prefix, one per
# source (the Makefile names it build/deps/<src-id>, `build-deps.sh --id`):
#   $DEPS/src/          the few tools/ directories we need, copied once
#   $DEPS/kselftest/    kselftest_harness.h and kselftest.h
#   $DEPS/<arch>/       libperf.a, libapi.a and the libperf headers, and
#                       libperf-compat.h: what this libperf offers (below)
#   $DEPS/<arch>-musl/  the same for musl (SELFMON_LIBC=musl), and uapi/: the
#                       target's kernel UAPI headers, which musl's -nostdinc
#                       specs leave out
# Usage: LINUX_SRC=PATH scripts/build-deps.sh DEPS_DIR ARCH [CROSS_COMPILE]
#        scripts/build-deps.sh --id PATH    the source's id, for the deps dir
# A stamp file per step makes a second run a no-op.
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

# How the pieces are built: a change to the flags below that a build made
# before it must not keep (a cached libperf.a) raises it, and with it the id.
RECIPE=5

# The source's id: its name and a checksum of where it is and what it is (a
# tarball's size and time; a tree's libperf and libapi files) and of the
# recipe, so that two sources, a source that changed, or a new recipe never
# share a build.
src_id() {
	p=$1
	name=$(basename "$p" | sed -e 's/\.\(tar\.xz\|tar\.gz\|tgz\|tar\.bz2\|tar\)$//' -e 's/[^A-Za-z0-9._+-]/_/g')
	if [ -d "$p" ]; then
		sum=$({ cd "$p" && pwd -P && find tools/lib/perf tools/lib/api Makefile -type f \
			-printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort; } | cksum)
	elif [ -e "$p" ]; then
		sum=$({ readlink -f "$p" && stat -L -c '%s %Y' "$p"; } | cksum)
	else
		sum=$(printf '%s\n' "$p" | cksum)
	fi
	sum=$(printf '%s recipe %s\n' "${sum%% *}" "$RECIPE" | cksum)
	echo "${name:-src}-$(printf '%08x' "${sum%% *}")"
}

if [ "${1:-}" = "--id" ]; then
	src_id "${2:?usage: build-deps.sh --id PATH}"
	exit 0
fi

# scripts/kernel-doc, which makes the section 3 man pages from the public
# headers' doc comments: into $DEPS/src/scripts/, beside the tools/
# directories, for a deps folder made before it was taken too.
# Usage: LINUX_SRC=PATH scripts/build-deps.sh --kernel-doc DEPS_DIR
if [ "${1:-}" = "--kernel-doc" ]; then
	deps=${2:?usage: build-deps.sh --kernel-doc DEPS_DIR} src=${LINUX_SRC:-/usr/src/linux-source-6.1.tar.xz}
	kd="$deps/src/scripts/kernel-doc"
	[ -f "$kd" ] && exit 0
	mkdir -p "$deps/src/scripts"
	echo "  EXTRACT $src (scripts/kernel-doc)"
	if [ -d "$src" ]; then
		cp "$src/scripts/kernel-doc" "$kd.tmp"
	else
		top=$(tar -tf "$src" 2>/dev/null | head -n 1 | cut -d/ -f1)
		tar -xOf "$src" "$top/scripts/kernel-doc" >"$kd.tmp"
	fi || { rm -f "$kd.tmp"; echo "build-deps: LINUX_SRC '$src' has no scripts/kernel-doc" >&2; exit 1; }
	[ -s "$kd.tmp" ] || { rm -f "$kd.tmp"; echo "build-deps: LINUX_SRC '$src' has no scripts/kernel-doc" >&2; exit 1; }
	mv "$kd.tmp" "$kd"
	exit 0
fi

deps=$1 arch=$2 cross=${3:-}
src=${LINUX_SRC:-/usr/src/linux-source-6.1.tar.xz}
die() { echo "build-deps: $*" >&2; exit 1; }

# What selfmon takes from a kernel source, relative to its top.
NEED="tools/lib/perf tools/lib/api tools/include tools/build tools/scripts
tools/arch/x86/include tools/arch/arm64/include
tools/testing/selftests/kselftest_harness.h tools/testing/selftests/kselftest.h"

# Which of $NEED the tree $1 lacks (none: prints nothing).
lacking() {
	for n in $NEED; do [ -e "$1/$n" ] || printf ' %s' "$n"; done
}

notkernel() { # SOURCE WHAT
	die "LINUX_SRC '$1' is not a kernel source (a tree, or a .tar.xz/.tar.gz/.tar of one): $2. Name the top of a Linux 6.0 or newer tree (the directory holding MAINTAINERS and tools/lib/perf), or unset LINUX_SRC for Debian's linux-source-6.1"
}

# Copy (a tree) or extract (a tarball) $NEED into $deps/src.
fetch_src() {
	rm -rf "$deps/src" && mkdir -p "$deps/src"
	if [ -d "$src" ]; then
		miss=$(lacking "$src")
		[ -z "$miss" ] || notkernel "$src" "it has no$miss"
		echo "  COPY    $src (libperf, libapi, kselftest headers)"
		(cd "$src" && tar -cf - $NEED tools/lib/*.c Makefile $(ls scripts/kernel-doc 2>/dev/null)) | tar -xf - -C "$deps/src"
		return
	fi
	[ -e "$src" ] || die "LINUX_SRC '$src': no such file or directory$([ "$src" != /usr/src/linux-source-6.1.tar.xz ] || echo " (scripts/deps.sh installs Debian's linux-source-6.1)")"
	# The tarball's top directory (linux-6.6/, linux-source-6.1/) from its first member.
	top=$(tar -tf "$src" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || notkernel "$src" "tar cannot list it"
	echo "  EXTRACT $src (libperf, libapi, kselftest headers)"
	# One pass over the tarball (tar finds the compression): only these members.
	set --
	for n in $NEED tools/lib/'*.c' Makefile scripts/kernel-doc; do set -- "$@" "$top/$n"; done
	tar -xf "$src" -C "$deps/src" --strip-components=1 --wildcards "$@" 2>/dev/null || true
	miss=$(lacking "$deps/src")
	[ -z "$miss" ] || { rm -rf "$deps/src"; notkernel "$src" "its $top/ has no$miss"; }
}

mkdir -p "$deps"
deps=$(cd "$deps" && pwd)

if [ ! -f "$deps/src/.stamp" ]; then
	fetch_src
	# VERSION.PATCHLEVEL.SUBLEVEL of the tree's Makefile, for messages.
	sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = *\([0-9]*\)$/\2/p' "$deps/src/Makefile" 2>/dev/null |
		head -n 3 | paste -sd. >"$deps/src/.version"
	printf '%s\n' "$src" >"$deps/src/.source"
	touch "$deps/src/.stamp"
fi
version=$(cat "$deps/src/.version")

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
# host's. Patches for libperf under musl are scripts/patches/libperf-musl-*.patch
# (each says why), applied to a copy of the extracted sources (the glibc
# build keeps the pristine ones).
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
	# musl builds are the boards' small static images, and libperf's
	# asserts (BUG_ON() of tools/include/asm/bug.h, in its refcounts and
	# readn()) call musl's __assert_fail(), which prints with fprintf(3):
	# the C library's whole formatter in every such program for a check
	# that never fires. The glibc build keeps them, and runs the same tests.
	# No unwind tables either (2.2 KB of .eh_frame in the smallest image),
	# as CONFIG_UNWIND_TABLES=n leaves out selfmon's own: nothing in a C
	# program unwinds through libperf but a debugger or a profiler, which
	# read the frame tables of the debug information (.debug_frame) in a
	# program that keeps it.
	extra_cflags="-DNDEBUG -fno-asynchronous-unwind-tables -fno-unwind-tables"
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
	# Not uapi/, made above for musl.
	rm -rf "$out/obj" "$out/lib" "$out/include" && mkdir -p "$out/obj"
	echo "  LIBPERF $arch${SELFMON_LIBC:+ $SELFMON_LIBC} (Linux ${version:-?})"
	# EXTRA_CFLAGS=-O2: libperf's own Makefile builds without optimisation.
	# DESTDIR= : a `make install DESTDIR=...` of selfmon that builds libperf
	# on the way passes its DESTDIR down (the environment, MAKEFLAGS), and
	# libperf's install would put this build-local prefix under it.
	# A section per function and datum: libperf.a and libapi.a are each one
	# relocatable object, which a --gc-sections link (the minimal program)
	# could otherwise only take whole (libapi's 37 KB of path buffers).
	# A clean environment: not the caller's CFLAGS, CPPFLAGS or LDFLAGS (a
	# distro's, exported or on selfmon's command line, which MAKEFLAGS
	# carries), nor selfmon's own command line (includedir=, prefix=). This
	# build is cached per kernel source and target only, and shared by every
	# tree and compiler (DEPS): flags given to the build that happened to
	# make it first would apply to all the others, and flags given later to
	# none. libperf's Makefile takes a CFLAGS from either place as its base,
	# and -std=c11 (selfmon's) breaks its GNU C.
	# -fmacro-prefix-map: libperf's asserts (tools/include/linux/refcount.h)
	# name their file by __FILE__, which would carry this folder's absolute
	# path into every static program, making its size and bytes depend on
	# where the tree was cloned. Relative to the deps folder instead.
	env -u CFLAGS -u CPPFLAGS -u LDFLAGS -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES make -s -C "${src_perf:-$deps/src/tools/lib/perf}" ARCH="$arch" CROSS_COMPILE="$cross" CC="$cc" \
		EXTRA_CFLAGS="${extra_cflags:-} -O2 -fPIC -ffunction-sections -fdata-sections -fmacro-prefix-map=$(cd "$deps" && pwd -P)/=" O="$out/obj/" prefix="$out" libdir="$out/lib" DESTDIR= \
		install_lib install_headers >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; die "libperf build failed for $arch from LINUX_SRC '$src' (Linux ${version:-?})"; }
	# libperf.a calls into libapi; a static link needs both.
	cp "$out/obj/libapi.a" "$out/lib/"
	rm -f "$out"/lib/libperf.so*
	# musl: libperf allocates through selfmon's heap (core/heap.h), which is
	# the C library's malloc unless CONFIG_SMALL_HEAP makes it an arena of
	# selfmon's own: then a static program that calls no malloc itself
	# carries none of musl's (about 7 KiB). libapi keeps the C library's:
	# what it allocates (asprintf(3), getline(3)) it frees itself.
	if [ "${SELFMON_LIBC:-glibc}" = musl ]; then
		"${cross}objcopy" --redefine-sym malloc=selfmon_heap__malloc \
			--redefine-sym calloc=selfmon_heap__calloc --redefine-sym realloc=selfmon_heap__realloc \
			--redefine-sym free=selfmon_heap__free "$out/lib/libperf.a"
	fi
	"$(dirname "$0")/check-libperf.sh" "$out" "$cross" "$src" "$version" || { rm -rf "$out"; exit 1; }
	touch "$out/.stamp"
fi
