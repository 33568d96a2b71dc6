#!/bin/bash
# SPDX-License-Identifier: MIT
# Boot the arm64 test VM and turn what the guest printed into an exit status.
# Usage: scripts/vm/run.sh [--cpu max|cortex-a72|NAME] [--smp N] [--timeout S]
#                          [--append "ARGS"] [--machine-opts STR] [--dtb FILE]
#                          IMAGE INITRAMFS LOGFILE
#   --machine-opts: appended to -M virt (e.g. gic-version=3)
#   --dtb: boot this device tree instead of QEMU's own; it must come from
#          the same -M/-cpu/-smp/-m (see mkdtb-biglittle.sh)
# Exit: the guest suite's status from its "SELFMON-VM-EXIT <rc>" line;
#       124 timeout, 125 kernel panic/oops, 126 guest never reported,
#       127 QEMU could not run. QEMU itself exits 0 whatever the guest did,
#       so its status alone proves nothing.
set -u

cpu=max smp=1 tmo=300 append="" mopts="" dtb=""
usage() { sed -n '3,8p' "$0" | sed 's/^# //' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--cpu) cpu=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--timeout) tmo=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--machine-opts) mopts=${2?}; shift 2 ;;
	--dtb) dtb=${2:?}; shift 2 ;;
	--cpu=*) cpu=${1#*=}; shift ;;
	--smp=*) smp=${1#*=}; shift ;;
	--timeout=*) tmo=${1#*=}; shift ;;
	--append=*) append=${1#*=}; shift ;;
	--machine-opts=*) mopts=${1#*=}; shift ;;
	--dtb=*) dtb=${1#*=}; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) echo "vm: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 3 ] || usage
image=$1 initrd=$2 log=$3
for f in "$image" "$initrd" ${dtb:+"$dtb"}; do
	[ -r "$f" ] || { echo "vm: cannot read $f" >&2; exit 127; }
done
command -v qemu-system-aarch64 >/dev/null || { echo "vm: qemu-system-aarch64 not found (scripts/deps.sh vm)" >&2; exit 127; }

# "max" emulates everything QEMU knows, pointer auth included; the
# IMPDEF PAuth algorithm is far cheaper to emulate than QARMA and the
# guest cannot tell the difference.
case "$cpu" in
max) cpuopt="max,pauth-impdef=on" ;;
*) cpuopt=$cpu ;;
esac

# -icount shift=0: one guest instruction per virtual ns and, crucially,
#   QEMU's PMU only counts INST_RETIRED with icount; without it the event
#   reads 0 and nothing complains. It also makes the counts deterministic.
# quiet: keep the kernel's chatter out of the test output (panics and
#   oopses are still printed at that level).
# panic=-1 + -no-reboot: a panic (e.g. /init exiting) ends QEMU at once
#   instead of hanging until the timeout.
# randomize_kstack_offset=off: per-syscall stack randomisation costs a
#   varying handful of kernel instructions; keep syscalls repeatable.
cmdline="console=ttyAMA0 quiet panic=-1 randomize_kstack_offset=off${append:+ $append}"

mkdir -p "$(dirname "$log")"
start=$(date +%s.%N)
# stdin from /dev/null: -nographic would otherwise put a tty into raw mode
# and let stray keystrokes reach the guest console.
timeout --kill-after=10 "$tmo" qemu-system-aarch64 \
	-M "virt${mopts:+,$mopts}" -cpu "$cpuopt" -smp "$smp" -m 1G \
	-icount shift=0 -nographic -no-reboot -nic none \
	-kernel "$image" -initrd "$initrd" -append "$cmdline" \
	${dtb:+-dtb "$dtb"} \
	</dev/null 2>&1 | tee "$log"
qrc=${PIPESTATUS[0]}
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

# The serial console ends lines with \r\n and kernel messages may land in
# the middle of a guest line, so match the marker anywhere, last one wins.
marker=$(tr -d '\r' < "$log" | grep -a -o 'SELFMON-VM-EXIT [0-9]\{1,\}' | tail -n 1)

if grep -a -q 'Kernel panic - not syncing' "$log"; then
	echo "vm: kernel panic (see $log)" >&2
	grep -a -m 1 'Kernel panic - not syncing' "$log" | tr -d '\r' >&2
	exit 125
fi
# An oops in a test's syscall kills that process, and the suite may still
# "pass" around it; a kernel bug is never a pass.
if grep -a -q -E 'Internal error:|Unable to handle kernel|BUG:|Oops' "$log"; then
	echo "vm: kernel oops/BUG during the run (see $log)" >&2
	exit 125
fi
if [ -z "$marker" ]; then
	case "$qrc" in
	124|137) echo "vm: guest never reported (timeout after $tmo s)" >&2; exit 124 ;;
	0) echo "vm: guest never reported (QEMU exited after ${secs} s without a SELFMON-VM-EXIT line)" >&2; exit 126 ;;
	*) echo "vm: QEMU failed (exit $qrc) before the guest reported" >&2; exit 127 ;;
	esac
fi
rc=${marker#SELFMON-VM-EXIT }
if [ "$rc" -eq 0 ]; then
	echo "vm: guest suite passed (${secs} s, cpu $cpu)" >&2
else
	echo "vm: guest suite FAILED with exit $rc (${secs} s, cpu $cpu)" >&2
fi
[ "$rc" -le 255 ] || rc=1
exit "$rc"
