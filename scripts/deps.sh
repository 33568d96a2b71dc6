#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian 12 packages selfmon needs, and only the missing ones.
# Packages come in sets by purpose (docs/building.md, "Dependencies by purpose"):
#   build   build and run selfmon on this machine: what `make run` installs
#   tests   the host test suites of `make check`: clang and its runtimes,
#           cmocka, musl, Google Benchmark's compare.py, pkg-config, cmake
#   board   the emulated arm64 board: cross compilers (glibc and musl),
#           arm64 cmocka, QEMU, cpio, dtc
#   lava    LAVA's dispatcher (make check-lava)
#   lab     a LAVA lab in a chroot (make check-lab): mmdebstrap builds it;
#           lava-server itself goes in the chroot, never on the host
#   lint    make lint: checkpatch (perl), cppcheck, clang-tidy (in tests too)
#   musl, musl-arm64   musl for `make LIBC=musl` (x86_64, arm64)
#   deb    make check-deb: the Debian packages built natively and for arm64
#          (debian/control's Build-Depends, the cross toolchain), lintian
# Older names stay: host (= build tests), arm64 and vm (the board's halves).
# Usage: scripts/deps.sh [SET]...   (no argument: build)
#        scripts/deps.sh --list SET...   print the packages, install nothing
set -eu

list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi

want=""
add() { want="$want $*"; }
for what in "${@:-build}"; do
	case "$what" in
	# The compiler and libc headers; the kernel tarball libperf, libapi and
	# the kselftest headers are built from (xz to unpack it); Kconfig.
	# linux-source-6.12: the newest pmu-events tables (metrics, named events).
	build) add make gcc libc6-dev linux-source-6.1 linux-source-6.12 xz-utils python3-kconfiglib ;;
	# libclang-rt-14-dev: libFuzzer and the sanitizer runtimes for clang, only
	# recommended by clang (not installed with --no-install-recommends).
	# cmake builds the static cmocka of the musl and board builds; pkg-config
	# reads the staged selfmon.pc (cross install test); linux-perf's perf
	# script and report read selfmon record's perf.data; man-db and groff-base
	# render the man pages (tests/check_man.sh).
	# g++: the public headers compile as C++ (tests/check_cxx.sh; clang++ is clang's).
	# lld: clang's link-time optimized programs (clang -flto writes LLVM
	# bitcode, which GNU ld does not read): the x86_64 window check's and
	# the board's marker_exact_lto_test.
	tests) add clang libclang-rt-14-dev libcmocka-dev musl-tools cmake pkg-config linux-perf man-db groff-base g++ lld
	       # Google Benchmark's compare.py, which must read selfmon bench's JSON.
	       add libbenchmark-tools python3-scipy
	       # busybox ash, the board's shell, runs run_tests.sh's signal test here.
	       add busybox-static
	       # abidiff and abidw: libselfmon.so's ABI against the baseline (docs/abi.md).
	       add abigail-tools
	       set -- lint; for w; do want="$want $("$0" --list "$w")"; done ;;
	# make lint: the kernel's checkpatch.pl (perl, from linux-source-6.1),
	# cppcheck, clang-tidy.
	lint)  add perl linux-source-6.1 xz-utils cppcheck clang-tidy ;;
	host)  set -- build tests; for w; do want="$want $("$0" --list "$w")"; done ;;
	# g++-aarch64-linux-gnu: the public headers as C++ for arm64 (tests/check_cxx.sh).
	arm64) add gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross libcmocka-dev:arm64 cmake musl-dev:arm64 ;;
	# linux-source-6.12: the libperf of the board's second kernel line.
	# qemu-user-static: an arm64 CLI's probe under qemu-user, where
	# perf_event_open(2) is ENOSYS (tests/check_recipes.sh).
	vm)    add qemu-system-arm cpio device-tree-compiler linux-source-6.12 qemu-user-static ;;
	board) set -- arm64 vm; for w; do want="$want $("$0" --list "$w")"; done ;;
	musl)  add musl-tools ;;
	# debhelper, dpkg-dev and lintian; debian/control's Build-Depends
	# (linux-source-6.1 for libperf, 6.12 for the pmu-events tables,
	# kconfiglib, pkg-config for its test); crossbuild-essential-arm64 for
	# dpkg-buildpackage -a arm64 (gcc-aarch64-linux-gnu, libc6-dev:arm64);
	# build-essential, which dpkg-checkbuilddeps requires of every package
	# (a brand-new Debian 12 lacks it: make check in a fresh chroot).
	deb)   add debhelper dpkg-dev lintian pkg-config linux-source-6.1 linux-source-6.12 xz-utils \
	           python3-kconfiglib perl crossbuild-essential-arm64 build-essential ;;
	musl-arm64) add gcc-aarch64-linux-gnu libc6-dev-arm64-cross musl-dev:arm64 ;;
	# LAVA's dispatcher (lava-run) and what rendering a device needs; git
	# for the definition referenced from a repository.
	lava)  add lava-dispatcher python3-jinja2 python3-yaml git ;;
	# mmdebstrap makes the lab's Debian 12 chroot (scripts/lab/lab.sh): the
	# server's packages (lava-server wants systemd-sysv) stay out of the host.
	lab)   add mmdebstrap ;;
	*) echo "deps.sh: unknown set '$what' (build, tests, board, lava, lab, lint, musl, musl-arm64, deb; host, arm64, vm)" >&2; exit 2 ;;
	esac
done
if [ "$list" = 1 ]; then
	# One name a line, each once, in the order given.
	echo $want | tr ' ' '\n' | awk 'NF && !seen[$0]++'
	exit 0
fi

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
