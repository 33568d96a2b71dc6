#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the ramdisk LAVA boots for selfmon: static busybox and an /init that
# mounts the kernel's file systems and leaves a root shell on the console
# with the prompt the jobs wait for ("selfmon-board# "). It holds no bundle:
# LAVA adds the bundle (an overlay of selfmon-tests-arm64.tar.gz) and its own
# test-shell overlay into the cpio at deploy time (lava/jobs/*.yaml).
# Usage: lava/mkramdisk.sh BUSYBOX OUT.cpio.gz
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH
. "$(dirname "$0")/../scripts/vm/initramfs.sh"

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

# LAVA's scripts start with #!/bin/sh; /init needs sh and mount before --install.
initramfs_stage "$stage" "$busybox" sh mount
mkdir -p "$stage/root"

{
	cat <<'INIT'
#!/bin/sh
# PID 1 of the LAVA ramdisk: a shell on the console, for lava-test-shell.
INIT
	initramfs_init_start
	cat <<'INIT'
export PS1='selfmon-board# '
cd /root
echo "selfmon-lava: shell on $(uname -r) $(uname -m)"
# cttyhack gives the shell the console as its controlling tty, so that
# LAVA's interrupts reach the command running in it. If the shell ever
# exits, init exits and the kernel panics: the job fails, never hangs.
exec setsid cttyhack sh
INIT
} >"$stage/init"
chmod 0755 "$stage/init"

initramfs_pack "$stage" "$out"
