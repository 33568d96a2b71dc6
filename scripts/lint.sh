#!/bin/sh
# SPDX-License-Identifier: MIT
# make lint: the kernel's checkpatch.pl (--no-tree --file, from LINUX_SRC),
# cppcheck, clang-tidy (.clang-tidy), the function length (check-funclen.py)
# and the library's formats (check-fmt.py) on the code selfmon ships: the
# public headers, core/, sample/, bench/, arch/, tools/ and util/. Each prints its
# findings; the script exits 1 if any tool found anything.
# Usage: scripts/lint.sh CACHE_DIR LINUX_SRC TAP SRCARCH [CFLAGS...]
#   CACHE_DIR  where checkpatch.pl and its data files are kept, once per source
#   TAP        one TAP line per tool is written here
#   SRCARCH    the arch whose arch/ sources are compiled (checkpatch reads all)
#   CFLAGS     the build's -I/-D flags, for cppcheck and clang-tidy
set -u
cache=$1 src=$2 tap=$3 arch=$4
shift 4

# tools/report.c is on its way into the library as public API: linted there.
files=$(git ls-files 'include/*.h' 'arch/*.h' 'arch/*.c' 'core/*.[ch]' 'sample/*.[ch]' 'bench/*.[ch]' 'tools/*.[ch]' 'util/*.[ch]' |
	grep -v '^tools/report\.c$')
srcs=$(echo "$files" | grep '\.c$' | grep -E -v "^arch/[^/]+/" ; echo "$files" | grep -E "^arch/$arch/.*\.c$")

# checkpatch.pl and the files it reads beside itself, out of the kernel source.
# (A function: its own positional parameters, not the CFLAGS.)
fetch_checkpatch() {
	dir=$1 want="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"
	mkdir -p "$dir"
	if [ -d "$src" ]; then
		# shellcheck disable=SC2086
		(cd "$src" && tar -cf - $want) | tar -xf - -C "$dir"
	else
		top=$(tar -tf "$src" | head -n 1 | cut -d/ -f1)
		set --
		for w in $want; do set -- "$@" "$top/$w"; done
		tar -xf "$src" -C "$dir" --strip-components=1 "$@"
	fi
}
cp_dir=$cache/checkpatch
if [ ! -f "$cp_dir/scripts/checkpatch.pl" ]; then
	fetch_checkpatch "$cp_dir" || { echo "lint: no checkpatch.pl in '$src'" >&2; exit 1; }
fi

# Kernel rules that do not fit a user-space C11 library (docs/architecture.md, "Lint"):
#   SPLIT_STRING, EMBEDDED_FUNCTION_NAME: messages give cause and fix over
#     several lines, and name the public function the caller called;
#   PREFER_DEFINED_ATTRIBUTE_MACRO, ARRAY_SIZE: the kernel's own macros
#     (__packed, __printf, ARRAY_SIZE) do not exist in user space;
#   VOLATILE, COMPLEX_MACRO: the perf mmap page is read through volatile and
#     asm statements (perf_event_open(2), "MMAP layout"), which checkpatch
#     cannot tell from the kernel's misuses;
#   TRAILING_STATEMENTS: one-line case tables (event modifiers, record counts);
#   ENOSYS: selfmon reads it from perf_event_open(2) where the call itself is
#     missing (qemu-user, a seccomp filter, no CONFIG_PERF_EVENTS), which is
#     just the meaning checkpatch reserves it for; it never returns it.
ignore=SPLIT_STRING,EMBEDDED_FUNCTION_NAME,PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,VOLATILE,COMPLEX_MACRO,TRAILING_STATEMENTS,ENOSYS
# And in <selfmon/kselftest.h> alone, MACRO_WITH_FLOW_CONTROL: a failed budget
# ends the test, as the harness's ASSERT_*() do, and a skip is the harness's
# own SKIP(return, ...), whose statement argument is there for that return.
# And selfmon_arch_read_checked() (<selfmon/read.h>, arm64's arch.h): the read
# jumps to its caller's label when the index names no counter, an asm goto
# on arm64 that tests the index inside the dispatch, one instruction a read.
flow_files="include/selfmon/kselftest.h
include/selfmon/read.h
arch/arm64/include/selfmon/arch.h"

# Function-pointer typedefs (selfmon_bench_fn *fn) are types, not a product:
# checkpatch reads their names from --typedefsfile (a file of this run's own:
# the cache may be shared by several trees).
typedefs=$(mktemp) || exit 1
# cppcheck's build folder: with -j, its checks across files (ctu*) run only with one.
cpp_build=$(mktemp -d) || { rm -f "$typedefs"; exit 1; }
trap 'rm -rf "$typedefs" "$cpp_build"' EXIT
# shellcheck disable=SC2086
sed -n 's/^typedef .*(\*\([A-Za-z_][A-Za-z0-9_]*\))(.*/\1/p' $files >"$typedefs"

: >"$tap"
rc=0
n=0
report() {	# report NAME STATUS OUTPUT
	n=$((n + 1))
	if [ "$2" -eq 0 ] && [ -z "$3" ]; then
		echo "ok $n - lint: $1 finds nothing" | tee -a "$tap"
	else
		rc=1
		echo "$3"
		echo "not ok $n - lint: $1 (see above)" | tee -a "$tap"
		echo "$3" | sed 's/^/# /' >>"$tap"
	fi
}

checkpatch() {	# checkpatch IGNORE FILE...
	ign=$1
	shift
	perl "$cp_dir/scripts/checkpatch.pl" --no-tree --file --terse --no-summary --show-types \
		--typedefsfile "$typedefs" --ignore "$ign" "$@" 2>&1
}
others=$(echo "$files" | grep -v -x -F "$flow_files")
# shellcheck disable=SC2086
out=$(checkpatch "$ignore" $others
	st=$?
	checkpatch "$ignore,MACRO_WITH_FLOW_CONTROL" $flow_files || st=1
	exit $st)
report checkpatch $? "$out"

# cppcheck and clang-tidy take LINT_JOBS files at once (all cores by
# default; cppcheck runs its checks across files through its build folder):
# the slowest part of `make check`'s host runs was these two, file by file.
jobs=${LINT_JOBS:-$(nproc 2>/dev/null || echo 2)}
case "$jobs" in ''|*[!0-9]*|0) echo "lint: LINT_JOBS='$jobs': give a number of jobs (1 or more)" >&2; exit 2 ;; esac
# shellcheck disable=SC2086
out=$(cppcheck --quiet -j "$jobs" --cppcheck-build-dir="$cpp_build" --std=c11 --enable=warning,portability,performance --error-exitcode=1 \
	--suppress=missingIncludeSystem "$@" $srcs 2>&1)
report cppcheck $? "$out"

# Functions under ~60 lines (docs/architecture.md, "Conventions"); the
# script's self-test first, so that a check that cannot fail is a finding.
# shellcheck disable=SC2086
out=$(python3 "$(dirname "$0")/check-funclen.py" --self-test >/dev/null ||
	echo "check-funclen.py: its self-test failed"
	python3 "$(dirname "$0")/check-funclen.py" $files)
report "function length" 0 "$out"

# The library's formats take only what its own formatter does (core/fmt.h);
# the script's self-test first, as above.
# shellcheck disable=SC2086
out=$(python3 "$(dirname "$0")/check-fmt.py" --self-test >/dev/null ||
	echo "check-fmt.py: its self-test failed"
	python3 "$(dirname "$0")/check-fmt.py" $(echo "$files" | grep -E '^(core|arch|sample)/.*\.c$'))
report "formats" 0 "$out"

# shellcheck disable=SC2086
out=$(printf '%s\n' $srcs | xargs -P "$jobs" -I{} clang-tidy --quiet {} -- -std=c11 "$@" 2>/dev/null |
	grep -E 'warning:|error:')
report clang-tidy 0 "$out"
exit $rc
