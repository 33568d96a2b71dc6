#!/bin/sh
# Build the VM self-test bundle (a static pmu_probe plus run_tests.sh).
# Usage: scripts/vm/selftest/build.sh [BUNDLE_DIR]   (default build/vm/selftest)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/vm/selftest}
cc=${CROSS_COMPILE-aarch64-linux-gnu-}gcc
mkdir -p "$out"
# Static: the initramfs carries no C library, only busybox.
$cc -std=c11 -static -O2 -Wall -Wextra -o "$out/pmu_probe" "$here/pmu_probe.c"
cp "$here/run_tests.sh" "$out/run_tests.sh"
chmod 0755 "$out/run_tests.sh"
echo "$out"
