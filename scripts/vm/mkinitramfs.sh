#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the initramfs the test VM boots: static busybox, an /init that runs
# the bundle's run_tests.sh and reports its exit status, and the bundle.
# Usage: scripts/vm/mkinitramfs.sh BUNDLE_DIR BUSYBOX OUT.cpio[.gz]
set -eu
# A CDPATH from the environment would make `cd` print, and go elsewhere.
unset CDPATH
. "$(dirname "$0")/initramfs.sh"

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

initramfs_stage "$stage" "$busybox" sh mount mkdir cat echo poweroff sysctl sync ls uname
mkdir -p "$stage/bundle"

{
	cat <<'INIT'
#!/bin/sh
# PID 1 of the selfmon test VM. If it ever exits the kernel panics, and
# panic=-1 with -no-reboot turns that into a QEMU exit the host flags.
INIT
	initramfs_init_start
	cat <<'INIT'
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
} >"$stage/init"
chmod 0755 "$stage/init"

cp -R "$bundle/." "$stage/bundle/"

initramfs_pack "$stage" "$out"
