#!/bin/sh
# SPDX-License-Identifier: MIT
# Take tools/perf/pmu-events/arch/{arm64,x86}/ out of a kernel source (a
# tree, or a .tar.xz/.tar.gz/.tar of one) into DIR/arm64 and DIR/x86, once:
# scripts/pmu-events.py compiles them into selfmon's tables.
# Usage: scripts/build-pmu-events.sh SOURCE DIR
set -eu
src=$1 dir=$2
die() { echo "build-pmu-events: $*" >&2; exit 1; }
sub=tools/perf/pmu-events/arch
rm -rf "$dir" && mkdir -p "$dir/tmp"
if [ -d "$src" ]; then
	[ -f "$src/$sub/arm64/mapfile.csv" ] && [ -f "$src/$sub/x86/mapfile.csv" ] ||
		die "LINUX_SRC_EVENTS '$src' has no $sub/arm64 and x86 (a kernel tree of 6.1 or newer): name another, or unset it for Debian's linux-source-6.12"
	echo "  COPY    $src ($sub)"
	(cd "$src/$sub" && tar -cf - arm64 x86) | tar -xf - -C "$dir"
else
	[ -e "$src" ] || die "LINUX_SRC_EVENTS '$src': no such file$([ "$src" != /usr/src/linux-source-6.12.tar.xz ] || echo " (scripts/deps.sh build installs Debian's linux-source-6.12)")"
	top=$(tar -tf "$src" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || die "LINUX_SRC_EVENTS '$src': tar cannot list it"
	echo "  EXTRACT $src ($sub)"
	tar -xf "$src" -C "$dir/tmp" --strip-components=1 --wildcards "$top/$sub/arm64/*" "$top/$sub/x86/*" 2>/dev/null || true
	[ -f "$dir/tmp/$sub/arm64/mapfile.csv" ] && [ -f "$dir/tmp/$sub/x86/mapfile.csv" ] ||
		{ rm -rf "$dir"; die "LINUX_SRC_EVENTS '$src': its $top/ has no $sub/arm64 and x86"; }
	mv "$dir/tmp/$sub/arm64" "$dir/tmp/$sub/x86" "$dir/"
fi
rm -rf "$dir/tmp"
printf '%s\n' "$src" >"$dir/.source"
touch "$dir/.stamp"
