#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetch Debian's arm64 kernel Image and a static arm64 busybox for the QEMU
# test VM, and cache them so later runs download nothing (they still ask the
# local apt lists which kernel is current, which needs no network).
# Usage: scripts/vm/fetch-kernel.sh [OUTDIR] [LINE]   (default build/vm 6.1)
#   LINE: 6.1, Debian 12's own kernel (metapackage linux-image-arm64), or
#         6.12, bookworm's newer line (linux-image-6.12-arm64; the -unsigned
#         package of the same version holds the same Image, unsigned)
# Prints the Image path on stdout; the busybox lands at OUTDIR/busybox.
# Installs nothing: scripts/deps.sh vm arm64 does that.
# Cache paths are ours and plain ASCII, so ls is safe to glob with.
# shellcheck disable=SC2012
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

out=${1:-build/vm} line=${2:-6.1}
case "$line" in
6.1)  meta=linux-image-arm64 suffix="" ;;
6.12) meta=linux-image-6.12-arm64 suffix=-unsigned ;;
*) echo "fetch-kernel: unknown kernel line '$line' (6.1 or 6.12)" >&2; exit 2 ;;
esac
mkdir -p "$out"
out=$(cd "$out" && pwd)

log() { echo "fetch-kernel: $*" >&2; }

# The metapackage points at the current ABI (linux-image-6.1.0-NN-arm64,
# linux-image-6.12.NNN+deb12-arm64);
# resolving it here, rather than naming it, keeps us working across Debian
# point releases. apt-cache only reads the local lists, so this is offline.
resolve_pkg() { # -> "linux-image-6.1.0-NN-arm64 VERSION"
	apt-cache show --no-all-versions "$meta:arm64" 2>/dev/null |
		sed -n 's/^Depends:.*\(linux-image-[0-9][^ ,:]*-arm64\)\(:arm64\)\{0,1\} *(= *\([^)]*\)).*/\1 \3/p' |
		head -n 1
}

# apt-get download writes into cwd and, as root, drops to the _apt user to
# do it; a fresh mktemp dir is mode 0700 root and _apt could not write it,
# so open it up rather than disabling the sandbox.
download() { # PKG:ARCH -> path of the .deb in $tmp
	(cd "$tmp" && apt-get download -q "$1" </dev/null >&2)
	ls "$tmp"/"${1%%:*}"_*.deb
}

tmp=""
cleanup() { [ -z "$tmp" ] || rm -rf "$tmp"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done
mktmp() {
	[ -n "$tmp" ] && return 0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-vm.XXXXXX")
	chmod 0777 "$tmp"
}

# One apt-cache call: without a pkgcache.bin (Docker images drop it) each
# call re-parses the lists, about 1-2 s. Word splitting is the point here.
# shellcheck disable=SC2046
set -- $(resolve_pkg || true)
pkg=${1:+$1$suffix} ver=${2:-}
if [ -z "$pkg" ]; then
	# No apt lists (offline CI cache restore): fall back to a cached kernel
	# of the same line ("6.1." does not match "6.12.").
	img=$(ls "$out"/linux-image-"$line".*/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
	[ -n "$img" ] || { log "cannot resolve $meta:arm64 (apt-cache) and no $line kernel cached in $out"; exit 1; }
	log "apt-cache could not resolve the kernel package; using cached $img"
else
	# Key the cache by package name and version: the same ABI number can be
	# rebuilt, and a stale Image would silently change what we test on.
	key="$pkg${ver:+_$ver}"
	kdir="$out/$key"
	img=$(ls "$kdir"/vmlinuz-* 2>/dev/null | head -n 1 || true)
	if [ -z "$img" ]; then
		mktmp
		log "downloading $pkg:arm64 $ver"
		deb=$(download "$pkg:arm64")
		mkdir -p "$tmp/x"
		# Only ./boot is needed; the modules are 10x larger and the PMU
		# driver is built in.
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './boot/*'
		rm -rf "$kdir.part"
		mkdir -p "$kdir.part"
		cp "$tmp"/x/boot/* "$kdir.part/"
		# Rename into place last so an interrupted run never looks cached.
		rm -rf "$kdir"
		mv "$kdir.part" "$kdir"
		rm -f "$deb"
		img=$(ls "$kdir"/vmlinuz-* | head -n 1)
	fi
fi

if [ ! -x "$out/busybox" ]; then
	mktmp
	log "downloading busybox-static:arm64"
	deb=$(download busybox-static:arm64)
	mkdir -p "$tmp/bb"
	dpkg-deb -x "$deb" "$tmp/bb"
	cp "$tmp/bb/bin/busybox" "$out/busybox.part"
	chmod 0755 "$out/busybox.part"
	mv "$out/busybox.part" "$out/busybox"
fi

echo "$img"
