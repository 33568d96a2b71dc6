# SPDX-License-Identifier: MIT
# What the emulated board's initramfs (scripts/vm/mkinitramfs.sh) and the
# LAVA ramdisk (lava/mkramdisk.sh) share: a static busybox staged with the
# applets /init needs, the console node, the start of /init, and the cpio.
# Sourced (sh), not run.

# initramfs_stage STAGE BUSYBOX APPLET...: the directories, busybox, and a
# link per applet. The arm64 busybox cannot run here to list its applets, so
# /init adds the rest with --install at boot.
initramfs_stage() {
	_stage=$1 _busybox=$2
	shift 2
	mkdir -p "$_stage/bin" "$_stage/sbin" "$_stage/usr/bin" "$_stage/usr/sbin" \
		"$_stage/dev" "$_stage/proc" "$_stage/sys" "$_stage/tmp"
	cp "$_busybox" "$_stage/bin/busybox"
	chmod 0755 "$_stage/bin/busybox"
	for _a in "$@"; do
		ln -s busybox "$_stage/bin/$_a"
	done
	# The kernel opens /dev/console before running /init, and an initramfs
	# gets no automatic devtmpfs, so the node must be in the archive for
	# init's stdio to work. mknod needs root; without it /init reopens the
	# console after mounting devtmpfs instead (the kernel only warns).
	if [ "$(id -u)" -eq 0 ]; then
		mknod -m 0600 "$_stage/dev/console" c 5 1
	fi
}

# initramfs_init_start: the first lines of every /init after its header
# comment: devtmpfs, stdio on the console, the applets, the kernel's file
# systems and the environment.
initramfs_init_start() {
	cat <<'INIT'
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
# Reopen stdio on the console in case the archive had no /dev/console node.
[ -t 1 ] || exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp
INIT
}

# initramfs_pack STAGE OUT: the newc cpio of STAGE, gzipped when OUT ends in
# .gz; -R 0:0 so a non-root build still yields root-owned files in the guest.
initramfs_pack() {
	case "$2" in
	*.gz) (cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$2.part" ;;
	*)    (cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2.part" ;;
	esac
	mv "$2.part" "$2"
}
