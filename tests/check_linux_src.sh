#!/bin/sh
# SPDX-License-Identifier: MIT
# LINUX_SRC (docs/building.md): what scripts/build-deps.sh and
# scripts/check-libperf.sh say about a source that will not do, how sources
# are told apart, and that the build checks every libperf function selfmon
# calls. TAP on stdout; exits 0 (failures are "not ok" lines).
# Usage: tests/check_linux_src.sh LIBPERF_DIR O_DIR [ARM64_O_DIR ARM64_LIBPERF_DIR]
#   LIBPERF_DIR  a built prefix (build/deps/<src-id>/<arch>)
#   O_DIR        the build whose libselfmon-internal.a and CLI archive are checked
#   ARM64_O_DIR  a cross build: its compile must not see the host's /usr/include
set -u
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH
here=$(cd "$(dirname "$0")/.." && pwd)
libperf=$1 o=$2 arm64=${3:-} lp=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-linuxsrc.XXXXXX")
cleanup() { rm -rf "$tmp"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check NAME CONDITION-STATUS [diagnostics...]
check() { name=$1 st=$2; shift 2; if [ "$st" -eq 0 ]; then ok "$name"; else nok "$name" "$@"; fi; }
contains() { case "$1" in *"$2"*) return 0 ;; esac; return 1; }

# build-deps.sh with LINUX_SRC=$1; its stderr in $msg, its status in $rc.
deps() { msg=$(LINUX_SRC=$1 "$here/scripts/build-deps.sh" "$tmp/deps" x86 2>&1 >/dev/null); rc=$?; }

deps "$tmp/no such linux"
contains "$msg" "LINUX_SRC '$tmp/no such linux': no such file or directory"
check "a LINUX_SRC that does not exist is named, quoted, and the build stops" $(( $? | (rc == 0) )) "$msg"

mkdir -p "$tmp/notkernel/tools/lib" && echo "VERSION = 6" >"$tmp/notkernel/Makefile"
deps "$tmp/notkernel"
contains "$msg" "LINUX_SRC '$tmp/notkernel' is not a kernel source" && contains "$msg" "it has no tools/lib/perf"
check "a directory that is not a kernel tree is refused naming tools/lib/perf as missing" $(( $? | (rc == 0) )) "$msg"

tar -cJf "$tmp/notkernel.tar.xz" -C "$tmp" notkernel
deps "$tmp/notkernel.tar.xz"
contains "$msg" "LINUX_SRC '$tmp/notkernel.tar.xz' is not a kernel source" && contains "$msg" "its notkernel/ has no tools/lib/perf"
check "a tarball that is not of a kernel tree is refused naming its top and tools/lib/perf" $(( $? | (rc == 0) )) "$msg"
[ ! -e "$tmp/deps/src/.stamp" ]
check "a refused source leaves no stamp behind, so a fixed LINUX_SRC is taken up" $?

id() { "$here/scripts/build-deps.sh" --id "$1"; }
a=$(id "$tmp/notkernel.tar.xz") b=$(id "$tmp/notkernel")
[ "$a" != "$b" ] && [ "$a" = "$(id "$tmp/notkernel.tar.xz")" ] && contains "$a" notkernel-
check "two sources get two deps directories, and one source always the same ($a, $b)" $?
touch -d '2001-01-01' "$tmp/notkernel.tar.xz"
[ "$a" != "$(id "$tmp/notkernel.tar.xz")" ]
check "a tarball replaced in place gets a new deps directory (rebuilt, never mixed)" $?

# check-libperf.sh on copies of a good libperf prefix, each missing one thing.
copy() { msg="" rc=0; rm -rf "$tmp/lp" && cp -R "$libperf" "$tmp/lp" && rm -f "$tmp/lp/libperf-compat.h"; }
lpcheck() { msg=$("$here/scripts/check-libperf.sh" "$tmp/lp" "${CROSS_COMPILE:-}" /src/linux-x 5.14.0 2>&1); rc=$?; }

copy && lpcheck
[ "$rc" -eq 0 ] && grep -q '^#define SELFMON_LIBPERF_CPU_MAP_ANY perf_cpu_map__\(new_any_cpu\|dummy_new\)$' "$tmp/lp/libperf-compat.h"
check "the built libperf passes the check and its any-CPU map is named in libperf-compat.h" $? "$msg"

copy && objcopy --strip-symbol=perf_evlist__set_leader "$tmp/lp/lib/libperf.a" && lpcheck
contains "$msg" "LINUX_SRC '/src/linux-x' (Linux 5.14.0) lacks perf_evlist__set_leader (Linux 5.15)" &&
	contains "$msg" "needs tools/lib/perf from Linux 6.0 or newer"
check "a libperf without perf_evlist__set_leader is refused naming it and the Linux that has it" $(( $? | (rc == 0) )) "$msg"
[ ! -e "$tmp/lp/libperf-compat.h" ]
check "a refused libperf gets no libperf-compat.h" $?

copy && sed -i '/uint64_t id;/d' "$tmp/lp/include/perf/evsel.h" && lpcheck
contains "$msg" "has no struct perf_counts_values member 'id' (Linux 6.0"
check "a libperf whose perf_counts_values has no id (before 6.0) is refused by name" $(( $? | (rc == 0) )) "$msg"

copy && objcopy --redefine-sym perf_cpu_map__dummy_new=selfmon_test_old \
	--redefine-sym perf_cpu_map__new_any_cpu=selfmon_test_new "$tmp/lp/lib/libperf.a" && lpcheck
contains "$msg" "has neither perf_cpu_map__new_any_cpu (Linux 6.8) nor perf_cpu_map__dummy_new"
check "a libperf with no any-CPU map under either name is refused naming both" $(( $? | (rc == 0) )) "$msg"

# Every libperf function selfmon's code calls is one the build checks for.
"$here/scripts/check-libperf.sh" --list | sort >"$tmp/listed"
nm --defined-only -g "$libperf/lib/libperf.a" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/defined"
nm -u "$o/libselfmon-internal.a" "$o/libselfmon-cli.a" 2>/dev/null | awk '{ print $NF }' | sort -u >"$tmp/called"
unchecked=$(comm -12 "$tmp/defined" "$tmp/called" | comm -23 - "$tmp/listed" | tr '\n' ' ')
called=$(comm -12 "$tmp/defined" "$tmp/called" | wc -l)
[ -z "$unchecked" ] && [ "$called" -gt 10 ]
check "every libperf function selfmon calls ($called) is one check-libperf.sh checks" $? "not checked: $unchecked"

# A cross build compiles against its toolchain's and the kernel tree's headers only.
if [ -n "$arm64" ] && [ -f "$arm64/include/generated/autoconf.h" ]; then
	hdrs=$(cd "$here" && aarch64-linux-gnu-gcc -std=c11 -D_GNU_SOURCE -Iinclude -Iarch/arm64/include \
		-I"$arm64/include" ${lp:+-I"$lp/include"} -M core/set.c core/counter.c 2>&1)
	host=$(echo "$hdrs" | tr ' \\' '\n\n' | grep '^/usr/include/' | sort -u | tr '\n' ' ')
	[ -n "$hdrs" ] && [ -z "$host" ]
	check "the arm64 cross build includes no header of the build host (/usr/include)" $? "$host"
else
	n=$((n + 1)); echo "ok $n - the arm64 cross build includes no header of the build host # SKIP no arm64 build at '$arm64'"
fi
echo "1..$n"
