#!/bin/sh
# SPDX-License-Identifier: MIT
# The regression gate on the emulated board (docs/compare.md): the bench
# kernels run RERUNS + 1 times under -icount shift=0, one vCPU; each rerun is
# compared with the first at instructions=+0%, then a run of add_chain with
# 0.1% more iterations (SELFMON_TEST_SLOWDOWN, a test knob) must be caught.
# Usage: scripts/gate-board.sh ARM64_SELFMON [RERUNS]   (after scripts/deps.sh board)
#   ARM64_SELFMON: the arm64 CLI, e.g. build/arm64-vm/selfmon
#   (make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- O=build/arm64-vm qemu_arm64_defconfig all)
set -eu
selfmon=${1:?usage: gate-board.sh ARM64_SELFMON [RERUNS]}
reruns=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
vm=${VMDIR:-$here/../build/vm}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT INT TERM

mkdir -p "$stage/bin"
cp "$selfmon" "$stage/selfmon"
# The guest's run_tests.sh: what the board runs, with TAP at the end for /init.
cat >"$stage/run_tests.sh" <<GUEST
#!/bin/sh
cd "\$(dirname "\$0")"
echo 1 >/proc/sys/kernel/perf_user_access
# A fixed iteration count: per-iteration counts are then exact run to run.
F="--format json --repetitions 9 --iterations 1000"
K='^(add_|load_|branch_|memcpy_|memset_|empty)'
./selfmon bench \$F --filter "\$K" --out /tmp/base.json 2>/dev/null || exit 1
alarms=0 errors=0 i=0
while [ \$i -lt $reruns ]; do
	./selfmon bench \$F --filter "\$K" --out /tmp/r.json 2>/dev/null
	./selfmon compare --metric instructions --limit instructions=+0% /tmp/base.json /tmp/r.json >/tmp/c.txt 2>&1
	rc=\$?
	[ \$rc = 1 ] && { alarms=\$((alarms + 1)); grep REGRESSION /tmp/c.txt; }
	[ \$rc = 2 ] && { errors=\$((errors + 1)); cat /tmp/c.txt; }
	i=\$((i + 1))
done
exact=\$(grep -c 'exact:' /tmp/c.txt)
echo "board: \$alarms alarms and \$errors errors in $reruns reruns at instructions=+0% (\$exact benchmarks exact)"
SELFMON_TEST_SLOWDOWN=add_chain=0.1 ./selfmon bench \$F --filter '^add_chain\$' --out /tmp/slow.json 2>/dev/null
./selfmon compare --metric instructions --limit instructions=+0% --filter '^add_chain\$' /tmp/base.json /tmp/slow.json
slow=\$?
echo "board: 0.1% more iterations of add_chain: compare exit \$slow"
echo "1..2"
[ \$alarms = 0 ] && [ \$errors = 0 ] && echo "ok 1 - no alarm in $reruns reruns" || echo "not ok 1 - \$alarms alarms, \$errors errors"
[ \$slow = 1 ] && echo "ok 2 - 0.1% slowdown caught" || echo "not ok 2 - 0.1% slowdown not caught (exit \$slow)"
GUEST
chmod +x "$stage/run_tests.sh"
image=$("$here/vm/fetch-kernel.sh" "$vm")
"$here/vm/mkinitramfs.sh" "$stage" "$vm/busybox" "$vm/gate.cpio"
rc=0
"$here/vm/run.sh" --cpu max --timeout 590 --append "selfmon.expect_user_read=1" "$image" "$vm/gate.cpio" \
	"$vm/gate.log" >/dev/null 2>&1 || rc=$?
grep -a '^board: \|^ok \|^not ok ' "$vm/gate.log" || true
grep -aq '^not ok ' "$vm/gate.log" && rc=1
exit $rc
