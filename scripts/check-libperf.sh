#!/bin/sh
# SPDX-License-Identifier: MIT
# Does a freshly built libperf offer what selfmon calls? Run by build-deps.sh
# after the build, so that an old kernel source fails here, by name, rather
# than as an undefined symbol at the link or a struct without a field.
# On success it writes OUT/libperf-compat.h, which the Makefile copies to
# $(O)/include/generated/libperf.h for core/libperf.h.
# Usage: scripts/check-libperf.sh OUT CROSS_COMPILE SOURCE VERSION
#        scripts/check-libperf.sh --list      the functions checked, one a line
#
# Each function with the first Linux release whose tools/lib/perf has it
# (from the commits that added them; docs/building.md). libperf moved to
# tools/lib/perf in 5.5, so 5.5 stands for "since libperf has been there".
set -eu

NEEDS="libperf_init 5.5
perf_cpu_map__put 5.5
perf_thread_map__new_dummy 5.5
perf_thread_map__set_pid 5.5
perf_thread_map__put 5.5
perf_evsel__new 5.5
perf_evsel__delete 5.5
perf_evsel__open 5.5
perf_evsel__close 5.5
perf_evsel__enable 5.5
perf_evsel__disable 5.5
perf_evsel__read 5.5
perf_evsel__attr 5.5
perf_evlist__new 5.5
perf_evlist__delete 5.5
perf_evlist__add 5.5
perf_evlist__open 5.5
perf_evlist__close 5.5
perf_evlist__enable 5.5
perf_evlist__disable 5.5
perf_evlist__set_maps 5.5
perf_evlist__mmap 5.5
perf_evlist__munmap 5.5
perf_evlist__next_mmap 5.5
perf_mmap__read_init 5.5
perf_mmap__read_event 5.5
perf_mmap__consume 5.5
perf_mmap__read_done 5.5
perf_evsel__mmap 5.13
perf_evsel__munmap 5.13
perf_evsel__mmap_base 5.13
perf_evlist__set_leader 5.15"
# The "any CPU" map has one of two names (renamed in 6.8).
ANY_NEW=perf_cpu_map__new_any_cpu ANY_OLD=perf_cpu_map__dummy_new

if [ "${1:-}" = "--list" ]; then
	echo "$NEEDS" | cut -d' ' -f1
	printf '%s\n%s\n' "$ANY_NEW" "$ANY_OLD"
	exit 0
fi

out=$1 cross=$2 src=$3 version=$4
fail() {
	echo "build-deps: libperf from LINUX_SRC '$src' (Linux ${version:-?}) $*: selfmon needs tools/lib/perf from Linux 6.0 or newer: name a newer tree in LINUX_SRC, or unset it for Debian's linux-source-6.1" >&2
	exit 1
}

syms=$("${cross}nm" --defined-only -g "$out/lib/libperf.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
[ -n "$syms" ] || { echo "build-deps: ${cross}nm cannot read $out/lib/libperf.a (binutils for this target installed?)" >&2; exit 1; }
has() { echo "$syms" | grep -qx "$1"; }

missing=""
echo "$NEEDS" | {
	while read -r fn since; do
		has "$fn" || printf '%s (Linux %s) ' "$fn" "$since"
	done
} >"$out/.missing"
missing=$(cat "$out/.missing") && rm -f "$out/.missing"
[ -z "$missing" ] || fail "lacks ${missing% }"

if has "$ANY_NEW"; then any=$ANY_NEW
elif has "$ANY_OLD"; then any=$ANY_OLD
else fail "has neither $ANY_NEW (Linux 6.8) nor $ANY_OLD (before 6.8)"
fi

# perf_counts_values.id and a perf_evsel__read() that honours read_format:
# commit 89e3106fa25f, "libperf: Handle read format in perf_evsel__read()".
probe=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-libperf.XXXXXX")
cleanup() { rm -rf "$probe"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
cat >"$probe/p.c" <<'EOF'
#include <stddef.h>
#include <perf/evsel.h>
_Static_assert(offsetof(struct perf_counts_values, id) == 3 * sizeof(unsigned long long),
	       "perf_counts_values.id");
EOF
"${cross}gcc" -std=c11 -fsyntax-only -I"$out/include" "$probe/p.c" >"$probe/log" 2>&1 ||
	fail "has no struct perf_counts_values member 'id' (Linux 6.0: perf_evsel__read() honouring read_format)"

# The path goes into a C comment: no "*/" may end it early.
srcc=$(printf '%s' "$src" | sed 's,\*/,* /,g')
cat >"$out/libperf-compat.h" <<EOF
/* Made by scripts/check-libperf.sh: what the libperf of LINUX_SRC '$srcc' (Linux ${version:-?}) offers. */
#define SELFMON_LIBPERF_LINUX "${version:-?}"
/* The "any CPU" map: perf_cpu_map__new_any_cpu() since Linux 6.8, perf_cpu_map__dummy_new() before. */
#define SELFMON_LIBPERF_CPU_MAP_ANY $any
EOF
