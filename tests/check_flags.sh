#!/bin/sh
# SPDX-License-Identifier: MIT
# A distro's build of selfmon, replayed: `make install DESTDIR=... prefix=/usr`
# as dpkg-buildpackage runs it (dpkg-buildflags' flags exported, Debian's
# multiarch libdir), as Buildroot's generic package runs it (its
# TARGET_CONFIGURE_OPTS on the command line) and as Yocto's oe_runmake runs
# it (CC with its flags and --sysroot, CFLAGS, LDFLAGS and the install
# directories exported; EXTRA_OEMAKE on the command line), for the host and,
# where aarch64-linux-gnu-gcc is installed, for arm64. Each must build; the
# caller's CPPFLAGS, CFLAGS and LDFLAGS must reach every compile of selfmon's
# code and the CLI's link (each carries a marker: -DSELFMON_FLAG_PROBE_CPPFLAGS,
# -frecord-gcc-switches, whose .GCC.command.line section the installed
# objects then hold, and -Wl,--defsym=selfmon_flag_probe_ldflags=1, a symbol
# of the installed CLI); the install tree must be complete, and a program
# must compile and link against it through its selfmon.pc alone, by a
# cross pkg-config (PKG_CONFIG_SYSROOT_DIR) wherever libdir is. Then the
# third-party build (scripts/build-deps.sh) must be given none of the
# caller's flags. TAP to OUT; the builds and their V=1 logs stay in WORK.
# Usage: tests/check_flags.sh OUT.tap WORK MAKE LINUX_DEPS PROGRAM.c
#   MAKE: the make command for this tree (with its DEPS=...), one string
#   LINUX_DEPS: the tree's built third-party folder (its src/ is reused)
# shellcheck disable=SC2030,SC2031 # each replay's flags stay in its subshell
set -u
unset CDPATH
out=$1 work=$2 make=$3 linux_deps=$4 prog=$5
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_flags: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >>"$out"; }

# Each replay starts as a distro's build does, from its own variables only:
# none of those of the make that runs this test.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL CC CFLAGS CPPFLAGS LDFLAGS EXTRA_CFLAGS \
	prefix exec_prefix libdir includedir bindir DESTDIR O V
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
start=$(date +%s)

M_CPP=-DSELFMON_FLAG_PROBE_CPPFLAGS
M_C=-frecord-gcc-switches
M_LD=-Wl,--defsym=selfmon_flag_probe_ldflags=1

# A sysroot as Yocto hands its compiler one (--sysroot=recipe-sysroot): the
# Debian cross toolchain's folders, under usr/.
sysroot="$work/recipe-sysroot"
mkdir -p "$sysroot/usr"
ln -s /usr/aarch64-linux-gnu/include "$sysroot/usr/include"
ln -s /usr/aarch64-linux-gnu/lib "$sysroot/usr/lib"
ln -s usr/lib "$sysroot/lib"

# verify NAME CROSS STAGE LIBDIR LOG RC CC_FLAG LD_FLAG
# CC_FLAG: one of the distro's own flags that every compile line must carry
# beside the markers; LD_FLAG: one that the CLI's link line must carry.
verify() {
	name=$1 cross=$2 stage=$3 libdir=$4 log=$5 rc=$6 ccflag=$7 ldflag=$8
	if [ "$rc" -ne 0 ]; then
		notok "$name: make install fails: $(tail -n 15 "$log" | tr '\n' ' ')"
		return
	fi
	ok "$name: make install builds and installs (V=1 log: $log)"
	# Every compile of selfmon's code: "... -c SRC.c -o .../obj/....o".
	total=$(grep -c -E -- ' -c [^ ]+\.c -o [^ ]+/obj/' "$log")
	bare=$(grep -E -- ' -c [^ ]+\.c -o [^ ]+/obj/' "$log" | awk -v a="$M_CPP" -v b="$M_C" -v c="$ccflag" \
		'index($0, a) == 0 || index($0, b) == 0 || index($0, c) == 0 { k++ } END { print k + 0 }')
	if [ "$total" -gt 0 ] && [ "$bare" -eq 0 ]; then
		ok "$name: all $total compiles carry the caller's CPPFLAGS and CFLAGS ($M_CPP $M_C $ccflag)"
	else
		notok "$name: $bare of $total compiles lack the caller's $M_CPP, $M_C or $ccflag: $(grep -E -- ' -c [^ ]+\.c -o ' "$log" | grep -v -F -e "$ccflag" | head -n 1)"
	fi
	cli_link=$(grep -E -- "-o [^ ]+/selfmon\$" "$log" | tail -n 1)
	case "$cli_link" in
	*"$M_LD"*"$ldflag"* | *"$ldflag"*"$M_LD"*)
		ok "$name: the CLI's link carries the caller's LDFLAGS ($ldflag $M_LD)" ;;
	*) notok "$name: the CLI's link lacks the caller's LDFLAGS ($ldflag $M_LD): '$cli_link'" ;;
	esac
	missing=""
	for f in "$libdir/libselfmon.a" "$libdir/selfmon/libperf.a" "$libdir/selfmon/libapi.a" "$libdir/pkgconfig/selfmon.pc" \
		/usr/include/selfmon/selfmon.h /usr/include/selfmon/arch.h /usr/bin/selfmon \
		/usr/share/man/man1/selfmon.1 /usr/share/man/man3/selfmon_set__open.3; do
		[ -s "$stage$f" ] || missing="$missing $f"
	done
	# libperf and libapi in selfmon's own directory (docs/licensing.md): a
	# distro's libperf package owns $libdir/libperf.a.
	for f in "$libdir/libperf.a" "$libdir/libapi.a"; do
		[ ! -e "$stage$f" ] || missing="$missing (not $f: under $libdir/selfmon)"
	done
	if [ -z "$missing" ]; then
		ok "$name: the install holds the archives and selfmon.pc in $libdir (libperf's in $libdir/selfmon), the headers, the CLI and the man pages"
	else
		notok "$name: the install into $stage lacks:$missing"
	fi
	# The shared library beside the archive: the file, its two links, its soname.
	so=""
	for f in "$stage$libdir"/libselfmon.so.*.*.*; do [ -f "$f" ] && so=${f##*/}; done
	soname=$("${cross}readelf" -d "$stage$libdir/${so:-none}" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	if [ -n "$so" ] && [ "$soname" = libselfmon.so.0 ] && [ -s "$stage$libdir/libselfmon_pic.a" ] &&
	   [ "$(readlink "$stage$libdir/libselfmon.so.0")" = "$so" ] &&
	   [ "$(readlink "$stage$libdir/libselfmon.so")" = libselfmon.so.0 ]; then
		ok "$name: the install holds $so (soname $soname), the links libselfmon.so.0 and libselfmon.so, and libselfmon_pic.a"
	else
		notok "$name: the install lacks libselfmon.so.0.x.y with soname libselfmon.so.0, its links or libselfmon_pic.a: $(find "$stage$libdir" -maxdepth 1 -name 'libselfmon*' | tr '\n' ' ')"
	fi
	# What the caller's flags made: the installed objects, the installed CLI.
	if "${cross}readelf" -p .GCC.command.line "$stage$libdir/libselfmon.a" 2>/dev/null | grep -q -e -O &&
	   "${cross}nm" "$stage/usr/bin/selfmon" 2>/dev/null | grep -q ' selfmon_flag_probe_ldflags$'; then
		ok "$name: the installed library was compiled with the caller's CFLAGS (.GCC.command.line) and the CLI linked with its LDFLAGS (selfmon_flag_probe_ldflags)"
	else
		notok "$name: the installed library has no .GCC.command.line section or the CLI no selfmon_flag_probe_ldflags symbol"
	fi
	# A user's program, through the staged selfmon.pc alone.
	pcflags=$(PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_LIBDIR="$stage$libdir/pkgconfig" PKG_CONFIG_PATH='' \
		pkg-config --cflags --static --libs selfmon 2>&1) ||
		{ notok "$name: a cross pkg-config reads $stage$libdir/pkgconfig/selfmon.pc: $pcflags"; return; }
	bin="$work/$name-program"
	# shellcheck disable=SC2086 # pkg-config's flags are words
	if plog=$("${cross:-}gcc" -std=c11 -O2 "$prog" $pcflags -o "$bin" 2>&1); then
		ok "$name: ${cross}gcc links a program against the install in $libdir through pkg-config ($pcflags)"
	else
		notok "$name: ${cross}gcc links a program against the install in $libdir through pkg-config ($pcflags): $plog"
		return
	fi
	# pkg-config --libs (not --static): the shared link, libselfmon.so.0 needed.
	pcshared=$(PKG_CONFIG_SYSROOT_DIR="$stage" PKG_CONFIG_LIBDIR="$stage$libdir/pkgconfig" PKG_CONFIG_PATH='' \
		pkg-config --cflags --libs selfmon 2>&1)
	# shellcheck disable=SC2086 # pkg-config's flags are words
	if slog=$("${cross:-}gcc" -std=c11 -O2 "$prog" $pcshared -o "$bin-shared" 2>&1) &&
	   "${cross}readelf" -d "$bin-shared" | grep -q 'NEEDED.*\[libselfmon\.so\.0\]'; then
		ok "$name: pkg-config --libs selfmon ($pcshared) links a program against libselfmon.so.0"
	else
		notok "$name: pkg-config --libs selfmon ($pcshared) links no program needing libselfmon.so.0: $slog"
	fi
	if [ -z "$cross" ]; then
		LD_LIBRARY_PATH="$stage$libdir" "$bin-shared" 1000 >"$bin-shared.log" 2>&1
		prc=$?
		if [ $prc -lt 126 ]; then ok "$name: the program linked against libselfmon.so runs (status $prc)"
		else notok "$name: the program linked against libselfmon.so dies with status $prc: $(cat "$bin-shared.log")"; fi
		LD_LIBRARY_PATH="$stage$libdir" "$bin" 1000 >"$bin.log" 2>&1
		prc=$?
		if [ $prc -lt 126 ]; then ok "$name: the program runs (status $prc)"
		else notok "$name: the program dies with status $prc: $(cat "$bin.log")"; fi
	fi
}

# (a) dpkg-buildpackage: dpkg-buildflags' flags (hardening=+all), exported;
# Debian's multiarch libdir. deb NAME DEB_ARCH TRIPLE [ARCH CROSS_COMPILE]
deb() {
	name=$1 debarch=$2 triple=$3 arch=${4:-} cross=${5:-}
	stage="$work/$name-stage" log="$work/$name.log"
	(
		eval "$(DEB_HOST_ARCH=$debarch DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
		export CPPFLAGS="$CPPFLAGS $M_CPP" CFLAGS="$CFLAGS $M_C" LDFLAGS="$LDFLAGS $M_LD"
		# shellcheck disable=SC2086 # MAKE is a command line
		$make O="$work/$name" V=1 ${arch:+ARCH=$arch CROSS_COMPILE=$cross} \
			install DESTDIR="$stage" prefix=/usr libdir="/usr/lib/$triple"
	) >"$log" 2>&1
	verify "$name" "$cross" "$stage" "/usr/lib/$triple" "$log" $? -fstack-protector-strong -Wl,-z,now
}

# (b) Buildroot's generic package: $(TARGET_CONFIGURE_OPTS) on the command
# line (its TARGET_CFLAGS: TARGET_CPPFLAGS, -O2, -g0, _FORTIFY_SOURCE=1).
# buildroot NAME [ARCH CROSS_COMPILE]
buildroot() {
	name=$1 arch=${2:-} cross=${3:-}
	stage="$work/$name-stage" log="$work/$name.log"
	cppflags="-D_LARGEFILE_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64"
	# shellcheck disable=SC2086 # MAKE is a command line
	$make O="$work/$name" V=1 ${arch:+ARCH=$arch CROSS_COMPILE=$cross} \
		CC="${cross}gcc" AR="${cross}ar" LD="${cross}ld" NM="${cross}nm" OBJCOPY="${cross}objcopy" \
		CPPFLAGS="$cppflags $M_CPP" CFLAGS="$cppflags -O2 -g0 -D_FORTIFY_SOURCE=1 -pipe $M_C" \
		LDFLAGS="-Wl,-z,relro $M_LD" install DESTDIR="$stage" prefix=/usr >"$log" 2>&1
	verify "$name" "$cross" "$stage" /usr/lib "$log" $? -D_FILE_OFFSET_BITS=64 -Wl,-z,relro
}

# (c) Yocto's oe_runmake: the task's exported CC (its tuning, hardening and
# --sysroot inside), CFLAGS, LDFLAGS and GNU directories (bitbake.conf's
# `export libdir`: lib64 in a multilib image); EXTRA_OEMAKE on the command
# line. yocto NAME CC [ARCH CROSS_COMPILE]
yocto() {
	name=$1 cc=$2 arch=${3:-} cross=${4:-}
	stage="$work/$name-stage" log="$work/$name.log"
	(
		export CC="$cc -fstack-protector-strong -O2 -D_FORTIFY_SOURCE=2 -Wformat -Wformat-security -Werror=format-security"
		export CPPFLAGS="$M_CPP"
		export CFLAGS="-O2 -pipe -g -feliminate-unused-debug-types -fdebug-prefix-map=$work=/usr/src/debug $M_C"
		export LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed -Wl,-z,relro,-z,now $M_LD"
		export prefix=/usr exec_prefix=/usr libdir=/usr/lib64 includedir=/usr/include
		# shellcheck disable=SC2086 # MAKE is a command line
		$make O="$work/$name" V=1 ${arch:+ARCH=$arch CROSS_COMPILE=$cross} install DESTDIR="$stage"
	) >"$log" 2>&1
	verify "$name" "$cross" "$stage" /usr/lib64 "$log" $? -Werror=format-security -Wl,--as-needed
}

deb host-deb "$(dpkg --print-architecture)" "$(gcc -dumpmachine)"
buildroot host-buildroot
yocto host-yocto "gcc -m64 --sysroot=/"
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	deb arm64-deb arm64 aarch64-linux-gnu arm64 aarch64-linux-gnu-
	buildroot arm64-buildroot arm64 aarch64-linux-gnu-
	yocto arm64-yocto "aarch64-linux-gnu-gcc -mcpu=cortex-a53 -march=armv8-a+crc --sysroot=$sysroot" \
		arm64 aarch64-linux-gnu-
else
	skip "arm64: the three replays" "no aarch64-linux-gnu-gcc (scripts/deps.sh board installs it)"
fi

# The third-party build gets a clean environment: a fake `make` first in
# PATH records what libperf's make would be given, from build-deps.sh run
# as selfmon's Makefile runs it under the caller's exported and
# command-line flags (MAKEFLAGS). The sources are the tree's, already
# extracted.
fake="$work/fake-make"
mkdir -p "$fake" "$work/deps-env"
ln -s "$linux_deps/src" "$work/deps-env/src"
ln -s "$linux_deps/kselftest" "$work/deps-env/kselftest"
cat >"$fake/make" <<'EOF'
#!/bin/sh
env >"$FLAGS_ENV_LOG"
printf 'args: %s\n' "$*" >>"$FLAGS_ENV_LOG"
exit 1
EOF
chmod +x "$fake/make"
FLAGS_ENV_LOG="$work/deps-env.log" PATH="$fake:$PATH" CFLAGS="-std=c11 $M_C" CPPFLAGS="$M_CPP" LDFLAGS="$M_LD" \
	MAKEFLAGS=" -- CFLAGS=-std=c11 includedir=/usr/include" \
	scripts/build-deps.sh "$work/deps-env" x86 >/dev/null 2>&1
leaked=$(grep -E '^(CFLAGS|CPPFLAGS|LDFLAGS|MAKEFLAGS|MFLAGS|MAKEOVERRIDES)=' "$work/deps-env.log" 2>/dev/null | tr '\n' ' ')
if [ ! -s "$work/deps-env.log" ]; then
	notok "build-deps.sh never ran libperf's make (the fake make in PATH saw nothing)"
elif [ -z "$leaked" ]; then
	ok "libperf's make gets none of the caller's CFLAGS, CPPFLAGS, LDFLAGS or command line (MAKEFLAGS)"
else
	notok "libperf's make is given the caller's $leaked"
fi

echo "# the replays took $(($(date +%s) - start)) s" >>"$out"
echo "1..$n" >>"$out"
grep -q '^not ok' "$out" && exit 1
exit 0
