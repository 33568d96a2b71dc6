#!/bin/sh
# scripts/board-run as a user runs it, as TAP: refusals before any boot, then
# one boot that runs a script calling a dynamically linked program (its
# libraries from --sysroot) and a static one; the static one's exit status,
# stdout, stderr and the files written in the working directory must all
# come back to the host. A board it does not know is refused before any boot.
# The same boot runs EXAMPLE, a cmocka budget test built against the
# installed library with pkg-config's flags (examples/budget_cmocka.c).
# Usage: check_board_run.sh OUT.tap BOARD_RUN VMDIR WRITER_STATIC WRITER_DYNAMIC SYSROOT EXAMPLE
set -u
out=$1 run=$2 vm=$3 wstatic=$4 wdyn=$5 sysroot=$6 example=$7
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-board-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$out"
tap() { echo "$*" | tee -a "$out"; }
tap "# suite: scripts/board-run"
tap "1..9"

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
exit 0
