#!/bin/sh
# SPDX-License-Identifier: MIT
# A fresh machine's first `make run`: no kconfiglib yet. make remakes the
# .config it includes before any goal, so the .config rule must install the
# build set first; otherwise the first line a new user sees is an error
# (python3: can't open file .../defconfig.py). Simulated: KCONFIGLIB names an
# empty folder, and DEPS_SH a stand-in for scripts/deps.sh that records when
# it runs and "installs" kconfiglib by copying it there. TAP to OUT.
# Usage: tests/check_fresh.sh OUT.tap [KCONFIGLIB_DIR]
set -u
out=$1 real=${2:-/usr/lib/python3/dist-packages}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-fresh.XXXXXX")
cleanup() { rm -rf "$tmp"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
: >"$out"
cat >"$tmp/deps.sh" <<STUB
#!/bin/sh
echo "deps \$* config=\$([ -f "$tmp/o/.config" ] && echo yes || echo no)" >>"$tmp/log"
mkdir -p "$tmp/kconfig" && cp "$real"/kconfiglib.py "$real"/*config.py "$tmp/kconfig/"
STUB
chmod +x "$tmp/deps.sh"
mkdir -p "$tmp/kconfig"
: >"$tmp/log"

# `make run` up to its first goal, deps (the build itself is not the point).
MAKEFLAGS= MAKEOVERRIDES= make --no-print-directory O="$tmp/o" KCONFIGLIB="$tmp/kconfig" DEPS_SH="$tmp/deps.sh" deps >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/stderr" ] && [ -f "$tmp/o/.config" ]; then
	echo "ok 1 - a fresh machine's first make run prints no error: the .config is made after the install" >>"$out"
else
	echo "not ok 1 - a fresh machine's first make run prints no error (status $rc): $(head -n 3 "$tmp/stderr" | tr '\n' ' ')" >>"$out"
fi
# Two installs: the .config rule's (no .config yet), then make run's deps.
calls=$(tr '\n' ';' <"$tmp/log")
if [ "$calls" = "deps build config=no;deps build config=yes;" ]; then
	echo "ok 2 - the build set is installed before the .config rule runs Kconfig" >>"$out"
else
	echo "not ok 2 - the build set is installed before the .config rule runs Kconfig: install calls '$calls'" >>"$out"
fi

# A .config from before an option was added (its line gone, its time older
# than Kconfig): make brings it up to date before it reads it, the option at
# its default, so that the object lists (obj-$(CONFIG_GROUPS)) and
# autoconf.h agree.
sed -i '/^CONFIG_GROUPS=y$/d' "$tmp/o/.config"
touch -d '2000-01-01' "$tmp/o/.config"
MAKEFLAGS= MAKEOVERRIDES= make --no-print-directory O="$tmp/o" KCONFIGLIB="$tmp/kconfig" DEPS_SH="$tmp/deps.sh" deps >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^CONFIG_GROUPS=y$' "$tmp/o/.config" && grep -q 'OLDCONFIG' "$tmp/stdout"; then
	echo "ok 3 - a .config older than Kconfig gets the options added since, at their defaults, before make reads it" >>"$out"
else
	echo "not ok 3 - a .config older than Kconfig gets the options added since (status $rc; CONFIG_GROUPS: $(grep -c '^CONFIG_GROUPS' "$tmp/o/.config")): $(head -n 3 "$tmp/stderr" | tr '\n' ' ')" >>"$out"
fi
