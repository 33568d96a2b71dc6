#!/bin/sh
# SPDX-License-Identifier: MIT
# Debian ships cmocka only as a shared library; a static test binary (the
# initramfs of the emulated board, a board without cmocka) needs libcmocka.a.
# Build it from Debian's own cmocka source package, fetched through a private
# apt configuration (a deb-src list under DEPS), so the system's apt sources
# stay as they are.
# Usage: scripts/build-cmocka.sh DEPS_DIR TRIPLE CC [CC_FLAG...]
#   TRIPLE names the target (aarch64-linux-musl for a musl build, whose CC is
#   gcc with musl's specs file: CC's flags go to cmake as CMAKE_C_FLAGS).
# Result: DEPS_DIR/cmocka-<triple>/{lib/libcmocka.a,include/cmocka.h}
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

deps=$1 triple=$2 cc=$3
shift 3
# Kept now: the fetch below reuses "$@" for its apt options.
flags="$*"
mkdir -p "$deps"
deps=$(cd "$deps" && pwd)
out="$deps/cmocka-$triple"
[ -f "$out/.stamp" ] && exit 0

src="$deps/cmocka-src"
if [ ! -f "$src/.stamp" ]; then
	echo "  FETCH    cmocka source (Debian bookworm)"
	apt="$deps/apt-src"
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/cache/archives/partial" "$src"
	cat >"$apt/parts/debian-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	set -- -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root -q
	apt-get "$@" update >"$apt/log" 2>&1 || { cat "$apt/log" >&2; exit 1; }
	(cd "$src" && apt-get "$@" source --download-only cmocka) >>"$apt/log" 2>&1 ||
		{ cat "$apt/log" >&2; echo "build-cmocka: could not fetch Debian's cmocka source" >&2; exit 1; }
	tar -xJf "$src"/cmocka_*.orig.tar.xz -C "$src" --strip-components=1
	touch "$src/.stamp"
fi

echo "  CMOCKA   static, $triple"
rm -rf "$out" && mkdir -p "$out/build" "$out/lib" "$out/include"
cmake -S "$src" -B "$out/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags" -DCMAKE_SYSTEM_NAME=Linux \
	-DCMAKE_SYSTEM_PROCESSOR="${triple%%-*}" -DWITH_STATIC_LIB=ON -DUNIT_TESTING=OFF \
	-DWITH_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
	make -C "$out/build" cmocka-static >>"$out/build.log" 2>&1 ||
	{ cat "$out/build.log" >&2; echo "build-cmocka: build failed" >&2; exit 1; }
cp "$out/build/src/libcmocka-static.a" "$out/lib/libcmocka.a"
cp "$src/include/cmocka.h" "$out/include/"
touch "$out/.stamp"
