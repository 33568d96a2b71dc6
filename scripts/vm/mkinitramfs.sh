#!/bin/sh
# Build the initramfs the test VM boots: static busybox, an /init that runs
# the bundle's run_tests.sh and reports its exit status, and the bundle.
# Usage: scripts/vm/mkinitramfs.sh BUNDLE_DIR BUSYBOX OUT.cpio[.gz]
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

[ $# -eq 3 ] || { echo "usage: $0 BUNDLE_DIR BUSYBOX OUT.cpio[.gz]" >&2; exit 2; }
bundle=$1 busybox=$2 out=$3
[ -x "$bundle/run_tests.sh" ] || { echo "mkinitramfs: $bundle/run_tests.sh missing or not executable" >&2; exit 1; }
[ -f "$busybox" ] || { echo "mkinitramfs: no busybox at $busybox (run scripts/vm/fetch-kernel.sh)" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-initramfs.XXXXXX")
cleanup() { rm -rf "$stage" "$out.part"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp" "$stage/bundle"
cp "$busybox" "$stage/bin/busybox"
chmod 0755 "$stage/bin/busybox"
# We cannot run the arm64 busybox here to ask for its applet list, so link
# the ones /init itself uses; /init adds the rest with --install at boot.
for a in sh mount mkdir cat echo poweroff sysctl sync ls uname; do
	ln -s busybox "$stage/bin/$a"
done

# The kernel opens /dev/console before running /init, and an initramfs gets
# no automatic devtmpfs, so the node must be in the archive for init's
# stdio to work. mknod needs root; without it /init reopens the console
# after mounting devtmpfs instead (the kernel only warns).
if [ "$(id -u)" -eq 0 ]; then
	mknod -m 0600 "$stage/dev/console" c 5 1
fi

cat > "$stage/init" <<'INIT'
#!/bin/sh
# PID 1 of the selfmon test VM. If it ever exits the kernel panics, and
# panic=-1 with -no-reboot turns that into a QEMU exit the host flags.
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
# Reopen stdio on the console in case the archive had no /dev/console node.
[ -t 1 ] || exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp
cd /bundle
./run_tests.sh
rc=$?
# The host script keys on this exact line; nothing else counts as a result.
echo "SELFMON-VM-EXIT $rc"
sync
poweroff -f
# poweroff -f should not return; sysrq 'o' is the fallback.
echo o > /proc/sysrq-trigger
sleep 10
INIT
chmod 0755 "$stage/init"

cp -R "$bundle/." "$stage/bundle/"

# -R 0:0 so a non-root build still yields root-owned files in the guest.
case "$out" in
*.gz) (cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$out.part" ;;
*)    (cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out.part" ;;
esac
mv "$out.part" "$out"
