#!/bin/sh
# SPDX-License-Identifier: MIT
# The install commands of the README and docs/building.md, run as written, on
# a tree whose libperf is not built yet (the state of a fresh clone): every
# indented line of theirs that runs `make ... install DESTDIR=$STAGING ...`.
# Each must succeed in one step and leave a selfmon.pc that pkg-config finds
# in $STAGING. The test adds only where things go: O= and DEPS= (a deps
# folder of its own, so that libperf is built by the install itself), and
# STAGING. The kernel sources already extracted for this build are copied
# into that deps folder, to spare the tarball's extraction; libperf's build
# is the step that runs.
# Usage: tests/check_install_docs.sh OUT.tap WORKDIR SEED_DEPS_DIR DOC...
# TAP to OUT. WORKDIR is emptied first. Each staging is left in
# WORKDIR/staging-N, and WORKDIR/commands lists "N COMMAND" for later checks.
set -u
out=$1 work=$2 seed=$3
shift 3
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_install_docs: $*" >&2; }

rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
grep -h '^    make .*install DESTDIR=\$STAGING' "$@" | sed 's/^ *//; s/ *#.*$//' | sort -u >"$work/commands.raw"
if [ "$(wc -l <"$work/commands.raw")" -lt 2 ]; then
	notok "the docs show a native and a cross install command (make ... install DESTDIR=\$STAGING): found $(wc -l <"$work/commands.raw")"
	exit 0
fi
ok "the docs show $(wc -l <"$work/commands.raw") install commands"

i=0
: >"$work/commands"
while IFS= read -r cmd; do
	i=$((i + 1))
	STAGING=$work/staging-$i
	deps=$work/deps-$i
	mkdir -p "$deps"
	# The sources (not the libraries) of this build's deps folder.
	if [ -f "$seed/src/.stamp" ]; then
		mkdir -p "$deps/$(basename "$seed")"
		cp -R "$seed/src" "$seed/kselftest" "$deps/$(basename "$seed")/" 2>/dev/null
	fi
	echo "$i $cmd" >>"$work/commands"
	# shellcheck disable=SC2086
	if log=$(STAGING=$STAGING eval "$cmd O=$work/build-$i DEPS=$deps" 2>&1); then
		pc=$(find "$STAGING" -name selfmon.pc | head -n 1)
		if [ -n "$pc" ]; then
			ok "'$cmd' installs in one step on a tree without libperf ($(echo "$pc" | sed "s|^$STAGING||"))"
		else
			notok "'$cmd' succeeded but installed no selfmon.pc under \$STAGING"
		fi
		# The man pages: selfmon(7), selfmon(1) and a page per function.
		m3=$(find "$STAGING" -path '*/share/man/man3/*.3' | wc -l)
		if [ -n "$(find "$STAGING" -path '*/share/man/man7/selfmon.7')" ] &&
		   [ -n "$(find "$STAGING" -path '*/share/man/man1/selfmon.1')" ] && [ "$m3" -gt 0 ]; then
			ok "'$cmd' installs the man pages (selfmon.7, selfmon.1, $m3 in section 3)"
		else
			notok "'$cmd' installs the man pages: selfmon.7, selfmon.1 and section 3 ($m3 pages)"
		fi
		# Nothing of the build's own folders may land under DESTDIR.
		if find "$STAGING" -path "*$deps*" | grep -q .; then
			notok "'$cmd' put its deps folder under DESTDIR: $(find "$STAGING" -path "*$deps*" | head -n 1)"
		else
			ok "'$cmd' installs nothing but selfmon's files under DESTDIR"
		fi
	else
		notok "'$cmd' fails on a tree without libperf: $(printf '%s\n' "$log" | tail -n 3 | tr '\n' ' ')"
	fi
done <"$work/commands.raw"
