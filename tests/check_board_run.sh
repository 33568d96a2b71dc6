#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/board-run as a user runs it, as TAP: refusals before any boot, then
# one boot that runs a script calling a dynamically linked program (its
# libraries from --sysroot) and a static one; the static one's exit status,
# stdout, stderr and the files written in the working directory must all
# come back to the host. A board it does not know is refused before any boot.
# The same boot runs EXAMPLE, a cmocka budget test built against the
# installed library with pkg-config's flags (examples/budget_cmocka.c).
# A second boot runs a script named like a busybox applet, with helpers
# named "mt" (an applet too) and "-x": arguments byte for byte, the user's
# files run, not the applets, and stdout and stderr come back in order.
# Usage: check_board_run.sh OUT.tap BOARD_RUN VMDIR WRITER_STATIC WRITER_DYNAMIC SYSROOT EXAMPLE
set -u
out=$1 run=$2 vm=$3 wstatic=$4 wdyn=$5 sysroot=$6 example=$7
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-board-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$out"
tap() { echo "$*" | tee -a "$out"; }
tap "# suite: scripts/board-run"
tap "1..15"

"$run" --vm "$vm" /bin/true >/dev/null 2>"$tmp/e1"
rc=$?
if [ "$rc" -eq 125 ] && grep -q "not an arm64 program" "$tmp/e1" && grep -q aarch64-linux-gnu-gcc "$tmp/e1"; then
	tap "ok 1 - a host program is refused before any boot (125), naming the cross compiler"
else
	tap "not ok 1 - a host program: exit $rc: $(cat "$tmp/e1")"
fi
"$run" --vm "$vm" "$wdyn" 0 x >/dev/null 2>"$tmp/e2"
rc=$?
if [ "$rc" -eq 125 ] && grep -q -- "--sysroot" "$tmp/e2" && grep -q -- "-static" "$tmp/e2"; then
	tap "ok 2 - a dynamically linked program without --sysroot is refused (125), naming -static and --sysroot"
else
	tap "not ok 2 - a dynamic program without --sysroot: exit $rc: $(cat "$tmp/e2")"
fi

cp "$wstatic" "$tmp/writer-static" && cp "$wdyn" "$tmp/writer-dynamic" && cp "$example" "$tmp/budget-example"
start=$(date +%s)
# shellcheck disable=SC2016 # a literal $HOME must arrive unexpanded
"$run" --vm "$vm" --out "$tmp/out" --sysroot "$sysroot" --with "$tmp/writer-static" --with "$tmp/writer-dynamic" \
	--with "$tmp/budget-example" \
	"$here/runner/both.sh" 7 static.json "it's two words" '$HOME' >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
tap "# the boot took $(($(date +%s) - start)) s; board-run said: $(grep '^board-run:' "$tmp/stderr")"
if [ "$rc" -eq 7 ]; then
	tap "ok 3 - the program's exit status is board-run's (7)"
else
	tap "not ok 3 - exit status $rc, not 7: $(tr '\n' ' ' <"$tmp/stderr")"
fi
if grep -qx "arg\[0\]=\[it's two words\]" "$tmp/stdout" && grep -qx 'arg\[1\]=\[\$HOME\]' "$tmp/stdout" &&
	! grep -q 'writer: exiting' "$tmp/stdout"; then
	tap "ok 4 - its stdout comes back on stdout, arguments intact (quotes, \$)"
else
	tap "not ok 4 - stdout: $(tr '\n' ' ' <"$tmp/stdout")"
fi
if grep -qx 'writer: exiting 7' "$tmp/stderr" && ! grep -q '^arg' "$tmp/stderr"; then
	tap "ok 5 - its stderr comes back on stderr"
else
	tap "not ok 5 - stderr: $(tr '\n' ' ' <"$tmp/stderr")"
fi
if grep -q '"writer": "writer-static", "args": 2' "$tmp/out/static.json" 2>/dev/null &&
	[ "$(cat "$tmp/out/sub/nested.txt" 2>/dev/null)" = nested ]; then
	tap "ok 6 - the files it wrote in its working directory come back in --out (sub-folders too)"
else
	tap "not ok 6 - files in --out: $(cd "$tmp/out" 2>/dev/null && find . -type f | tr '\n' ' ')"
fi
if grep -qx 'arg\[0\]=\[from the sysroot\]' "$tmp/stdout" && [ -s "$tmp/out/dynamic.json" ]; then
	tap "ok 7 - a dynamically linked program runs with --sysroot's libraries"
else
	tap "not ok 7 - the dynamic program did not run: $(tr '\n' ' ' <"$tmp/stderr")"
fi
# cmocka prints the test's line on stdout, its summary on stderr.
if grep -q '^\[       OK \] checksum_of_a_line_stays_within_its_budget' "$tmp/stdout" &&
	grep -q '^\[  PASSED  \] 1 test' "$tmp/stderr" && ! grep -q 'SKIPPED' "$tmp/stdout" "$tmp/stderr"; then
	tap "ok 8 - a cmocka budget test built with pkg-config against the installed library passes on the board"
else
	tap "not ok 8 - the budget example: $(tr '\n' ' ' <"$tmp/stdout" | cut -c1-600) $(tr '\n' ' ' <"$tmp/stderr" | cut -c1-600)"
fi
"$run" --vm "$vm" --board nope "$wstatic" >/dev/null 2>"$tmp/e9"
rc=$?
if [ "$rc" -eq 125 ] && grep -q "'nope'" "$tmp/e9" && grep -q biglittle "$tmp/e9"; then
	tap "ok 9 - an unknown --board is refused before any boot (125), naming the board there is"
else
	tap "not ok 9 - --board nope: exit $rc: $(cat "$tmp/e9")"
fi
mkdir -p "$tmp/d1" "$tmp/d2" && : >"$tmp/d1/data" && : >"$tmp/d2/data"
"$run" --vm "$vm" --with "$tmp/d1/data" --with "$tmp/d2/data" "$wstatic" >/dev/null 2>"$tmp/e10"
rc=$?
if [ "$rc" -eq 125 ] && grep -qF "'$tmp/d1/data'" "$tmp/e10" && grep -qF "'$tmp/d2/data'" "$tmp/e10"; then
	tap "ok 10 - two --with files of one name are refused before any boot (125), naming both"
else
	tap "not ok 10 - --with d1/data --with d2/data: exit $rc: $(cat "$tmp/e10")"
fi

# The second boot, from the folder that holds its files: "-x" is given as
# a bare name, as a user would type it.
mkdir -p "$tmp/named" && cp "$here/runner/named.sh" "$tmp/named/ls" && cp "$wstatic" "$tmp/named/mt" &&
	cp "$here/runner/dash-x.sh" "$tmp/named/-x"
arg=$(printf 'a\n\n.') && arg=${arg%.}
(cd "$tmp/named" && "$run" --vm "$vm" --out "$tmp/out2" --with mt --with -x ls "$arg" b >"$tmp/both" 2>&1)
rc=$?
tap "# board-run said: $(grep '^board-run:' "$tmp/both")"
printf '[a\n\n][b]' >"$tmp/args.want"
if [ "$rc" -eq 0 ] && cmp -s "$tmp/args.want" "$tmp/out2/args.txt"; then
	tap "ok 11 - arguments arrive byte for byte (trailing newlines too)"
else
	tap "not ok 11 - exit $rc; arguments: $(od -c "$tmp/out2/args.txt" 2>&1 | head -3 | tr '\n' ' ')"
fi
if grep -q '"writer": "/bundle/bin/mt", "args": 1' "$tmp/out2/mt.json" 2>/dev/null; then
	tap "ok 12 - a --with program named like a busybox applet (mt) runs, not the applet"
else
	tap "not ok 12 - mt: $(tr '\n' ' ' <"$tmp/both")"
fi
if [ "$(cat "$tmp/out2/dash-x.txt" 2>/dev/null)" = ran ]; then
	tap "ok 13 - a file named -x is copied and run, not taken for an option"
else
	tap "not ok 13 - -x: $(tr '\n' ' ' <"$tmp/both")"
fi
if [ "$(grep '^order: ' "$tmp/both" | tr '\n' ' ')" = "order: one order: two order: three order: four " ]; then
	tap "ok 14 - stdout and stderr come back interleaved in the order written"
else
	tap "not ok 14 - order: $(grep '^order: ' "$tmp/both" | tr '\n' ' ')"
fi
if [ -s "$tmp/out2/args.txt" ]; then
	tap "ok 15 - a PROGRAM named like a busybox applet (ls) runs, not the applet"
else
	tap "not ok 15 - ls: $(tr '\n' ' ' <"$tmp/both")"
fi
exit 0
