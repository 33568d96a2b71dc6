#!/bin/sh
# SPDX-License-Identifier: MIT
# The bundle's run_tests.sh stopped by a signal, as a LAVA timeout, a CI
# cancel or Ctrl-C stop it: under dash and busybox ash (which run no EXIT
# trap on death by a signal), SIGTERM, SIGINT and SIGHUP in the middle of a
# suite must restore kernel.perf_user_access (a fake /proc/sys here, through
# run_tests.sh's SELFMON_PROC_SYS seam), stop the suite binary, end the
# script by that signal (status 128+N), and leave no file outside the
# script's own private temporary directory (which it removes). A run with
# CDPATH set in the environment must still find the bundle's own scripts.
# TAP to OUT. Runs on the host, as any user: nothing here touches /proc/sys.
# Usage: tests/check_bundle_signals.sh OUT.tap
#   SELFMON_BUSYBOX: a busybox for the host (else `busybox` in PATH; none: a skip)
set -u
unset CDPATH
out=$1
src=$(cd "$(dirname "$0")" && pwd)
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_bundle_signals: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >>"$out"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-bundle-sig.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# A bundle whose one suite says it started, then runs for a minute.
bundle=$work/bundle
mkdir -p "$bundle/bin"
cp "$src/bundle/run_tests.sh" "$src/run_suites.sh" "$src/summary.sh" "$bundle/"
cat >"$bundle/bin/slow_test" <<'EOF'
#!/bin/sh
echo "1..1"
echo $$ >"$SLOW_PID"
i=0
while [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
echo "ok 1 slow"
EOF
cat >"$bundle/bin/quick_test" <<'EOF'
#!/bin/sh
echo "1..1"
echo "ok 1 quick"
EOF
chmod 0755 "$bundle/run_tests.sh" "$bundle/run_suites.sh" "$bundle/summary.sh" \
	"$bundle/bin/slow_test"

shells="dash"
bb=${SELFMON_BUSYBOX:-$(command -v busybox 2>/dev/null)}
if [ -n "$bb" ] && [ -x "$bb" ]; then shells="$shells busybox"; fi

# Every file under @1, but the private directory of run_tests.sh and the fixtures.
files() {
	(cd "$1" && find . \( -type f -o -type l \) ! -path './tmp/selfmon-tests.*/*' \
		! -path './bundle/*' ! -path './proc/*' ! -name 'slow.pid' ! -name 'log' | LC_ALL=C sort)
}

# The slow suite's process, alive? (A zombie waiting for init is not.)
alive() {
	[ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null &&
		! grep -q '^[0-9]* (.*) Z' "/proc/$(cat "$1")/stat" 2>/dev/null
}

run_killed() {
	sh_name=$1 sig=$2 num=$3
	run=$work/run-$sh_name-$sig
	mkdir -p "$run/tmp" "$run/cwd" "$run/proc/kernel"
	echo 0 >"$run/proc/kernel/perf_user_access"
	before=$(files "$run")
	if [ "$sh_name" = busybox ]; then set -- "$bb" sh; else set -- dash; fi
	(
		cd "$run/cwd" || exit 1
		# A job started in the background ignores SIGINT, and sh cannot give
		# it back (an ignored signal stays ignored in a non-interactive
		# shell): python3 sets it as a terminal's foreground job has it. exec
		# keeps the pid.
		TMPDIR=$run/tmp SELFMON_PROC_SYS=$run/proc SLOW_PID=$run/slow.pid \
			exec python3 -c "$dfl" "$@" "$bundle/run_tests.sh" >"$run/log" 2>&1
	) &
	pid=$!
	i=0
	while [ $i -lt 100 ] && ! alive "$run/slow.pid"; do sleep 0.1; i=$((i + 1)); done
	during=$(cat "$run/proc/kernel/perf_user_access")
	kill -"$sig" "$pid"
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		notok "$sh_name: run_tests.sh ends within 10 s of SIG$sig"
	fi
	wait "$pid"
	rc=$?
	after=$(cat "$run/proc/kernel/perf_user_access")
	what="$sh_name: SIG$sig in a suite"
	if [ "$during" = 1 ] && [ "$after" = 0 ]; then
		ok "$what: perf_user_access 1 during the run, restored to 0"
	else
		notok "$what: perf_user_access $during during the run, $after after (want 1, then 0): $(cat "$run/log")"
	fi
	if [ "$rc" -eq $((128 + num)) ]; then
		ok "$what: run_tests.sh ends by the signal (status $rc)"
	else
		notok "$what: run_tests.sh ends with status $rc, not $((128 + num)) (SIG$sig)"
	fi
	i=0
	while [ $i -lt 30 ] && alive "$run/slow.pid"; do sleep 0.1; i=$((i + 1)); done
	if alive "$run/slow.pid"; then
		notok "$what: the suite binary is still running: $(ps -o pid,stat,args -p "$(cat "$run/slow.pid")" | tail -n 1)"
		kill -KILL "$(cat "$run/slow.pid")"
	else
		ok "$what: the suite binary is stopped"
	fi
	left=$(files "$run")
	if [ "$left" = "$before" ] && [ -z "$(ls -A "$run/tmp")" ] &&
	   [ -z "$(cd "$bundle" && find . -newer "$run/proc/kernel" -type f)" ]; then
		ok "$what: no file written outside its private temporary directory, which is gone"
	else
		notok "$what: files left: $(echo "$left" | tr '\n' ' ') in TMPDIR: $(ls -A "$run/tmp" | tr '\n' ' ')"
	fi
}

# The signals at their defaults, as a terminal's session starts a command:
# a shell cannot trap a signal ignored when it started (POSIX, "trap"), and
# a background job starts with SIGINT ignored, a job under nohup with SIGHUP.
dfl='import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])'
if ! command -v python3 >/dev/null 2>&1; then
	skip "the signals" "no python3 here to start run_tests.sh with SIGINT as a terminal has it"
	shells=""
fi
for sh_name in $shells; do
	for s in TERM:15 INT:2 HUP:1; do
		run_killed "$sh_name" "${s%:*}" "${s#*:}"
	done
done
case " $shells " in
*" busybox "*) ;;
*) skip "busybox ash: the signals" "no busybox here (Debian: apt-get install busybox, or set SELFMON_BUSYBOX)" ;;
esac

# The image builders stopped mid-archive: they end by the signal, leave no
# image (nor its .part) and no staging folder. A cpio that takes its time
# stands in for a large bundle; the signal goes to the script alone, as a
# runner's kill does.
fake=$work/fakebin
mkdir -p "$fake"
printf '#!/bin/sh\n: >"$CPIO_STARTED"\ncat >/dev/null\nsleep 2\n' >"$fake/cpio"
chmod 0755 "$fake/cpio"
: >"$work/busybox"
for builder in lava/mkramdisk.sh scripts/vm/mkinitramfs.sh; do
	run=$work/$(basename "$builder" .sh)
	mkdir -p "$run/tmp"
	if [ "$builder" = lava/mkramdisk.sh ]; then set -- "$work/busybox" "$run/out.cpio.gz"
	else set -- "$bundle" "$work/busybox" "$run/out.cpio.gz"; fi
	TMPDIR=$run/tmp PATH=$fake:$PATH CPIO_STARTED=$run/started dash "$src/../$builder" "$@" \
		>"$run/log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 100 ] && [ ! -e "$run/started" ]; do sleep 0.1; i=$((i + 1)); done
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
	if [ $rc -eq 143 ] && [ ! -e "$run/out.cpio.gz" ] && [ ! -e "$run/out.cpio.gz.part" ] &&
	   [ -z "$(ls -A "$run/tmp")" ]; then
		ok "$builder: SIGTERM mid-archive ends it by the signal, with no image, no .part and no staging folder left"
	else
		notok "$builder: SIGTERM mid-archive: status $rc (want 143), left: $(cd "$run" && find . ! -name log ! -name started | tr '\n' ' ') $(cat "$run/log")"
	fi
done

# TAP names on their way to LAVA (lava/selfmon-lava.sh parse): names that
# differ only in bytes LAVA refuses, long names that differ only at their end,
# the same name twice: each a name of its own, of [A-Za-z0-9_.-] alone, and
# the names lava/check.py's own reading gives.
long=$(printf '%0150d' 0 | tr 0 x)
printf '%s\n' "# suite: /b/bin/names_test" "1..12" "ok 1 a b" "ok 2 a_b" "ok 3 a-b" "ok 4 a/b" \
	"ok 5 x=y" "ok 6 x>y" "ok 7 .hidden" "ok 8 caf$(printf '\303\251')" "ok 9 ${long}1" \
	"ok 10 ${long}2" "ok 11 a b" "ok 12 a-20b" >"$work/names.tap"
names=$(sh "$src/../lava/selfmon-lava.sh" parse "$work/names.tap" 2>/dev/null | awk '$1 == "names_test" { print $2 }')
count=$(echo "$names" | grep -c .)
distinct=$(echo "$names" | LC_ALL=C sort -u | grep -c .)
bad=$(echo "$names" | grep -v '^[A-Za-z0-9_.-]*$' | head -n 1)
if [ "$count" -eq 12 ] && [ "$distinct" -eq 12 ] && [ -z "$bad" ] &&
   [ -z "$(echo "$names" | awk 'length($0) > 128')" ]; then
	ok "selfmon-lava.sh gives 12 TAP lines 12 distinct LAVA names of [A-Za-z0-9_.-], 128 bytes at most"
else
	notok "selfmon-lava.sh gives 12 TAP lines distinct LAVA names, not ($count, $distinct distinct, '$bad'): $(echo "$names" | tr '\n' ' ')"
fi
# 1:1: a line's name is its own, whatever lines came before it (not "a_b-2"
# for whichever of "a b" and "a_b" came second).
grep '^ok' "$work/names.tap" | grep -v '^ok 11 ' >"$work/lines"
{ echo "# suite: /b/bin/names_test"; echo "1..11"; sed -n '1!G;h;$p' "$work/lines"; } >"$work/reversed.tap"
{ echo "# suite: /b/bin/names_test"; echo "1..11"; cat "$work/lines"; } >"$work/forward.tap"
fwd=$(sh "$src/../lava/selfmon-lava.sh" parse "$work/forward.tap" 2>/dev/null | awk '$1 == "names_test" { print $2 }')
rev=$(sh "$src/../lava/selfmon-lava.sh" parse "$work/reversed.tap" 2>/dev/null | awk '$1 == "names_test" { print $2 }' | sed -n '1!G;h;$p')
if [ -n "$fwd" ] && [ "$fwd" = "$rev" ]; then
	ok "each TAP line's LAVA name is its own, whatever lines come before it"
else
	notok "a TAP line's LAVA name depends on the lines before it: $(echo "$fwd" | tr '\n' ' ') against $(echo "$rev" | tr '\n' ' ')"
fi
if command -v python3 >/dev/null 2>&1; then
	theirs=$(cd "$src/../lava" && python3 -c 'import sys, check
items = check.parse_tap(open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().splitlines())[0]
print("\n".join(n for s, n, r in items))' "$work/names.tap" 2>&1)
	if [ "$theirs" = "$names" ]; then
		ok "lava/check.py reads the same LAVA names as selfmon-lava.sh"
	else
		notok "lava/check.py reads other LAVA names than selfmon-lava.sh: $(echo "$theirs" | tr '\n' ' ')"
	fi
else
	skip "lava/check.py reads the same names" "no python3 here"
fi

# CDPATH names a folder that holds another "bundle": run_tests.sh must use its own.
mkdir -p "$work/decoy/bundle" "$work/cdpath/tmp"
rm -f "$bundle/bin/slow_test"
chmod 0755 "$bundle/bin/quick_test"
log=$(cd "$work" && CDPATH=$work/decoy TMPDIR=$work/cdpath/tmp SELFMON_PROC_SYS=$work/none \
	dash bundle/run_tests.sh 2>&1)
rc=$?
case "$log" in
*"1 passed, 0 failed, 0 skipped"*)
	if [ $rc -eq 0 ]; then ok "CDPATH in the environment: run_tests.sh runs its own bundle"
	else notok "CDPATH in the environment: run_tests.sh exits $rc: $log"; fi ;;
*) notok "CDPATH in the environment: run_tests.sh runs its own bundle, not: $log" ;;
esac
echo "1..$n" >>"$out"
grep -q '^not ok' "$out" && exit 1
exit 0
