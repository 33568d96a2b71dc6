#!/bin/sh
# SPDX-License-Identifier: MIT
# Markers in shared objects, as a user builds them against the library
# installed in STAGING (make install DESTDIR=STAGING prefix=/usr), with
# pkg-config's flags (docs/building.md, "Shared or static"): a dlopen()ed
# plugin with markers, dlclose()d before exit, whose regions are in the
# report at exit; a program linked against libselfmon.so and the same one
# against the archive, with the same regions; a plugin that carries the
# position-independent archive (libselfmon_pic.a) inside. TAP to OUT.
# Usage: tests/check_plugin.sh OUT.tap STAGING SRCDIR [CC]
# (SRCDIR: tests/plugin, with plugin.c and host.c.)
set -u
out=$1 staging=$2 src=$3 cc=${4:-cc}
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_plugin: $*" >&2; }
finish() { echo "1..$n" >>"$out"; cat "$out"; exit 0; }

export PKG_CONFIG_SYSROOT_DIR="$staging" PKG_CONFIG_LIBDIR="$staging/usr/lib/pkgconfig" PKG_CONFIG_PATH=
lib="$staging/usr/lib"
dir="$staging/../plugin"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
if [ ! -e "$lib/libselfmon.so" ]; then
	n=$((n + 1)); echo "ok $n - markers in shared objects # SKIP a static-only install (no libselfmon.so)" >>"$out"
	finish
fi
cflags=$(pkg-config --cflags selfmon) shared=$(pkg-config --libs selfmon) || { notok "pkg-config finds selfmon"; finish; }
# The archives explicitly, libselfmon.so beside them notwithstanding: the
# program's (libselfmon.a), and the one for a shared object (libselfmon_pic.a).
archive="-L$lib -L$lib/selfmon -Wl,-Bstatic -lselfmon -lperf -lapi -Wl,-Bdynamic -lpthread -lm"
pic="-L$lib -L$lib/selfmon -Wl,-Bstatic -lselfmon_pic -lperf -lapi -Wl,-Bdynamic -lpthread -lm"
# The report of each run: CSV in a file; task-clock where no PMU counts (the host).
export SELFMON_EVENTS="${EVENTS:-task-clock}" SELFMON_FORMAT=csv LD_LIBRARY_PATH="$lib"
warn="-std=c11 -O2 -Wall -Wextra -Werror"

# build NAME WHAT ARGS...: compile, or a "not ok" naming WHAT.
build() {
	name=$1 what=$2
	shift 2
	# shellcheck disable=SC2068,SC2086 # flags are words
	if log=$($cc $warn $@ -o "$dir/$name" 2>&1); then
		return 0
	fi
	notok "$what builds: $log"
	return 1
}
# run NAME ARGS...: the program's report in $dir/NAME.csv, its status in $rc.
run() {
	name=$1
	shift
	SELFMON_OUTPUT="$dir/$name.csv" "$dir/$name" "$@" >"$dir/$name.log" 2>&1
	rc=$?
}
# regions FILE: "region calls" of each region over all threads, sorted.
regions() { awk -F, 'NR > 1 && $2 == "all" { print $1 " " $4 }' "$1" 2>/dev/null | sort; }
needs() { readelf -d "$1" 2>/dev/null | grep -q "NEEDED.*\\[$2\\]"; }

# shellcheck disable=SC2086
build plugin.so "a plugin with markers against libselfmon.so (pkg-config --libs)" \
	-fPIC -shared "$src/plugin.c" $cflags $shared || finish
# shellcheck disable=SC2086
build host-shared "the program against libselfmon.so" "$src/host.c" $cflags $shared -ldl || finish
# shellcheck disable=SC2086
build host-static "the program against libselfmon.a" "$src/host.c" $cflags $archive -ldl || finish
# shellcheck disable=SC2086
build plugin-static.so "a plugin with libselfmon_pic.a inside" -fPIC -shared "$src/plugin.c" $cflags $pic || finish
build loader "a loader without selfmon" -DNO_MARKERS "$src/host.c" -ldl -lpthread || finish
# shellcheck disable=SC2086
build sites-shared "a program that counts its resolved sites, against libselfmon.so" "$src/sites.c" $cflags $shared || finish
# shellcheck disable=SC2086
build sites-static "the same against libselfmon.a" "$src/sites.c" $cflags $archive || finish
if needs "$dir/plugin.so" libselfmon.so.0 && needs "$dir/host-shared" libselfmon.so.0 &&
   ! needs "$dir/host-static" libselfmon.so.0 && ! needs "$dir/plugin-static.so" libselfmon.so.0; then
	ok "pkg-config --libs links libselfmon.so.0; the archive links none (plugin.so, host-shared; host-static, plugin-static.so)"
else
	notok "libselfmon.so.0 is needed by plugin.so and host-shared only: $(readelf -d "$dir"/* 2>/dev/null | grep -c libselfmon)"
fi
# The inline path reads selfmon_priv_marker_self, libselfmon.so's thread
# variable, with the compiler's model for a shared object (dynamic TLS):
# initial-exec would need libselfmon.so's whole thread block in the static
# TLS, which dlopen() cannot grow ("cannot allocate memory in static TLS block").
# The arch's fixed sequence (x86_64, arm64) calls the library and reads none.
tls=$(readelf -rW "$dir/plugin.so" | grep selfmon_priv_marker_self)
if printf '%s\n' "$tls" | grep -q -E 'R_X86_64_TPOFF|_TLS_TPREL'; then
	notok "the plugin reads selfmon_priv_marker_self with the initial-exec model: $tls"
elif [ -z "$tls" ]; then
	ok "the plugin reads no thread variable of the library: its pairs are calls (the fixed sequence)"
else
	ok "the plugin reads selfmon_priv_marker_self with a dynamic TLS model: $(printf '%s\n' "$tls" | awk '{ print $3 }' | tr '\n' ' ')"
fi

# Every site of a program resolved when markers start, whether it links the
# library as a shared object (whose section holds none of the program's:
# the program's header registers its own at load) or the archive; with
# markers off, every site and by-name word 0 (no call).
for link in shared static; do
	got=$(SELFMON_OUTPUT="$dir/sites.csv" "$dir/sites-$link" 2>&1)
	off=$(SELFMON_EVENTS='' "$dir/sites-$link" 2>&1)
	if printf '%s\n' "$got" | grep -Eq '^sites ([4-9]) resolved \1 off 0 unresolved 0; words ([0-9]+) off 0$' &&
	   printf '%s\n' "$off" | grep -Eq '^sites ([4-9]) resolved 0 off \1 unresolved 0; words ([0-9]+) off \2$'; then
		ok "against libselfmon.$([ $link = shared ] && echo so || echo a): every site is resolved when markers start, those not reached yet too (on: $got); off, each site and by-name word is 0 ($off)"
	else
		notok "against libselfmon.$([ $link = shared ] && echo so || echo a): a site left to its first use: on: '$got'; off: '$off'"
	fi
done

run host-shared 10
a=$(regions "$dir/host-shared.csv")
run host-static 10
b=$(regions "$dir/host-static.csv")
if [ -n "$a" ] && [ "$a" = "$b" ] && printf '%s\n' "$a" | grep -qx 'host loop 10'; then
	ok "the program against libselfmon.so and against the archive report the same regions: $(printf '%s' "$a" | tr '\n' ';')"
else
	notok "the program against libselfmon.so reports '$a', against the archive '$b'"
fi

run host-shared 10 "$dir/plugin.so"
got=$(regions "$dir/host-shared.csv" | tr '\n' ';')
want="host after 1;host loop 10;plugin by name 1;plugin loop 10;"
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	ok "a plugin dlopen()ed, run and dlclose()d before exit: the report at exit holds its regions and the program's: $got"
else
	notok "plugin dlclose()d before exit: status $rc, regions '$got', not '$want': $(cat "$dir/host-shared.log")"
fi
# Loaded after markers started: its sites are resolved as it loads.
said=$(grep 'sites unresolved at load' "$dir/host-shared.log")
if printf '%s\n' "$said" | grep -Eq '^host: 0 of the plugin.s [2-9] sites'; then
	ok "a plugin loaded after markers started has its sites resolved at its load: $said"
else
	notok "a plugin loaded after markers started: '$said' (every site resolved at load, none left to its first use)"
fi

# libselfmon.so loaded by dlopen() itself (the plugin's dependency).
run loader 10 "$dir/plugin.so"
got=$(regions "$dir/loader.csv" | tr '\n' ';')
want="plugin by name 1;plugin loop 10;"
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	ok "a program without selfmon dlopen()s a plugin that needs libselfmon.so: the report holds its regions: $got"
else
	notok "a plugin loading libselfmon.so by dlopen(): status $rc, regions '$got', not '$want': $(cat "$dir/loader.log")"
fi

# The same in a thread that exits after the dlclose(): libselfmon.so stays
# loaded (-z nodelete), so the destructors of its thread keys (the thread's
# markers, the owner of its sets) are there to run.
export HOST_THREAD=1
run loader 10 "$dir/plugin.so"
unset HOST_THREAD
got=$(regions "$dir/loader.csv" | tr '\n' ';')
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	ok "a thread dlopen()s a plugin that needs libselfmon.so, dlclose()s it and exits: its destructors run, the report holds its regions: $got"
else
	notok "a thread that exits after dlclose() of a plugin that loaded libselfmon.so: status $rc, regions '$got', not '$want': $(cat "$dir/loader.log")"
fi

run loader 10 "$dir/plugin-static.so"
got=$(regions "$dir/loader.csv" | tr '\n' ';')
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	ok "a plugin with libselfmon_pic.a inside, dlclose()d: its report is written and holds its regions: $got"
else
	notok "a plugin with libselfmon_pic.a inside: status $rc, regions '$got', not '$want': $(cat "$dir/loader.log")"
fi
finish
