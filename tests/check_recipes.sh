#!/bin/sh
# SPDX-License-Identifier: MIT
# The Buildroot package and the Yocto recipe of packaging/, replayed for
# aarch64: neither tool is installed here, so each recipe's own lines are
# taken from its files and run with the environment the tool gives them.
# Buildroot: tests/recipes/buildroot.mk defines Buildroot's variables
# (TARGET_CONFIGURE_OPTS, TARGET_MAKE_ENV, KERNEL_ARCH, TARGET_CROSS,
# LINUX_DIR, STAGING_DIR, TARGET_DIR), includes the BR2_EXTERNAL tree's
# external.mk and runs SELFMON_BUILD_CMDS, SELFMON_INSTALL_STAGING_CMDS and
# SELFMON_INSTALL_TARGET_CMDS as make recipes, as pkg-generic.mk does, for a
# static-only toolchain (BR2_STATIC_LIBS) with the CLI, then the target
# install again without it. Yocto: tests/recipes/bb_replay.py expands the
# recipe's do_compile and do_install (EXTRA_OEMAKE, oe_runmake, ${D},
# ${libdir}, ...) against the values of a build (the cross CC with its
# --sysroot, Yocto's CFLAGS with -fdebug-prefix-map, the GNU directories
# exported), runs them, splits ${D} into the recipe's packages as
# do_package does, and runs do_install again without PACKAGECONFIG's cli.
# A variable the recipe uses that the tool does not define fails the
# replay. Each install tree is checked (archives, headers, selfmon.pc, the
# CLI for aarch64, per option), and a program links against it through its
# selfmon.pc with PKG_CONFIG_SYSROOT_DIR. libperf comes from LINUX_SRC,
# already built in LINUX_DEPS: the replays' DEPS holds that build alone,
# so anything else a recipe's make needed (a static cmocka) would be built
# and show. TAP to OUT; the trees and logs stay in WORK.
# Usage: tests/check_recipes.sh OUT.tap WORK LINUX_SRC LINUX_DEPS PROGRAM.c [JOBS]
# shellcheck disable=SC2030,SC2031 # each replay's environment stays in its subshell
set -u
unset CDPATH
out=$1 work=$2 linux_src=$3 linux_deps=$4 prog=$5 jobs=${6:-2}
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_recipes: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >>"$out"; }

# A tool's build starts from its own variables: none of the make that runs this.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL CC CFLAGS CPPFLAGS LDFLAGS EXTRA_CFLAGS \
	prefix exec_prefix libdir includedir bindir mandir DESTDIR O V
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	skip "the Buildroot and Yocto replays" "no aarch64-linux-gnu-gcc (scripts/deps.sh board installs it)"
	echo "1..$n" >>"$out"
	exit 0
fi
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
tree=$(pwd)
start=$(date +%s)
br_ext="$tree/packaging/buildroot"
bb="$tree/packaging/yocto/recipes-devtools/selfmon/selfmon_git.bb"

# The replays' DEPS: the tree's libperf build for LINUX_SRC, nothing else.
mkdir -p "$work/deps"
ln -s "$linux_deps" "$work/deps/$(basename "$linux_deps")"

# A copy of the tree, as each tool copies or fetches its source.
copy_tree() {
	mkdir -p "$1" &&
	git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$1"
}

# aarch64_cli FILE STATIC(y/n): an aarch64 ELF, static or with an interpreter.
aarch64_cli() {
	h=$(aarch64-linux-gnu-readelf -h -l "$1" 2>/dev/null) || return 1
	echo "$h" | grep -q 'Machine:.*AArch64' || return 1
	if [ "$2" = y ]; then ! echo "$h" | grep -q 'Requesting program interpreter'
	else echo "$h" | grep -q 'Requesting program interpreter'; fi
}

# has_all ROOT FILE...: the files missing under ROOT, on stdout.
missing_in() {
	root=$1; shift
	for f in "$@"; do [ -s "$root$f" ] || printf ' %s' "$f"; done
}

# links NAME ROOT LIBDIR CC...: a program through ROOT's selfmon.pc.
links() {
	name=$1 root=$2 libdir=$3; shift 3
	pc=$(PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_LIBDIR="$root$libdir/pkgconfig" PKG_CONFIG_PATH='' \
		pkg-config --cflags --libs --static selfmon 2>&1) ||
		{ notok "$name: pkg-config reads $root$libdir/pkgconfig/selfmon.pc: $pc"; return; }
	# shellcheck disable=SC2086,SC2068 # pkg-config's flags and the compiler are words
	if l=$($@ -std=c11 -O2 "$prog" $pc -o "$work/$name-program" 2>&1) &&
	   aarch64-linux-gnu-readelf -h "$work/$name-program" | grep -q AArch64; then
		ok "$name: a program links for aarch64 through the installed selfmon.pc ($pc)"
	else
		notok "$name: a program does not link through the installed selfmon.pc ($pc): $l"
	fi
}

# ---- Buildroot ----
br=$work/buildroot
# The package's options are its Config.in's, and its make file names its
# external tree as external.desc does.
br_name=$(sed -n 's/^name: *//p' "$br_ext/external.desc")
undeclared=""
# shellcheck disable=SC2013 # option names are words
for sym in $(grep -o 'BR2_PACKAGE_SELFMON[A-Z0-9_]*' "$br_ext/package/selfmon/selfmon.mk" | sort -u); do
	grep -q "^config $sym\$" "$br_ext/package/selfmon/Config.in" || undeclared="$undeclared $sym"
done
if [ -z "$undeclared" ] && grep -q "BR2_EXTERNAL_${br_name}_PATH" "$br_ext/external.mk" "$br_ext/Config.in" &&
   grep -q "package/selfmon/Config.in" "$br_ext/Config.in"; then
	ok "buildroot: external.desc names the tree $br_name, its Config.in sources the package's, whose options selfmon.mk uses"
else
	notok "buildroot: the external tree's names disagree (external.desc: '$br_name'; options not in Config.in:$undeclared)"
fi
copy_tree "$br/build/selfmon-0.1.0"
brmake() {
	BR_EXTERNAL=$br_ext BR_WORK=$br BR_LINUX_DIR=$linux_src BR_STATIC=y BR_CLI=${BR_CLI:-y} \
		BR_MAKE=${BR_MAKE:-make -j$jobs DEPS=$work/deps} make --no-print-directory -f "$tree/tests/recipes/buildroot.mk" "$@"
}
# Every variable the package's commands use is one Buildroot defines
# (a dry run, warnings on; BR2_ options unset are undefined in Buildroot too).
undef=$(BR_MAKE=true brmake -n --warn-undefined-variables build install-staging install-target 2>&1 >"$br/dry.log" |
	grep 'warning: undefined variable' | grep -v "variable 'BR2_" | sed "s/.*undefined variable //" | sort -u | tr '\n' ' ')
if [ -z "$undef" ]; then ok "buildroot: selfmon.mk's commands use only variables Buildroot defines ($(grep -c . "$br/dry.log") lines)"
else notok "buildroot: selfmon.mk's commands use undefined variables: $undef"; fi
if brmake build install-staging install-target >"$br/build.log" 2>&1 &&
   BR_CLI=n BR_TARGET_DIR=$br/target-nocli brmake install-target >"$br/target-nocli.log" 2>&1; then
	ok "buildroot: SELFMON_BUILD_CMDS, INSTALL_STAGING_CMDS and INSTALL_TARGET_CMDS run (log: $br/build.log)"
	st=$br/staging
	miss=$(missing_in "$st" /usr/lib/libselfmon.a /usr/lib/selfmon/libperf.a /usr/lib/selfmon/libapi.a \
		/usr/lib/pkgconfig/selfmon.pc /usr/include/selfmon/selfmon.h /usr/include/selfmon/arch.h /usr/bin/selfmon)
	if [ -z "$miss" ] && grep -q 'aarch64\|__aarch64__\|mrs' "$st/usr/include/selfmon/arch.h" &&
	   [ -z "$(find "$st" -name 'libselfmon.so*')" ]; then
		ok "buildroot: the staging tree holds arm64's headers, libselfmon.a, libperf's archives, selfmon.pc (BR2_STATIC_LIBS: no libselfmon.so)"
	else
		notok "buildroot: the staging tree lacks:$miss (or holds arm64's arch.h not, or a libselfmon.so)"
	fi
	if cmp -s "$br/build/selfmon-0.1.0/build/include/generated/libperf.h" "$linux_deps/arm64/libperf-compat.h"; then
		ok "buildroot: libperf is LINUX_DIR's, built for arm64"
	else
		notok "buildroot: the build's libperf is not LINUX_DIR's ($linux_src) arm64 build"
	fi
	if aarch64_cli "$br/target/usr/bin/selfmon" y && [ ! -e "$br/target-nocli/usr/bin/selfmon" ]; then
		ok "buildroot: the target gets a static aarch64 selfmon with BR2_PACKAGE_SELFMON_CLI, none without"
	else
		notok "buildroot: the target's CLI is wrong: $(file "$br/target/usr/bin/selfmon" 2>&1); without the option: $(ls "$br/target-nocli/usr/bin" 2>&1)"
	fi
	links buildroot "$st" /usr/lib aarch64-linux-gnu-gcc -static
	# The target's static CLI under qemu-user, whose perf_event_open is
	# ENOSYS for every event: probe says so, exit status 1.
	qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64)
	if [ -z "$qemu" ]; then
		skip "buildroot: the target's selfmon probe under qemu-user" "no qemu-aarch64-static (scripts/deps.sh board installs it)"
	else
		"$qemu" "$br/target/usr/bin/selfmon" probe >"$br/qemu-probe.log" 2>&1
		rc=$?
		if [ $rc -eq 1 ] && grep -q '^verdict: perf_event_open is not available here (ENOSYS: qemu-user' "$br/qemu-probe.log"; then
			ok "buildroot: the target's selfmon probe under qemu-user says perf_event_open is not available (ENOSYS), exit status 1"
		else
			notok "buildroot: the target's selfmon probe under qemu-user (exit $rc): $(tail -n 3 "$br/qemu-probe.log" | tr '\n' ' ')"
		fi
	fi
else
	notok "buildroot: the package's commands fail: $(tail -n 15 "$br/build.log" "$br/target-nocli.log" 2>/dev/null | tr '\n' ' ')"
fi

# ---- Yocto ----
wd=$work/yocto
copy_tree "$wd/git"
native="$wd/recipe-sysroot-native"
pyver=$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
mkdir -p "$native/usr/bin/python3-native" "$native/usr/lib/$pyver" "$wd/recipe-sysroot/usr"
ln -s /usr/bin/python3 "$native/usr/bin/python3-native/python3"
ln -s /usr/lib/python3/dist-packages "$native/usr/lib/$pyver/site-packages"
ln -s /usr/aarch64-linux-gnu/include "$wd/recipe-sysroot/usr/include"
ln -s /usr/aarch64-linux-gnu/lib "$wd/recipe-sysroot/usr/lib"
ycc="aarch64-linux-gnu-gcc -mcpu=cortex-a53 -march=armv8-a+crc -fstack-protector-strong -O2 -D_FORTIFY_SOURCE=2 -Wformat -Wformat-security -Werror=format-security --sysroot=$wd/recipe-sysroot"
dpm="-fmacro-prefix-map=$wd=/usr/src/debug/selfmon/0.1.0 -fdebug-prefix-map=$wd=/usr/src/debug/selfmon/0.1.0"
# bb_replay SETS... -- ARGS...
bbr() {
	python3 "$tree/tests/recipes/bb_replay.py" "$bb" \
		--set PN=selfmon --set BPN=selfmon --set PV=0.1.0 --set WORKDIR="$wd" \
		--set TARGET_ARCH=aarch64 --set TARGET_PREFIX=aarch64-linux-gnu- --set MACHINE_ARCH=qemuarm64 \
		--set CC="$ycc" --set CPP="$ycc -E" --set LD=aarch64-linux-gnu-ld --set AR=aarch64-linux-gnu-gcc-ar \
		--set NM=aarch64-linux-gnu-gcc-nm --set STRIP=aarch64-linux-gnu-strip --set OBJCOPY=aarch64-linux-gnu-objcopy \
		--set CPPFLAGS="" --set CFLAGS="-O2 -pipe -g -feliminate-unused-debug-types $dpm" \
		--set LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed $dpm -Wl,-z,relro,-z,now" \
		--set prefix=/usr --set exec_prefix=/usr --set base_prefix= --set bindir=/usr/bin --set sbindir=/usr/sbin \
		--set libexecdir=/usr/libexec --set libdir=/usr/lib --set base_libdir=/lib --set includedir=/usr/include \
		--set datadir=/usr/share --set mandir=/usr/share/man --set docdir=/usr/share/doc --set infodir=/usr/share/info \
		--set sysconfdir=/etc --set STAGING_KERNEL_DIR="$linux_src" \
		--set PYTHON="$native/usr/bin/python3-native/python3" --set STAGING_LIBDIR_NATIVE="$native/usr/lib" \
		--set PYTHON_DIR="$pyver" --set PARALLEL_MAKE="-j $jobs" --set PARALLEL_MAKEINST="-j $jobs" \
		--set MAKE="make DEPS=$work/deps" "$@"
}
# LIC_FILES_CHKSUM: each file's md5 is the recipe's.
lics=$(bbr get LIC_FILES_CHKSUM 2>&1)
badlic=""
for l in $lics; do
	f=${l#file://}; f=${f%%;*}; sum=${l##*md5=}
	[ "$(md5sum <"$wd/git/$f" 2>/dev/null | cut -d' ' -f1)" = "$sum" ] || badlic="$badlic $f"
done
if [ -n "$lics" ] && [ -z "$badlic" ]; then ok "yocto: LIC_FILES_CHKSUM's md5 sums are the files' ($lics)"
else notok "yocto: LIC_FILES_CHKSUM does not match:$badlic ($lics)"; fi
D=$wd/image
if bbr --set D="$D" script do_compile >"$wd/do_compile.sh" 2>"$wd/parse.log" &&
   bbr --set D="$D" script do_install >"$wd/do_install.sh" 2>>"$wd/parse.log"; then
	ok "yocto: do_compile and do_install expand with Yocto's variables alone"
	if sh "$wd/do_compile.sh" >"$wd/log.do_compile" 2>&1 && rm -rf "$D" && sh "$wd/do_install.sh" >"$wd/log.do_install" 2>&1; then
		ok "yocto: do_compile and do_install run (logs: $wd/log.do_*)"
		total=$(grep -c -E -- ' -c [^ ]+\.c -o [^ ]+/obj/' "$wd/log.do_compile")
		bare=$(grep -E -- ' -c [^ ]+\.c -o [^ ]+/obj/' "$wd/log.do_compile" | grep -c -v -F -e "-fdebug-prefix-map=$wd=" )
		if [ "$total" -gt 0 ] && [ "$bare" -eq 0 ] && grep -q -- "--sysroot=$wd/recipe-sysroot" "$wd/log.do_compile"; then
			ok "yocto: all $total compiles carry the recipe's CC (--sysroot) and CFLAGS (-fdebug-prefix-map)"
		else
			notok "yocto: $bare of $total compiles lack Yocto's CFLAGS or CC"
		fi
		miss=$(missing_in "$D" /usr/lib/libselfmon.a /usr/lib/selfmon/libperf.a /usr/lib/selfmon/libapi.a \
			/usr/lib/pkgconfig/selfmon.pc /usr/include/selfmon/selfmon.h /usr/include/selfmon/arch.h \
			/usr/bin/selfmon /usr/share/man/man1/selfmon.1 /usr/share/man/man3/selfmon_set__open.3)
		if [ -z "$miss" ]; then ok "yocto: \${D} holds the archives, selfmon.pc, the headers, the CLI and the man pages"
		else notok "yocto: \${D} lacks:$miss"; fi
		# Yocto's "ldflags" QA: the CLI was linked with LDFLAGS (a GNU hash table).
		if aarch64_cli "$D/usr/bin/selfmon" n && aarch64-linux-gnu-readelf -S "$D/usr/bin/selfmon" | grep -q '\.gnu\.hash'; then
			ok "yocto: the CLI is a dynamic aarch64 program linked with LDFLAGS (.gnu.hash)"
		else
			notok "yocto: the CLI is not an aarch64 program linked with Yocto's LDFLAGS"
		fi
		if bbr packages "$D" >"$wd/packages.txt" 2>"$wd/packages.log"; then
			ok "yocto: every installed file goes to a package ($(cut -d' ' -f1 "$wd/packages.txt" | sort | uniq -c | awk '{printf "%s%s: %s", s, $2, $1; s=", "}'))"
		else
			notok "yocto: the package split: $(cat "$wd/packages.log")"
		fi
		if grep -q '^selfmon-cli /usr/bin/selfmon$' "$wd/packages.txt" && grep -q '^selfmon-staticdev /usr/lib/selfmon/libperf.a$' "$wd/packages.txt" &&
		   grep -q '^selfmon-dev /usr/lib/pkgconfig/selfmon.pc$' "$wd/packages.txt" &&
		   grep -q '^selfmon /usr/lib/libselfmon.so.0$' "$wd/packages.txt" && grep -q '^selfmon-dev /usr/lib/libselfmon.so$' "$wd/packages.txt"; then
			ok "yocto: selfmon takes libselfmon.so.0, selfmon-dev its link and selfmon.pc, selfmon-staticdev the archives, selfmon-cli the CLI"
		else
			notok "yocto: the packages take the wrong files: $(tr '\n' ' ' <"$wd/packages.txt")"
		fi
		D2=$wd/image-nocli
		if bbr --set D="$D2" --set PACKAGECONFIG= script do_install >"$wd/do_install-nocli.sh" 2>>"$wd/parse.log" &&
		   sh "$wd/do_install-nocli.sh" >"$wd/log.do_install-nocli" 2>&1 && [ -s "$D2/usr/lib/libselfmon.a" ] &&
		   [ ! -e "$D2/usr/bin/selfmon" ]; then
			ok "yocto: without PACKAGECONFIG's cli, do_install installs no CLI"
		else
			notok "yocto: without PACKAGECONFIG's cli: $(ls "$D2/usr/bin" 2>&1) $(tail -n 5 "$wd/log.do_install-nocli" 2>/dev/null)"
		fi
		# shellcheck disable=SC2086 # Yocto's CC is words
		links yocto "$D" /usr/lib $ycc
	else
		notok "yocto: the tasks fail: $(tail -n 15 "$wd/log.do_compile" "$wd/log.do_install" 2>/dev/null | tr '\n' ' ')"
	fi
else
	notok "yocto: the recipe does not expand: $(tr '\n' ' ' <"$wd/parse.log")"
fi

echo "# the replays took $(($(date +%s) - start)) s" >>"$out"
echo "1..$n" >>"$out"
grep -q '^not ok' "$out" && exit 1
exit 0
