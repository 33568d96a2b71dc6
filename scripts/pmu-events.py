#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn the kernel's pmu-events JSON (tools/perf/pmu-events/arch/<arch>/) into
compact C tables for selfmon (core/pmu_events.h describes them).

  pmu-events.py --arch arm64|x86 --src DIR --select SEL [--no-desc]
                [--symbol NAME] -o OUT.c

SEL: none | all | vendor:NAME | list:FOLDER[,FOLDER...] (mapfile.csv folders,
"arm/cortex-a53", "amdzen3"). With --stats, print what was taken and what was
left out (uncore events, entries with no encoding) on stderr.

The kernel's own generator (jevents.py) writes perf's internal structures;
this one writes a string pool and arrays of offsets: one copy of each string,
one copy of each event shared by all the cores that have it.
"""
import argparse
import csv
import json
import os
import re
import sys

# arm64: the architecture's standard events and metrics, which a core's
# files name with "ArchStdEvent" (and may amend); sbsa.json's metrics are
# also the common set a core with no entry in mapfile.csv falls back to.
ARM64_STD = ("common-and-microarch.json", "recommended.json", "sbsa.json")
# x86 units that count on the core PMU (hybrid parts name theirs).
X86_CORE_UNITS = ("", "cpu", "cpu_core", "cpu_atom")
# The generic set: metrics over the kernel's generic hardware events
# (perf_event_open(2), PERF_TYPE_HARDWARE), which every core PMU driver maps
# to its own events, so that the same names serve every core of both
# architectures. A name the architecture's common set already defines (arm64:
# ipc, branch_misprediction_ratio over the standard events) keeps that
# definition; a core's own metric of the same name replaces either.
GENERIC = (
    ("ipc", "instructions / cycles", "General;Generic", "1per cycle",
     "Instructions retired per cycle (generic events: instructions / cycles)"),
    ("cpi", "cycles / instructions", "General;Generic", "1per instruction",
     "Cycles per instruction retired (generic events: cycles / instructions)"),
    ("branch_misprediction_ratio", "d_ratio(branch\\-misses, branch\\-instructions)",
     "Miss_Ratio;Generic", "1per branch",
     "Mispredicted branches per branch (generic events: branch-misses / branch-instructions)"),
    ("cache_miss_ratio", "d_ratio(cache\\-misses, cache\\-references)", "Miss_Ratio;Generic",
     "1per cache access",
     "Cache misses per cache reference, of the cache the kernel's driver maps the generic "
     "events to (x86: last level; arm64: L1D)"),
)


def die(msg):
    sys.stderr.write("pmu-events: %s\n" % msg)
    sys.exit(1)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        die("%s: %s" % (path, e))
    return [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []


def read_mapfile(src):
    rows = []
    with open(os.path.join(src, "mapfile.csv"), encoding="utf-8") as f:
        for row in csv.reader(line for line in f if not line.startswith("#")):
            if len(row) < 4 or row[0] == "Family-model" or row[3].strip() != "core":
                continue
            rows.append((row[0].strip(), row[2].strip()))
    return rows


def num(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def x86_encoding(e):
    """perf's terms for an x86 event, as its jevents.py spells them."""
    # No EventCode: a fixed counter's pseudo-encoding (event 0, umask N), as jevents.py has it.
    code = num(str(e.get("EventCode", "0")).split(",")[0])
    if "ExtSel" in e:
        code |= num(e["ExtSel"]) << 8
    terms = ["event=%#x" % code]
    if num(e.get("UMask", "0")):
        terms.append("umask=%#x" % num(e["UMask"]))
    for key, term in (("CounterMask", "cmask"), ("EdgeDetect", "edge"), ("Invert", "inv"),
                      ("AnyThread", "any")):
        if key in e and num(e[key]):
            terms.append("%s=%#x" % (term, num(e[key])))
    msr = {0x1a6: "offcore_rsp", 0x1a7: "offcore_rsp", 0x3f6: "ldlat", 0x3f7: "frontend"}
    if "MSRIndex" in e and "MSRValue" in e:
        idx = num(str(e["MSRIndex"]).split(",")[0])
        if idx in msr and num(e["MSRValue"]):
            terms.append("%s=%#x" % (msr[idx], num(e["MSRValue"])))
    return ",".join(terms)


class Tables:
    def __init__(self, desc):
        self.desc = desc
        self.pool = {"": 0}
        self.pool_s = [""]
        self.pool_len = 1
        self.dpool = {"": 0}
        self.dpool_s = [""]
        self.dpool_len = 1
        self.events = {}    # (name, enc, pmu, desc) -> index
        self.metrics = {}   # (name, expr, groups, unit, desc, pmu) -> index
        self.ev_idx = []
        self.m_idx = []
        self.cores = []     # (name, ev_first, nr_ev, m_first, nr_m)
        self.maps = []
        self.skipped = {}

    def s(self, text):
        if text not in self.pool:
            self.pool[text] = self.pool_len
            self.pool_s.append(text)
            self.pool_len += len(text.encode()) + 1
        return self.pool[text]

    def d(self, text):
        if not self.desc:
            return 0
        text = text.split("\n")[0]
        if text not in self.dpool:
            self.dpool[text] = self.dpool_len
            self.dpool_s.append(text)
            self.dpool_len += len(text.encode()) + 1
        return self.dpool[text]

    def add_core(self, name, events, metrics):
        first_e, first_m = len(self.ev_idx), len(self.m_idx)
        for ev in sorted(events, key=lambda e: e[0].lower()):
            key = (self.s(ev[0]), self.s(ev[1]), self.s(ev[2]), self.d(ev[3]))
            self.ev_idx.append(self.events.setdefault(key, len(self.events)))
        for m in sorted(metrics, key=lambda m: m[0].lower()):
            key = (self.s(m[0]), self.s(m[1]), self.s(m[2]), self.s(m[3]), self.d(m[4]), self.s(m[5]))
            self.m_idx.append(self.metrics.setdefault(key, len(self.metrics)))
        self.cores.append((self.s(name), first_e, len(self.ev_idx) - first_e,
                           first_m, len(self.m_idx) - first_m))
        return len(self.cores) - 1


def metric_of(m):
    return (m["MetricName"], " ".join(m["MetricExpr"].split()), m.get("MetricGroup", ""),
            m.get("ScaleUnit", ""), m.get("BriefDescription", ""), m.get("Unit", ""))


def core_files(src, folder):
    d = os.path.join(src, folder)
    if not os.path.isdir(d):
        die("no folder '%s' in %s (see its mapfile.csv)" % (folder, src))
    return [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".json")]


def arm64_std(src):
    evs, mets = {}, {}
    for f in ARM64_STD:
        for e in load(os.path.join(src, f)):
            if "MetricName" in e:
                mets[e["MetricName"].lower()] = e
            elif "EventName" in e:
                evs[e["EventName"].upper()] = e
    return evs, mets


def arm64_core(src, folder, std, skipped):
    sevs, smets = std
    events, metrics = {}, {}
    for path in core_files(src, folder):
        for e in load(path):
            if "ArchStdEvent" in e:
                base = smets.get(e["ArchStdEvent"].lower()) or sevs.get(e["ArchStdEvent"].upper())
                if base is None:
                    skipped["unknown ArchStdEvent"] = skipped.get("unknown ArchStdEvent", 0) + 1
                    continue
                e = dict(base, **{k: v for k, v in e.items() if k != "ArchStdEvent"})
            if "MetricExpr" in e:
                metrics[e["MetricName"]] = metric_of(e)
            elif "EventCode" in e:
                events[e["EventName"]] = (e["EventName"], "event=%#x" % num(e["EventCode"]), "",
                                          e.get("BriefDescription", ""))
            else:
                skipped["event with no EventCode"] = skipped.get("event with no EventCode", 0) + 1
    return events.values(), metrics.values()


def bare(expr):
    expr = " ".join(expr.split())
    while expr.startswith("(") and expr.endswith(")") and expr.count("(") == 1:
        expr = expr[1:-1]
    return expr


def arm64_common(src, rows, std):
    """The common set: the standard events, sbsa's metrics, and each metric
    that every core of the tree that defines it defines alike, in two cores
    or more, over standard events only (ipc: INST_RETIRED / CPU_CYCLES)."""
    sevs, smets = std
    events = [(e["EventName"], "event=%#x" % num(e["EventCode"]), "", e.get("BriefDescription", ""))
              for e in sevs.values() if "EventCode" in e]
    metrics = [metric_of(m) for m in smets.values()]
    seen = {}
    for folder in sorted({f for _, f in rows}):
        for m in arm64_core(src, folder, std, {})[1]:
            seen.setdefault(m[0], []).append(m)
    for name, defs in sorted(seen.items()):
        exprs = {bare(m[1]) for m in defs}
        if name.lower() in smets or len(defs) < 2 or len(exprs) != 1:
            continue
        words = {w for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", exprs.pop())}
        if all(w.upper() in sevs and "EventCode" in sevs[w.upper()] for w in words):
            metrics.append(defs[0])
    return events, metrics


def with_generic(metrics):
    """@metrics (metric_of() tuples) and the generic set's they do not name."""
    have = {m[0].lower() for m in metrics}
    return list(metrics) + [(name, expr, groups, unit, desc, "")
                            for name, expr, groups, unit, desc in GENERIC if name not in have]


def x86_core(src, folder, skipped):
    events, metrics = {}, {}
    for path in core_files(src, folder):
        for e in load(path):
            if "MetricExpr" in e:
                metrics[(e["MetricName"], e.get("Unit", ""))] = metric_of(e)
                continue
            unit = e.get("Unit", "")
            if unit not in X86_CORE_UNITS:
                skipped["uncore event"] = skipped.get("uncore event", 0) + 1
                continue
            if "EventCode" not in e and "UMask" not in e:
                skipped["event with no encoding"] = skipped.get("event with no encoding", 0) + 1
                continue
            events[(e["EventName"], unit)] = (e["EventName"], x86_encoding(e), unit,
                                              e.get("BriefDescription", ""))
    return events.values(), metrics.values()


def vendor_of(arch, match, folder):
    if arch == "arm64":
        return folder.split("/")[0]
    return "intel" if match.startswith("GenuineIntel") else "amd"


def select(arch, rows, sel):
    folders = []
    for match, folder in rows:
        if folder not in folders:
            folders.append(folder)
    if sel == "none":
        return []
    if sel == "all":
        return folders
    if sel.startswith("vendor:"):
        want = sel[7:].strip().lower()
        got = [f for m, f in rows if vendor_of(arch, m, f) == want]
        if not got:
            die("no %s vendor '%s' (known: %s)" % (arch, want,
                ", ".join(sorted({vendor_of(arch, m, f) for m, f in rows}))))
        return [f for f in folders if f in got]
    if sel.startswith("list:"):
        want = [w for w in sel[5:].replace(",", " ").split() if w]
        for w in want:
            if w not in folders:
                die("no %s core '%s' in mapfile.csv (known: %s)" % (arch, w, " ".join(folders)))
        return [f for f in folders if f in want]
    die("selection '%s': use none, all, vendor:NAME or list:FOLDER,..." % sel)


def cstr(text):
    out = []
    for ch in text.encode():
        if ch in (0x22, 0x5c):
            out.append("\\" + chr(ch))
        elif 0x20 <= ch < 0x7f and ch != 0x3f:
            out.append(chr(ch))
        else:
            out.append("\\%03o" % ch)
    return "".join(out)


def write_pool(f, name, strings):
    f.write("static const char %s[] =\n" % name)
    for text in strings:
        f.write('\t"%s\\0"\n' % cstr(text))
    f.write("\t;\n")


def write(t, arch, symbol, out):
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write("/* Generated by scripts/pmu-events.py from the kernel's pmu-events/arch/%s: do not edit. */\n" % arch)
        f.write('#include "pmu_events.h"\n\n')
        write_pool(f, "pool", t.pool_s)
        write_pool(f, "dpool", t.dpool_s)
        evs = sorted(t.events.items(), key=lambda kv: kv[1])
        f.write("static const struct selfmon_pe_event events[] = {\n")
        for key, _ in evs:
            f.write("\t{ %d, %d, %d, %d },\n" % key)
        f.write("\t{ 0, 0, 0, 0 }\n};\n")
        ms = sorted(t.metrics.items(), key=lambda kv: kv[1])
        f.write("static const struct selfmon_pe_metric metrics[] = {\n")
        for key, _ in ms:
            f.write("\t{ %d, %d, %d, %d, %d, %d },\n" % key)
        f.write("\t{ 0, 0, 0, 0, 0, 0 }\n};\n")
        for name, arr in (("ev_idx", t.ev_idx), ("m_idx", t.m_idx)):
            f.write("static const uint32_t %s[] = {" % name)
            for i, v in enumerate(arr + [0]):
                f.write("%s%d," % ("\n\t" if i % 16 == 0 else " ", v))
            f.write("\n};\n")
        f.write("static const struct selfmon_pe_core cores[] = {\n")
        for c in t.cores:
            f.write("\t{ %d, %d, %d, %d, %d },\n" % c)
        f.write("\t{ 0, 0, 0, 0, 0 }\n};\n")
        f.write("static const struct selfmon_pe_map maps[] = {\n")
        for m in t.maps:
            f.write("\t{ %d, %d },\n" % m)
        f.write("\t{ 0, 0 }\n};\n")
        f.write("const struct selfmon_pe_table %s = {\n" % symbol)
        f.write('\t.arch = "%s", .pool = pool, .dpool = dpool,\n' % arch)
        f.write("\t.events = events, .nr_events = %d, .metrics = metrics, .nr_metrics = %d,\n"
                % (len(evs), len(ms)))
        f.write("\t.ev_idx = ev_idx, .m_idx = m_idx,\n")
        f.write("\t.cores = cores, .nr_cores = %d, .maps = maps, .nr_maps = %d,\n"
                % (len(t.cores), len(t.maps)))
        f.write("\t.common = %d,\n" % t.common)
        rules = "midr" if arch == "arm64" else "cpuid"
        f.write("\t.matches = selfmon_pe__%s_matches,\n" % rules)
        f.write("\t.at_least = selfmon_pe__%s,\n};\n" % ("midr_at_least" if arch == "arm64" else "cpuid_at_least_x86"))
    os.replace(out + ".tmp", out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--select", required=True)
    ap.add_argument("--no-desc", action="store_true")
    ap.add_argument("--symbol", default="selfmon_pe__table")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("-o", dest="out", required=True)
    a = ap.parse_args()
    if a.arch not in ("arm64", "x86"):
        die("no tables for arch '%s' (arm64, x86)" % a.arch)
    if not os.path.isfile(os.path.join(a.src, "mapfile.csv")):
        die("%s has no mapfile.csv: not a pmu-events/arch/<arch> folder" % a.src)
    rows = read_mapfile(a.src)
    folders = select(a.arch, rows, a.select)
    t = Tables(not a.no_desc)
    t.common = -1
    index = {}
    if a.arch == "arm64" and folders:
        std = arm64_std(a.src)
        ev, me = arm64_common(a.src, rows, std)
        t.common = t.add_core("arm64 common (sbsa)", ev, with_generic(me))
    elif a.arch == "x86" and folders:
        t.common = t.add_core("x86 common (generic)", [], with_generic([]))
    for folder in folders:
        if a.arch == "arm64":
            ev, me = arm64_core(a.src, folder, std, t.skipped)
        else:
            ev, me = x86_core(a.src, folder, t.skipped)
        index[folder] = t.add_core(folder, ev, me)
    for match, folder in rows:
        if folder in index:
            t.maps.append((t.s(match), index[folder]))
    write(t, a.arch, a.symbol, a.out)
    if a.stats:
        sys.stderr.write("pmu-events: %s %s: %d cores, %d events, %d metrics (unique); left out: %s\n" % (
            a.arch, a.select, len(t.cores), len(t.events), len(t.metrics),
            ", ".join("%d %s" % (n, k) for k, n in sorted(t.skipped.items())) or "nothing"))


main()
