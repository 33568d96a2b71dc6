#!/bin/sh
# Build the ramdisk LAVA boots for selfmon: static busybox and an /init that
# mounts the kernel's file systems and leaves a root shell on the console
# with the prompt the jobs wait for ("selfmon-board# "). It holds no bundle:
# LAVA adds the bundle (an overlay of selfmon-tests-arm64.tar.gz) and its own
# test-shell overlay into the cpio at deploy time (lava/jobs/*.yaml).
# Usage: lava/mkramdisk.sh BUSYBOX OUT.cpio.gz
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH

[ $# -eq 2 ] || { echo "usage: $0 BUSYBOX OUT.cpio.gz" >&2; exit 2; }
busybox=$1 out=$2
[ -f "$busybox" ] || { echo "mkramdisk: no busybox at '$busybox' (scripts/vm/fetch-kernel.sh fetches it)" >&2; exit 1; }

stage=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-ramdisk.XXXXXX")
cleanup() { rm -rf "$stage" "$out.part"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/dev" "$stage/proc" "$stage/sys" "$stage/tmp" "$stage/root"
cp "$busybox" "$stage/bin/busybox"
chmod 0755 "$stage/bin/busybox"
# The arm64 busybox cannot run here to list its applets: link what /init
# uses before --install; LAVA's scripts start with #!/bin/sh.
for a in sh mount; do ln -s busybox "$stage/bin/$a"; done
# As in scripts/vm/mkinitramfs.sh: the console node lets init's stdio work.
if [ "$(id -u)" -eq 0 ]; then mknod -m 0600 "$stage/dev/console" c 5 1; fi

cat >"$stage/init" <<'INIT'
#!/bin/sh
# PID 1 of the LAVA ramdisk: a shell on the console, for lava-test-shell.
/bin/busybox mount -t devtmpfs devtmpfs /dev 2>/dev/null
[ -t 1 ] || exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp
export PS1='selfmon-board# '
cd /root
echo "selfmon-lava: shell on $(uname -r) $(uname -m)"
# cttyhack gives the shell the console as its controlling tty, so that
# LAVA's interrupts reach the command running in it. If the shell ever
# exits, init exits and the kernel panics: the job fails, never hangs.
exec setsid cttyhack sh
INIT
chmod 0755 "$stage/init"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out.part"
mv "$out.part" "$out"
