#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the device tree of an emulated big.LITTLE board for the test VM:
# QEMU's own `virt` tree (GICv3) with its one generic PMU replaced by two,
# a Cortex-A53 PMU on the LITTLE half of the CPUs and a Cortex-A72 PMU on
# the big half, each bound to its CPUs through a GICv3 PPI partition, as
# rockchip/rk3399.dtsi does. The CPU nodes get RK3399's capacity-dmips-mhz
# (485 LITTLE, 1024 big) and a two-cluster cpu-map, so the kernel exposes
# different /sys/devices/system/cpu/cpu*/cpu_capacity values, as a real
# board does.
# Usage: scripts/vm/mkdtb-biglittle.sh SMP OUT.dtb    (SMP: 2 or 4)
#   CPUs 0..SMP/2-1 are LITTLE (armv8_cortex_a53), the rest big
#   (armv8_cortex_a72). Boot it with the SAME machine:
#     scripts/vm/run.sh --smp SMP --machine-opts gic-version=3 --dtb OUT.dtb
#   (-cpu max; -m 1G, run.sh's, since QEMU writes the memory node from -m).
# QEMU's CPU phandles depend on -smp and a GICv3 tree on a GICv2 machine
# hangs before the console is up, so the tree is dumped from exactly that
# machine rather than written by hand. Callers cache OUT.dtb.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 SMP OUT.dtb   (SMP 2 or 4)" >&2; exit 2; }
smp=$1 out=$2
case "$smp" in
2|4) ;;
*) echo "mkdtb-biglittle: SMP must be 2 or 4, not '$smp'" >&2; exit 2 ;;
esac
for t in qemu-system-aarch64 dtc python3; do
	command -v "$t" >/dev/null || { echo "mkdtb-biglittle: $t not found (scripts/deps.sh vm)" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-dtb.XXXXXX")
cleanup() { rm -rf "$tmp"; }
# dash and busybox ash run no EXIT trap on death by a signal, and a trapped
# signal alone would let the script go on: clean up, then die of the signal.
trap cleanup EXIT
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM HUP; do trap "cleanup; trap - EXIT $sig; kill -$sig \$\$" "$sig"; done

# Must match run.sh's machine: -M virt,gic-version=3, -cpu max, -m 1G.
qemu-system-aarch64 -M "virt,gic-version=3,dumpdtb=$tmp/virt.dtb" \
	-cpu max,pauth-impdef=on -smp "$smp" -m 1G -nographic -nic none \
	</dev/null >"$tmp/qemu.log" 2>&1 || {
	cat "$tmp/qemu.log" >&2
	echo "mkdtb-biglittle: qemu could not dump its device tree" >&2
	exit 1
}
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"

python3 - "$smp" "$tmp/virt.dts" "$tmp/board.dts" <<'PY'
import re, sys

smp = int(sys.argv[1])
src = open(sys.argv[2]).read().split("\n")
little = list(range(smp // 2))
big = list(range(smp // 2, smp))

def die(msg):
    sys.stderr.write("mkdtb-biglittle: %s\n" % msg)
    sys.exit(1)

NODE = re.compile(r"^(\s*)(?:[\w-]+:\s*)?([\w,.+@-]+|/) \{$")
PROP = re.compile(r"^(\s*)([#\w,.+-]+) = (.*);$")
END = re.compile(r"^\s*\};$")

def cells(val):
    m = re.fullmatch(r"<([^<>]*)>", val.strip())
    if not m:
        die("cannot parse cell list %r" % val)
    return m.group(1).split()

def num(tok):
    return int(tok, 0)

# Pass 1: the tree's paths, properties and phandles.
props = {}          # path -> {name: value}
phandle = {}        # phandle -> path
stack = []
for line in src:
    m = NODE.match(line)
    if m:
        name = m.group(2)
        stack.append("" if name == "/" else name)
        props["/".join(stack)] = {}
        continue
    if END.match(line):
        stack.pop()
        continue
    m = PROP.match(line)
    if m and stack:
        path = "/".join(stack)
        props[path][m.group(2)] = m.group(3)
        if m.group(2) == "phandle":
            phandle[num(cells(m.group(3))[0])] = path

gics = [p for p, d in props.items() if d.get("compatible") == '"arm,gic-v3"']
if len(gics) != 1:
    die("expected one arm,gic-v3 node, found %d (is this -M virt,gic-version=3?)" % len(gics))
gic = gics[0]
if "phandle" not in props[gic] or props[gic].get("#interrupt-cells") != "<0x03>":
    die("the GICv3 node %s has no phandle or not 3 interrupt cells" % gic)
gic_ph = num(cells(props[gic]["phandle"])[0])
gic_addr_cells = num(cells(props[gic].get("#address-cells", "<0x00>"))[0])

cpu_nodes = {}      # logical cpu (reg) -> path
for p, d in props.items():
    if re.fullmatch(r"/cpus/cpu@[0-9a-f]+", p) and d.get("device_type") == '"cpu"':
        cpu_nodes[num(cells(d["reg"])[-1])] = p
if sorted(cpu_nodes) != list(range(smp)):
    die("expected cpu@0..cpu@%d, found %s" % (smp - 1, sorted(cpu_nodes)))
pmus = [p for p, d in props.items() if d.get("compatible") == '"arm,armv8-pmuv3"']
if len(pmus) != 1:
    die("expected one arm,armv8-pmuv3 node, found %d" % len(pmus))

def parent_of(path):
    return path.rsplit("/", 1)[0]

def irq_parent(path):
    """The phandle an interrupts property of this node resolves to."""
    while True:
        d = props.get(path, {})
        if "interrupt-parent" in d:
            return num(cells(d["interrupt-parent"])[0])
        if "/" not in path:
            return None
        path = parent_of(path)

def widen(cl, stride):
    """Append a 0 4th cell to each 3-cell GIC specifier."""
    if len(cl) % stride:
        die("interrupt list of %d cells is not a multiple of %d" % (len(cl), stride))
    res = []
    for i in range(0, len(cl), stride):
        res += cl[i:i + stride] + ["0x00"]
    return res

def irq_map(path, val):
    """interrupt-map: child unit address + child specifier + parent
    phandle + parent unit address + parent specifier; widen GIC entries."""
    d = props[path]
    ca = num(cells(d["#address-cells"])[0])
    ci = num(cells(d["#interrupt-cells"])[0])
    cl = cells(val)
    res, i = [], 0
    while i < len(cl):
        head = cl[i:i + ca + ci]
        ph = num(cl[i + ca + ci])
        if ph != gic_ph:
            die("%s: interrupt-map entry to phandle %#x, not the GIC" % (path, ph))
        n = gic_addr_cells + 3
        spec = cl[i + ca + ci + 1:i + ca + ci + 1 + n]
        if len(spec) != n:
            die("%s: truncated interrupt-map" % path)
        res += head + [cl[i + ca + ci]] + spec + ["0x00"]
        i += ca + ci + 1 + n
    return res

def label(cpu):
    return "cpu%d" % cpu

def refs(cpus):
    return " ".join("&" + label(c) for c in cpus)

# Pass 2: rewrite.
out = []
stack = []
skip = 0            # depth inside a node being dropped
for line in src:
    m = NODE.match(line)
    if m:
        ind, name = m.group(1), m.group(2)
        stack.append("" if name == "/" else name)
        path = "/".join(stack)
        if skip or path in pmus or path.endswith("/cpu-map"):
            skip += 1
            if skip == 1 and path in pmus:
                out.append(ind + "pmu-a53 {")
                out.append(ind + '\tcompatible = "arm,cortex-a53-pmu";')
                out.append(ind + "\tinterrupts = <1 7 4 &part0>;")
                out.append(ind + "};")
                out.append("")
                out.append(ind + "pmu-a72 {")
                out.append(ind + '\tcompatible = "arm,cortex-a72-pmu";')
                out.append(ind + "\tinterrupts = <1 7 4 &part1>;")
                out.append(ind + "};")
            elif skip == 1:
                # Two clusters, LITTLE first, as on RK3399.
                out.append(ind + "cpu-map {")
                out.append(ind + "\tsocket0 {")
                for k, grp in enumerate((little, big)):
                    out.append(ind + "\t\tcluster%d {" % k)
                    for j, c in enumerate(grp):
                        out.append(ind + "\t\t\tcore%d {" % j)
                        out.append(ind + "\t\t\t\tcpu = <&%s>;" % label(c))
                        out.append(ind + "\t\t\t};")
                    out.append(ind + "\t\t};")
                out.append(ind + "\t};")
                out.append(ind + "};")
            continue
        cpu = [c for c, p in cpu_nodes.items() if p == path]
        if cpu:
            c = cpu[0]
            out.append("%s%s: %s {" % (ind, label(c), name))
            out.append(ind + '\tcapacity-dmips-mhz = <%d>;' % (485 if c in little else 1024))
            continue
        out.append(line)
        continue
    if END.match(line):
        path = "/".join(stack)
        stack.pop()
        if skip:
            skip -= 1
            continue
        if path == gic:
            ind = re.match(r"^(\s*)", line).group(1) + "\t"
            out.append("")
            out.append(ind + "ppi-partitions {")
            out.append(ind + "\tpart0: interrupt-partition-0 {")
            out.append(ind + "\t\taffinity = <%s>;" % refs(little))
            out.append(ind + "\t};")
            out.append("")
            out.append(ind + "\tpart1: interrupt-partition-1 {")
            out.append(ind + "\t\taffinity = <%s>;" % refs(big))
            out.append(ind + "\t};")
            out.append(ind + "};")
        out.append(line)
        continue
    if skip:
        continue
    m = PROP.match(line)
    if m and stack:
        ind, name, val = m.groups()
        path = "/".join(stack)
        if name == "interrupts-extended":
            die("%s: interrupts-extended is not handled" % path)
        if name == "interrupts" and irq_parent(path) == gic_ph:
            line = "%s%s = <%s>;" % (ind, name, " ".join(widen(cells(val), 3)))
        elif name == "interrupt-map":
            line = "%s%s = <%s>;" % (ind, name, " ".join(irq_map(path, val)))
        elif path == gic and name == "#interrupt-cells":
            line = "%s%s = <0x04>;" % (ind, name)
        elif path in cpu_nodes.values() and name == "compatible":
            c = [k for k, p in cpu_nodes.items() if p == path][0]
            line = '%s%s = "arm,cortex-%s";' % (ind, name, "a53" if c in little else "a72")
        elif name in ("rng-seed", "kaslr-seed"):
            # QEMU draws these afresh on every dump; fix them so the tree
            # (and so the boot) is the same every time.
            n = len(cells(val))
            line = "%s%s = <%s>;" % (ind, name, " ".join(["0x5e1f0000"] * n))
    out.append(line)

if stack:
    die("unbalanced braces in the decompiled tree")
open(sys.argv[3], "w").write("\n".join(out))
PY

dtc -q -I dts -O dtb -o "$out.part" "$tmp/board.dts"
mv "$out.part" "$out"
