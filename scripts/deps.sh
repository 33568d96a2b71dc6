#!/bin/sh
# Install the Debian 12 packages selfmon needs, and only the missing ones.
# Usage: scripts/deps.sh [host|arm64|vm|lava]...   (no argument: host)
set -eu

want=""
add() { want="$want $*"; }
for what in "${@:-host}"; do
	case "$what" in
	# libclang-rt-14-dev: libFuzzer and the sanitizer runtimes for clang, only
	# recommended by clang (not installed with --no-install-recommends).
	host)  add make gcc clang libclang-rt-14-dev libc6-dev pkg-config linux-source-6.1 libcmocka-dev python3-kconfiglib xz-utils linux-perf
	       # Google Benchmark's compare.py, which must read selfmon bench's JSON.
	       add libbenchmark-tools python3-scipy ;;
	arm64) add gcc-aarch64-linux-gnu libc6-dev-arm64-cross libcmocka-dev:arm64 cmake ;;
	vm)    add qemu-system-arm cpio device-tree-compiler ;;
	# LAVA's dispatcher (lava-run) and what rendering a device needs; git
	# for the definition referenced from a repository.
	lava)  add lava-dispatcher python3-jinja2 python3-yaml git ;;
	*) echo "deps.sh: unknown set '$what' (host, arm64, vm, lava)" >&2; exit 2 ;;
	esac
done

need_arm64_arch=0
missing=""
for p in $want; do
	case "$p" in *:arm64) need_arm64_arch=1 ;; esac
	# dpkg-query prints "install ok installed" only for a fully installed package.
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -n "$missing" ] || exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then sudo=sudo
	else echo "deps.sh: need root (or sudo) to install:$missing" >&2; exit 1; fi
fi

echo "deps.sh: installing:$missing"
if [ "$need_arm64_arch" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$sudo dpkg --add-architecture arm64
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
