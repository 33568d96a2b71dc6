#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian packages (debian/, docs/packaging.md) as a distro builds them and
# a user installs them: dpkg-buildpackage -b natively and
# -a arm64 -Pcross,nocheck in a copy of this tree (never in the tree
# itself: it writes ../*.deb); lintian on each .changes (no error, no
# warning); the packages' file lists; the amd64 packages and the arm64
# libselfmon-dev installed together by dpkg --root into an empty root
# (Multi-Arch: same co-installs); a program built there through the
# installed selfmon.pc, and run; one linked for arm64 through the arm64
# package's selfmon.pc; and, with BOARD_RUN, the arm64 package's
# `selfmon probe` and that program on the emulated board: the real mrs
# path, and two runs whose regions differ by 2000 instructions differ by
# exactly 4000.
# Usage: tests/check_deb.sh OUT.tap WORK PROGRAM.c [BOARD_RUN VM_DIR]
#   PROGRAM.c: tests/min/min.c (prints "instructions:u COUNT PATH")
# TAP to OUT (and stdout); builds and logs stay in WORK.
set -u
unset CDPATH MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL CC CFLAGS CPPFLAGS LDFLAGS O V
out=$1 work=$2 prog=$3 board_run=${4:-} vm=${5:-}
here=$(pwd)
: >"$out"
n=0
tap() { echo "$*" | tee -a "$out"; }
ok() { n=$((n + 1)); tap "ok $n - $*"; }
notok() { n=$((n + 1)); tap "not ok $n - $*"; }
skip() { n=$((n + 1)); tap "ok $n - $1 # SKIP $2"; }
tail_of() { tail -n "${2:-5}" "$1" 2>/dev/null | tr '\n' ' ' | cut -c1-600; }

tap "# suite: check-deb (debian/: dpkg-buildpackage, lintian, dpkg --root, the board)"
tap "1..11"
start=$(date +%s)
version=$(dpkg-parsechangelog -S Version -l debian/changelog) || { notok "debian/changelog has a version"; exit 0; }
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
src=$work/selfmon-$version
mkdir -p "$src"
# The tree as committed, with what is changed or new but not ignored.
git ls-files -co --exclude-standard | grep -v '^build/' | tar -cf - -T - | tar -xf - -C "$src" ||
	{ notok "a copy of the tree in $src"; exit 0; }

# 1, 2: the two builds.
build() { # NAME ARGS...: dpkg-buildpackage in the copy, its log in WORK
	name=$1; shift
	t0=$(date +%s)
	(cd "$src" && dpkg-buildpackage "$@" >"$work/$name.log" 2>&1)
	rc=$?
	secs=$(($(date +%s) - t0))
}
build amd64 -b -us -uc
if [ $rc -eq 0 ]; then ok "dpkg-buildpackage -b builds the amd64 packages (${secs} s)"
else notok "dpkg-buildpackage -b: status $rc: $(tail_of "$work/amd64.log")"; fi
if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	skip "dpkg-buildpackage -a arm64" "no aarch64-linux-gnu-gcc (scripts/deps.sh deb)"
else
	build arm64 -a arm64 -Pcross,nocheck -b -us -uc
	if [ $rc -eq 0 ]; then ok "dpkg-buildpackage -a arm64 -Pcross,nocheck -b builds the arm64 packages (${secs} s)"
	else notok "dpkg-buildpackage -a arm64: status $rc: $(tail_of "$work/arm64.log")"; fi
fi

# 3, 4: lintian, each tag it gives in the log.
for arch in amd64 arm64; do
	changes=$work/selfmon_${version}_$arch.changes
	if [ ! -f "$changes" ]; then notok "lintian on $arch: no $(basename "$changes")"; continue; fi
	lintian -I --pedantic "$changes" >"$work/lintian-$arch.txt" 2>&1
	grep -v '^running with root' "$work/lintian-$arch.txt" >"$work/lintian-$arch.tags"
	bad=$(grep -c '^[EW]:' "$work/lintian-$arch.tags")
	infos=$(grep -c '^[IPX]:' "$work/lintian-$arch.tags")
	sed "s/^/# lintian $arch: /" "$work/lintian-$arch.tags" | tee -a "$out"
	if [ "$bad" -eq 0 ]; then ok "lintian on the $arch packages: no error or warning ($infos infos or pedantic tags: docs/packaging.md)"
	else notok "lintian on the $arch packages: $bad errors or warnings: $(grep '^[EW]:' "$work/lintian-$arch.tags" | head -n 3 | tr '\n' ' ')"; fi
done

# 5: what each package holds (for each arch built).
missing=""
for arch in amd64 arm64; do
	case $arch in amd64) tr=x86_64-linux-gnu ;; arm64) tr=aarch64-linux-gnu ;; esac
	dev=$work/libselfmon-dev_${version}_$arch.deb cli=$work/selfmon_${version}_$arch.deb
	so=$work/libselfmon0_${version}_$arch.deb
	[ -f "$dev" ] || { missing="$missing $(basename "$dev")"; continue; }
	dpkg-deb -c "$dev" >"$work/$arch-dev.list"; dpkg-deb -c "$cli" >"$work/$arch-cli.list" 2>&1
	dpkg-deb -c "$so" >"$work/$arch-so.list" 2>&1
	grep -q " \./usr/lib/$tr/libselfmon\.so\.0 -> " "$work/$arch-so.list" ||
		missing="$missing $arch:libselfmon0:usr/lib/$tr/libselfmon.so.0"
	grep -q " \./usr/lib/$tr/libselfmon\.so -> " "$work/$arch-dev.list" ||
		missing="$missing $arch:libselfmon-dev:usr/lib/$tr/libselfmon.so"
	for f in usr/include/$tr/selfmon/selfmon.h usr/include/$tr/selfmon/arch.h usr/lib/$tr/libselfmon.a \
		usr/lib/$tr/libselfmon_pic.a \
		usr/lib/$tr/selfmon/libperf.a usr/lib/$tr/selfmon/libapi.a usr/lib/$tr/pkgconfig/selfmon.pc \
		usr/share/man/man3/selfmon_set__open.3.gz usr/share/doc/libselfmon-dev/examples/markers.c \
		usr/share/doc/libselfmon-dev/copyright; do
		grep -q " \./$f\$" "$work/$arch-dev.list" || missing="$missing $arch:libselfmon-dev:$f"
	done
	for f in usr/bin/selfmon usr/share/man/man1/selfmon.1.gz usr/share/man/man1/selfmon-probe.1.gz \
		usr/share/man/man7/selfmon.7.gz; do
		grep -q " \./$f\$" "$work/$arch-cli.list" || missing="$missing $arch:selfmon:$f"
	done
	grep -q "usr/lib/$tr/libperf\.a\$" "$work/$arch-dev.list" && missing="$missing $arch:(libperf.a outside usr/lib/$tr/selfmon)"
done
if [ -z "$missing" ]; then ok "each package holds its files: libselfmon0 libselfmon.so.0; libselfmon-dev the multiarch headers, the .so link, archives (libperf's in a folder of its own), selfmon.pc, man3, examples; selfmon the CLI, man1, man7"
else notok "the packages lack:$missing"; fi

# 6: dpkg --root into an empty root: amd64 both, and arm64 libselfmon-dev beside.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" && : >"$root/var/lib/dpkg/status"
dpkg="dpkg --root=$root --log=$work/dpkg.log --force-depends --force-script-chrootless"
debs="$work/libselfmon0_${version}_amd64.deb $work/libselfmon-dev_${version}_amd64.deb $work/selfmon_${version}_amd64.deb"
[ -f "$work/libselfmon-dev_${version}_arm64.deb" ] &&
	debs="$debs $work/libselfmon0_${version}_arm64.deb $work/libselfmon-dev_${version}_arm64.deb"
# shellcheck disable=SC2086
if $dpkg --add-architecture arm64 && $dpkg -i $debs >"$work/dpkg-root.log" 2>&1 &&
   $dpkg -l 'libselfmon0:*' 'libselfmon-dev:*' selfmon | grep -c '^ii' | grep -qx "$(echo $debs | wc -w)"; then
	ok "dpkg --root installs libselfmon0, libselfmon-dev and selfmon (amd64) and libselfmon0:arm64 and libselfmon-dev:arm64 beside them (Multi-Arch: same)"
else
	notok "dpkg --root -i $debs: $(tail_of "$work/dpkg-root.log")"
fi

# 7: a program built in that root through its selfmon.pc: the shipped example.
# shellcheck disable=SC2086 # $2: --static or nothing
pcflags() { # TRIPLET [--static]
	PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$root/usr/lib/$1/pkgconfig PKG_CONFIG_PATH='' \
		pkg-config --cflags --libs ${2:-} selfmon
}
ex=$root/usr/share/doc/libselfmon-dev/examples/markers.c
# The default link is the shared library: the program needs libselfmon.so.0, from the root.
# shellcheck disable=SC2086 # pkg-config's flags are words
if flags=$(pcflags x86_64-linux-gnu) && cc -O2 "$ex" $flags -o "$work/markers" >"$work/markers.log" 2>&1 &&
   readelf -d "$work/markers" | grep -q 'NEEDED.*\[libselfmon\.so\.0\]' &&
   SELFMON_EVENTS=task-clock LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu "$work/markers" >>"$work/markers.log" 2>&1 &&
   grep -Eq '^sum +10 ' "$work/markers.log"; then
	ok "the shipped examples/markers.c builds through the installed selfmon.pc ($flags), needs libselfmon.so.0 and counts 10 calls with it"
else
	notok "markers.c through the installed selfmon.pc: $(tail_of "$work/markers.log")"
fi

# 8: the installed CLI.
cli=$root/usr/bin/selfmon
if [ "$("$cli" --version 2>&1)" = "selfmon $version" ] && "$cli" probe >"$work/probe-amd64.txt" 2>&1;
   [ $? -le 1 ] && grep -q '^verdict: ' "$work/probe-amd64.txt"; then
	ok "the installed selfmon says its version ($version) and probes this machine ($(grep '^verdict: ' "$work/probe-amd64.txt"))"
else
	notok "the installed selfmon: $(tail_of "$work/probe-amd64.txt" 3)"
fi

# 9: an arm64 program linked through the arm64 package's selfmon.pc.
# shellcheck disable=SC2086 # pkg-config's flags are words
if [ ! -f "$root/usr/lib/aarch64-linux-gnu/pkgconfig/selfmon.pc" ]; then
	notok "an arm64 program through the arm64 selfmon.pc: libselfmon-dev:arm64 is not installed"
elif flags=$(pcflags aarch64-linux-gnu --static) &&
     aarch64-linux-gnu-gcc -O2 -static "$prog" $flags -o "$work/min-arm64" >"$work/min-arm64.log" 2>&1 &&
     aarch64-linux-gnu-readelf -h "$work/min-arm64" | grep -q AArch64; then
	ok "$(basename "$prog") links for arm64 through libselfmon-dev:arm64's selfmon.pc (-static)"
else
	notok "$(basename "$prog") for arm64 through its selfmon.pc: $(tail_of "$work/min-arm64.log")"
fi

# 10, 11: the board.
if [ -z "$board_run" ] || [ ! -x "$work/min-arm64" ] || [ ! -f "$work/selfmon_${version}_arm64.deb" ]; then
	skip "the arm64 package's selfmon probe on the emulated board" "no board-run, arm64 package or program"
	skip "the arm64 program counts exactly on the board" "no board-run, arm64 package or program"
else
	sys=$work/sysroot-arm64
	dpkg-deb -x "$work/selfmon_${version}_arm64.deb" "$sys"
	cp "$sys/usr/bin/selfmon" "$work/selfmon-arm64" && cp "$work/min-arm64" "$work/min"
	cat >"$work/on-board.sh" <<'EOF'
#!/bin/sh
# SPDX-License-Identifier: MIT
selfmon-arm64 probe; echo "probe-status $?"
min 1000; min 3000
EOF
	chmod +x "$work/on-board.sh"
	t0=$(date +%s)
	"$board_run" --vm "$vm" --sysroot /usr/aarch64-linux-gnu --out "$work/board-out" \
		--with "$work/selfmon-arm64" --with "$work/min" "$work/on-board.sh" >"$work/board.txt" 2>&1
	rc=$?
	tap "# the board run took $(($(date +%s) - t0)) s (status $rc)"
	if grep -q '^verdict: user-space counter reads are available' "$work/board.txt" &&
	   grep -q '^ *instructions  *user space' "$work/board.txt" && grep -qx 'probe-status 0' "$work/board.txt"; then
		ok "the arm64 package's selfmon probe on the board: instructions are read in user space (mrs)"
	else
		notok "selfmon probe on the board: $(grep -E 'verdict|instructions|probe-status|board-run' "$work/board.txt" | tr '\n' ' ' | cut -c1-600)"
	fi
	c1=$(sed -n 's/^instructions:u \([0-9]*\) user$/\1/p' "$work/board.txt" | sed -n 1p)
	c2=$(sed -n 's/^instructions:u \([0-9]*\) user$/\1/p' "$work/board.txt" | sed -n 2p)
	if [ -n "$c1" ] && [ -n "$c2" ] && [ $((c2 - c1)) -eq 4000 ]; then
		ok "the arm64 program, linked through the package, counts exactly on the board: $c1 and $c2 differ by 4000 (2000 rounds of 2 instructions)"
	else
		notok "the arm64 program on the board: '$c1' and '$c2' do not differ by 4000: $(grep -E '^instructions|^min' "$work/board.txt" | tr '\n' ' ')"
	fi
fi
tap "# check-deb took $(($(date +%s) - start)) s"
cd "$here" || true
