#!/bin/sh
# SPDX-License-Identifier: MIT
# The markers' fixed window on x86_64, without a PMU: tests/window/shapes.c
# built as a user builds it (pkg-config, the installed archive) by gcc,
# clang, g++ and clang++ at -O0, -O2, -O3 and -Os, each build single-stepped
# by tests/window/tracer.c, which counts the instructions each pair's call
# site runs between the library's begin and end calls (the library's own
# part is one function's, the same at every site, and its empty pair holds
# both). The rule: every region counts its own instructions plus exactly
# what the library's empty pair of its form counts, whatever the shape and
# the build; a nested outer region's first call costs what its later ones
# do. A scope region's end is inline from -O1 on, a pair's end; at -O0 it
# is the compiler's call of the arch's stub, and the region counts what
# the library's empty scope pair of the stub counts (which the library
# takes off beside the empty pair's): exact with clang, and with gcc, which
# makes the variable's address in %rax and moves it, one instruction more,
# and calls a stub one instruction shorter (<selfmon/priv/marker.h>); a by-name
# pair of a string literal is exact at every level, -O0 too (its whole end
# is one asm: <selfmon/marker.h>); a name in a buffer counts what a
# literal's pair counts from -O1 on, and at -O0 at most 1 over (clang's:
# the name loaded into its register inside the region; gcc's operand is
# its stack slot, exact). Each build twice: a program
# without PIE linked with the archive, and a PIE against libselfmon.so,
# whose pairs call the library through the program's GOT and whose
# library's empty pairs, cached and by name, through the library's own;
# at -O2 also a PIE with IBT's PLT (-fcf-protection) and one bound lazily,
# and a program optimized at link time (-flto, without PIE, with the
# archive; clang's through lld, which reads its bitcode): none may change a
# region's count.
# With markers off (SELFMON_EVENTS empty) each build's pairs are counted
# whole, beside a function without one: a cached pair costs 4 instructions
# (a compare and a branch at each end), a by-name pair of a string literal
# at most 10, its budget (the library's word tested at each end, no call).
# TAP to OUT. Usage: tests/check_marker_window.sh OUT.tap STAGING WORK
set -u
out=$1 staging=$2 work=$3
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_marker_window: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - the markers' window # SKIP $*" >>"$out"; }
finish() { echo "1..$n" >>"$out"; cat "$out"; exit 0; }

if [ "$(uname -m)" != x86_64 ]; then
	skip "the tracer single-steps x86_64 programs; the board's marker_exact_test measures arm64's"
	finish
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
if ! log=$(cc -std=c11 -O2 -Wall -Wextra -Werror tests/window/tracer.c -o "$work/tracer" 2>&1); then
	notok "the tracer builds: $log"
	finish
fi
export PKG_CONFIG_SYSROOT_DIR="$staging" PKG_CONFIG_LIBDIR="$staging/usr/lib/pkgconfig" PKG_CONFIG_PATH=
# The archive, named in place of -lselfmon: a program whose library calls
# have addresses that nm gives (no PIE, no shared library).
if ! cflags=$(pkg-config --cflags selfmon) || ! libs=$(pkg-config --static --libs selfmon); then
	notok "pkg-config finds selfmon in $staging"
	finish
fi
libs=$(printf '%s\n' "$libs" | sed "s|-lselfmon |$staging/usr/lib/libselfmon.a |")

# The checks of one build's trace ($1: its lines, FUNCTION FORM COUNT; $2: 1 at -O0;
# $3: the compiler). At -O0 what each compiler puts inside a region, as
# documented: clang loads a buffer's name into a register (1); nothing else
# (gcc makes a scope variable's address in %rax and moves it, and calls a
# stub one instruction shorter).
judge() {
	awk -v o0="$2" -v clang="$(case $3 in clang*) echo 1 ;; *) echo 0 ;; esac)" '
	{ f = $1; sub(/\(.*$/, "", f); sub(/\.lto_priv\.[0-9]+$/, "", f); sub(/\.(constprop|isra|part)\.[0-9]+$/, "", f); fn[NR] = f; form[NR] = $2; w[NR] = $3; nr[f]++ }
	f == "mk_empty_cached" || f == "mk_empty_named" || f == "mk_empty_scope" {
		if (f in k && k[f] != $3) { print "the library'\''s empty pair " f " varies: " k[f] " and " $3; bad = 1 }
		k[f] = $3
	}
	END {
		want["alone_r0"] = 2; want["alone_r3"] = 2; want["alone_r3001"] = 2; want["named_r3"] = 2
		want["loop_r3"] = 1002; want["two_sites_r3"] = 200; want["named_loop_r3"] = 100; want["buffer_r3"] = 10
		want["nested_outer"] = 10; want["scope_r3"] = 10; want["mk_empty_cached"] = 16; want["mk_empty_named"] = 16
		want["mk_empty_scope"] = 16
		for (f in want) if (nr[f] != want[f]) { print f ": " nr[f] + 0 " pairs traced, not " want[f]; bad = 1 }
		for (i = 1; i <= NR; i++) {
			f = fn[i]
			if (f == "nested_outer") {
				if (!(f in first)) first[f] = w[i]
				else if (w[i] != first[f]) { print "nested_outer: a call counts " w[i] ", the first " first[f]; bad = 1 }
				continue
			}
			if (f !~ /_r[0-9]+$/) continue
			known = f; sub(/.*_r/, "", known)
			# A name in a buffer runs the sequence of a literal, the name from a register.
			empty = k["mk_empty_" (form[i] == "buffer" ? "named" : form[i])]
			over = w[i] - known - empty
			slack = 0
			if (o0 && form[i] == "buffer" && clang) slack = 1
			if (over < 0 || over > slack) {
				m = f " (" form[i] "): " w[i] - empty " counted, " known " known"
				if (!(m in said)) print m
				said[m] = 1; bad = 1
			} else if (over > 0) {
				slacked[f] = over
			}
		}
		s = ""
		for (f in slacked) s = s " " f " +" slacked[f]
		printf "empty pairs %d cached, %d named, %d scope; nested outer %d each call;%s\n", k["mk_empty_cached"], k["mk_empty_named"], k["mk_empty_scope"], first["nested_outer"], (s == "" ? " every region exact" : " over, as documented:" s)
		exit bad
	}' "$1"
}

# Markers off, one build's calls ($1: FUNCTION COUNT lines): each pair's least call less the function without one.
judge_off() {
	awk '
	{ if (!($1 in min) || $2 < min[$1]) min[$1] = $2 }
	END {
		if (!("nothing" in min) || !("alone_r0" in min) || !("named_r3" in min)) { print "not every function was traced"; exit 1 }
		c = min["alone_r0"] - min["nothing"]; n = min["named_r3"] - min["nothing"] - 3
		printf "cached %d, by name %d instructions a pair", c, n
		exit !(c == 4 && n <= 10)
	}' "$1"
}

# Build tests/window/shapes.c with $cc at -$o, linked $link, trace it and judge it.
trace_build() {
	bin="$work/shapes-$cc-$o-$link" what="$cc -$o ($link)"
	if [ "$link" = static ] || [ "$link" = lto ]; then
		# shellcheck disable=SC2086 # flags are words
		log=$($cc -x $lang -std=$std -$o -no-pie $cflags $(link_flags) tests/window/shapes.c -x none $libs \
			-o "$bin" 2>&1)
	else
		# shellcheck disable=SC2086 # flags are words
		log=$($cc -x $lang -std=$std -$o $cflags $(link_flags) tests/window/shapes.c -x none $shared -o "$bin" 2>&1)
	fi || { notok "$what: the shapes build: $log"; return; }
	nm -n -C "$bin" >"$bin.nm"
	set -- "$bin.nm" "$bin"
	[ "$link" != static ] && [ "$link" != lto ] && set -- --so "$work/libselfmon.nm" "${so##*/}" "$@"
	LD_LIBRARY_PATH="$staging/usr/lib" SELFMON_EVENTS=task-clock SELFMON_OUTPUT="$bin.report" \
		"$work/tracer" "$@" >"$bin.trace" 2>"$bin.err"
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$(cat "$bin.err")"
		finish
	fi
	o0=0
	[ "$o" = O0 ] && o0=1
	if [ $rc -ne 0 ]; then
		notok "$what: the traced program fails (status $rc): $(cat "$bin.err")"
	elif res=$(judge "$bin.trace" $o0 "$cc"); then
		ok "$what: each region counts its own instructions plus the library's empty pair: $res"
	else
		notok "$what: $(printf '%s' "$res" | tr '\n' ';')"
	fi
	if ! LD_LIBRARY_PATH="$staging/usr/lib" SELFMON_EVENTS='' "$work/tracer" --calls nothing,alone_r0,named_r3 "$@" >"$bin.off" 2>"$bin.err"; then
		notok "$what, markers off: the traced program fails: $(cat "$bin.err")"
	elif res=$(judge_off "$bin.off"); then
		ok "$what, markers off: a cached pair costs 4, a by-name pair at most 10: $res"
	else
		notok "$what, markers off: $res (a cached pair must cost 4, a by-name pair at most 10)"
	fi
}

# What a program is built as: "static" (-no-pie, the archive), or a PIE
# against libselfmon.so as pkg-config --libs links it: "shared" bound at
# load (-z now); "ibt" with the PLT that toolchains defaulting to
# -fcf-protection make (IBT's .plt.sec: an endbr64 before each stub's jump,
# where the library's own stubs have none); "lazy", bound at first call;
# "lto", as "static" but optimized at link time.
# A pair calls the library through its GOT entry, so that none of these
# puts a stub or the dynamic linker inside a region (docs/markers.md).
link_flags() {
	case $link in
	shared) echo "-Wl,-z,now" ;;
	ibt) echo "-fcf-protection=full -Wl,-z,ibtplt -Wl,-z,now" ;;
	lazy) echo "-Wl,-z,lazy" ;;
	lto) case $cc in clang*) echo "-flto -fuse-ld=lld" ;; *) echo "-flto" ;; esac ;;
	esac
}
so=$(readlink -f "$staging/usr/lib/libselfmon.so")
nm -n -C "$so" >"$work/libselfmon.nm"
shared=$(pkg-config --libs selfmon)
for link in static shared ibt lazy lto; do
	for cc in gcc clang g++ clang++; do
		if ! command -v "$cc" >/dev/null 2>&1; then
			notok "$cc is installed (scripts/deps.sh tests installs it)"
			continue
		fi
		lang=c std=c11
		case $cc in *++) lang=c++ std=c++17 ;; esac
		for o in O0 O2 O3 Os; do
			[ "$link" = static ] || [ "$link" = shared ] || [ "$o" = O2 ] || continue
			trace_build
		done
	done
done
finish
