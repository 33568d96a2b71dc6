#!/bin/sh
# SPDX-License-Identifier: MIT
# The part of `make check` that runs as an ordinary user, at
# kernel.perf_event_paranoid 2 (Debian's setting for users who may count
# their own processes) and 3 (Debian's default, which refuses users): probe
# and the unprivileged selftest. As root it creates the user
# (selfmon-check) and sets the sysctl, restoring it after.
# Usage: scripts/check-unpriv.sh OUT.tap SELFMON UNPRIV_TEST
set -u
out=$1 selfmon=$2 test=$3
user=selfmon-check
: >"$out"
tap() { echo "$1" | tee -a "$out"; }

if [ "$(id -u)" -ne 0 ]; then
	tap "ok 1 # SKIP not root: cannot create a user or set kernel.perf_event_paranoid (CI runs this as root)"
	exit 0
fi
if ! id "$user" >/dev/null 2>&1; then
	useradd --system --no-create-home --shell /usr/sbin/nologin "$user" 2>/dev/null ||
		adduser -S -H -D "$user" 2>/dev/null
fi
file=/proc/sys/kernel/perf_event_paranoid
saved=$(cat "$file")
restore() { echo "$saved" >"$file"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap restore EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "restore; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
as_user() { setpriv --reuid="$user" --regid="$user" --clear-groups --inh-caps=-all -- "$@"; }
# The build tree must be reachable by the user: tests/ and the CLI only read.
n=0
for level in 2 3; do
	if ! echo "$level" >"$file" 2>/dev/null; then
		n=$((n + 1)); tap "ok $n # SKIP paranoid $level: $file is not writable here"
		continue
	fi
	log=$(mktemp)
	as_user "$selfmon" probe >"$log" 2>&1
	rc=$?
	n=$((n + 1))
	if [ "$rc" -le 1 ] && grep -q "kernel.perf_event_paranoid = $level " "$log" &&
		grep -q "privileges: none" "$log"; then
		tap "ok $n - paranoid $level: probe as $user answers (exit $rc) and names the level and no privilege"
	else
		tap "not ok $n - paranoid $level: probe as $user: exit $rc; output:"
		sed 's/^/#   /' "$log" | tee -a "$out"
	fi
	if grep -q "perf_event_paranoid=$level'" "$log"; then
		n=$((n + 1)); tap "not ok $n - paranoid $level: probe suggests the value already in force"
	fi
	# bench: the driver's side set (task-clock, switches, migrations) must open
	# for this user too, or say why; a run that keeps no repetition is a failure.
	as_user "$selfmon" bench --filter '^add_chain$' --repetitions 3 --format csv >"$log" 2>&1
	rc=$?
	n=$((n + 1))
	if [ "$rc" -eq 0 ] && grep -q '^"\{0,1\}add_chain' "$log" && ! grep -q 'every repetition was dropped' "$log"; then
		tap "ok $n - paranoid $level: bench as $user measures add_chain (exit 0)"
	else
		tap "not ok $n - paranoid $level: bench as $user: exit $rc; output:"
		sed 's/^/#   /' "$log" | tee -a "$out"
	fi
	as_user "$test" >"$log" 2>&1
	rc=$?
	sed -n "s/^\(\(not \)\{0,1\}ok\) [0-9]*\(.*\)/\1 \3 [paranoid $level]/p" "$log" |
		while read -r line; do echo "$line"; done >"$log.tap"
	while read -r line; do n=$((n + 1)); tap "$(echo "$line" | sed "s/^\(\(not \)\{0,1\}ok\) /\1 $n /")"; done <"$log.tap"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$log.tap"; then
		n=$((n + 1)); tap "not ok $n - paranoid $level: $(basename "$test") exited $rc"; cat "$log"
	fi
	rm -f "$log" "$log.tap"
done
