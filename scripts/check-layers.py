#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layers of selfmon, checked (docs/architecture.md draws them).

Two graphs:
- includes, read from the sources: every #include of a file of this
  repository must point down or sideways (RULES below), and no header may
  include itself back through others;
- calls, read from the built objects with nm (--objects DIR): an object of
  the library that uses a symbol another defines depends on it; no two
  objects may depend on each other, directly or round a longer circle, and
  no object may call up a layer.

Usage:
  check-layers.py [--root DIR] [--arch ARCH] [--objects OBJDIR] [--nm NM] [--tap FILE]
  check-layers.py --self-test [--tap FILE]
Exits 1 on a finding, each one named with the file and the rule it breaks.
"""
import argparse
import os
import re
import subprocess
import sys

# Lower layers first. A file may include (or call) its own layer and the
# layers listed for it, nothing else of this repository.
LAYERS = ("util", "public", "core", "arch", "sample", "bench", "cli")
ALLOWED = {
    # util/ is the bottom: libc only, and every layer but the installed
    # headers may use it (examples/ stand for a user's program: not them).
    "util": {"util"},
    "public": {"public"},
    "core": {"util", "public", "core"},
    # arch/ implements core/arch_int.h's hooks with core/'s helpers, nothing above.
    "arch": {"util", "public", "core", "arch"},
    "sample": {"util", "public", "core", "sample"},
    # bench/, tools/ and examples/ reach the library through include/selfmon/ alone.
    "bench": {"util", "public", "bench"},
    "cli": {"util", "public", "cli"},
}
WHY = {
    "util": "util/ includes libc only (every layer may include it, it includes none)",
    "public": "a public header includes only <selfmon/*.h>",
    "core": "core/ includes only core/ and include/selfmon/ (nothing above it)",
    "arch": "arch/ uses core/'s helpers and nothing above them",
    "sample": "sample/ stands on core/ and include/selfmon/",
    "bench": "bench/ reaches the library through include/selfmon/ alone",
    "cli": "tools/ and examples/ reach the library through include/selfmon/ alone",
}
# What a util/ file may include from outside the repository: the C library's
# headers (<stdlib.h>, <sys/types.h>), not libperf's, the kernel's or a
# generated one.
LIBC_HEADER_RE = re.compile(r"^(sys/)?[a-z0-9_]+\.h$")
INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include\s*([<"])([^>"]+)[>"]', re.M)


def layer_of(path):
    """The layer of a repository path, or None (tests, scripts: not checked)."""
    parts = path.split("/")
    if parts[0] == "include" or (parts[0] == "arch" and "include" in parts):
        return "public"
    if parts[0] in ("util", "core", "sample", "bench"):
        return parts[0]
    if parts[0] == "arch":
        # The built-in kernels (arch/kernels.h, arch/*/kernels.c) are the CLI's.
        return "cli" if parts[-1].startswith("kernels.") else "arch"
    if parts[0] in ("tools", "examples"):
        return "cli"
    return None


def sources(root):
    """{path: text} of the C files of the checked layers."""
    out = {}
    for top in ("include", "util", "core", "sample", "bench", "arch", "tools", "examples"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    p = os.path.relpath(os.path.join(d, f), root)
                    with open(os.path.join(root, p), encoding="utf-8", errors="replace") as fh:
                        out[p] = fh.read()
    return out


def resolve(src, kind, name, files, arch):
    """The repository file an include names, or None (system, libperf, generated)."""
    cands = []
    if kind == '"':
        cands.append(os.path.normpath(os.path.join(os.path.dirname(src), name)))
    cands += [os.path.normpath(os.path.join("include", name)),
              os.path.normpath(os.path.join("arch", arch, "include", name))]
    for c in cands:
        if c in files:
            return c
    return None


def include_graph(files, arch):
    """{file: [(included file, line)]} for the includes of repository files."""
    graph = {}
    for path, text in files.items():
        edges = []
        for m in INCLUDE_RE.finditer(text):
            target = resolve(path, m.group(1), m.group(2), files, arch)
            if target:
                edges.append((target, text.count("\n", 0, m.start()) + 1))
        graph[path] = edges
    return graph


def circles(graph):
    """Each strongly connected set of more than one node (Tarjan), sorted."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def check_includes(files, arch):
    findings = []
    graph = include_graph(files, arch)
    for path in sorted(graph):
        src = layer_of(path)
        if src is None:
            continue
        for target, line in graph[path]:
            dst = layer_of(target)
            if dst is not None and dst not in ALLOWED[src]:
                findings.append(f"{path}:{line}: includes {target} ({dst}): {WHY[src]}")
    for path in sorted(p for p in files if layer_of(p) == "util"):
        for m in INCLUDE_RE.finditer(files[path]):
            if m.group(1) == "<" and not LIBC_HEADER_RE.match(m.group(2)):
                line = files[path].count("\n", 0, m.start()) + 1
                findings.append(f"{path}:{line}: includes <{m.group(2)}>, not the C library's: {WHY['util']}")
    heads = {p: [t for t, _ in e] for p, e in graph.items()}
    for comp in circles(heads):
        findings.append("include circle: " + " -> ".join(comp))
    return findings


def nm_graph(objdir, nm, arch, only=None):
    """{object: {object whose symbols it uses: those symbols}} over the library's objects.

    only: the objects this configuration builds (paths); None, every one found.
    An object Kconfig no longer chooses may linger in objdir, and its symbols
    are no part of this build."""
    objs = []
    # This build's arch only: the unit tests' build holds every arch's gates.
    for top in ("util", "core", "sample", "bench", os.path.join("arch", arch)):
        for d, _, fs in os.walk(os.path.join(objdir, top)):
            objs += [os.path.join(d, f) for f in fs if f.endswith(".o")]
    if only is not None:
        keep = {os.path.abspath(o) for o in only}
        objs = [o for o in objs if os.path.abspath(o) in keep]
    defined, undefined = {}, {}
    for o in sorted(objs):
        name = os.path.relpath(o, objdir)[:-2] + ".c"
        if layer_of(name) not in ("util", "core", "sample", "bench", "arch"):
            continue
        out = subprocess.run([nm, "-P", o], capture_output=True, text=True, check=True).stdout
        undefined[name] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) < 2:
                continue
            if f[1] == "U":
                undefined[name].add(f[0])
            elif f[1] in "TDBRGSVW":
                defined.setdefault(f[0], name)
    graph = {}
    for o, u in undefined.items():
        graph[o] = {}
        for sym in u:
            t = defined.get(sym)
            if t and t != o:
                graph[o].setdefault(t, set()).add(sym)
    return graph


def check_calls(graph, public=frozenset()):
    """graph: {object: {object: symbols used}}; public: the exported names."""
    findings = []
    for o in sorted(graph):
        src = layer_of(o)
        for t in sorted(graph[o]):
            dst = layer_of(t)
            # core/ calls arch/ through the hooks core/arch_int.h declares (one
            # implementation linked per build): an interface, not an arrow up.
            if src == "core" and dst == "arch":
                continue
            # Above the door, a call into the library is fine through a public name.
            internal = sorted(graph[o][t] - public) if "public" in ALLOWED[src] and src in ("bench", "cli") else graph[o][t]
            if dst not in ALLOWED[src] and internal:
                findings.append(f"{o} calls into {t} ({dst}): {', '.join(sorted(internal))}: {WHY[src]}")
    for comp in circles({o: set(ts) for o, ts in graph.items()}):
        findings.append("call circle between objects: " + " <-> ".join(comp))
    return findings


def self_test(files, arch):
    """Plant each kind of bad include or call; each must be found."""
    results = []

    def expect(name, findings, want):
        ok = any(want in f for f in findings)
        results.append((ok, name, findings))

    planted = dict(files)
    planted["core/set.c"] = planted.get("core/set.c", "") + '\n#include "../sample/ring.h"\n'
    expect("core/ including sample/ is an arrow up", check_includes(planted, arch), "core/set.c")
    planted = dict(files)
    planted["arch/x86/gate.c"] = '#include "../../sample/record.h"\n'
    expect("arch/ including sample/ is an arrow up", check_includes(planted, arch), "arch/x86/gate.c")
    planted = dict(files)
    planted["tools/probe.c"] = '#include "../core/set.h"\n'
    expect("tools/ including core/ skips the public door", check_includes(planted, arch), "tools/probe.c")
    planted = dict(files)
    planted["bench/bench.c"] = '#include "../sample/record.h"\n'
    expect("bench/ including sample/ skips the public door", check_includes(planted, arch), "bench/bench.c")
    planted = dict(files)
    planted["util/sort.c"] = planted.get("util/sort.c", "") + '\n#include "../core/list.h"\n'
    expect("util/ including core/ is an arrow up", check_includes(planted, arch), "util/sort.c")
    planted = dict(files)
    planted["util/sort.h"] = '#include <selfmon/bench.h>\n'
    expect("util/ including a public header is an arrow up", check_includes(planted, arch), "util/sort.h")
    planted = dict(files)
    planted["util/sort.c"] = '#include <perf/evsel.h>\n'
    expect("util/ including libperf is more than libc", check_includes(planted, arch), "util/sort.c")
    planted = dict(files)
    planted["core/a.h"] = '#include "b.h"\n'
    planted["core/b.h"] = '#include "a.h"\n'
    expect("two headers including each other are a circle", check_includes(planted, arch), "include circle")
    calls = {"core/counter.c": {"core/group.c": {"g"}}, "core/group.c": {"core/counter.c": {"c"}}}
    expect("two objects calling each other are a circle", check_calls(calls), "call circle")
    calls = {"core/a.c": {"core/b.c": {"b"}}, "core/b.c": {"core/c.c": {"c"}}, "core/c.c": {"core/a.c": {"a"}}}
    expect("three objects round a circle are one", check_calls(calls), "call circle")
    calls = {"core/set.c": {"sample/sampler.c": {"s"}}, "sample/sampler.c": {}}
    expect("core/ calling sample/ is an arrow up", check_calls(calls), "core/set.c calls into")
    calls = {"util/sort.c": {"core/stats.c": {"selfmon_stats__quantile"}}, "core/stats.c": {}}
    expect("util/ calling core/, even a public function, is an arrow up",
           check_calls(calls, frozenset({"selfmon_stats__quantile"})), "util/sort.c calls into")
    calls = {"bench/bench.c": {"core/set.c": {"selfmon_set__open", "selfmon_counter__open"}}, "core/set.c": {}}
    expect("bench/ calling an internal function skips the public door",
           check_calls(calls, frozenset({"selfmon_set__open"})), "selfmon_counter__open")
    # And the tree as it is passes the include check.
    real = check_includes(files, arch)
    results.append((not real, "the tree as it is passes", real))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--arch", default="x86")
    ap.add_argument("--objects", help="the build's obj/ directory: check calls too")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--only", help="the objects this build links, space-separated (the Makefile's obj-y)")
    ap.add_argument("--public", help="the exported names, one a line (scripts/symbols.py keep)")
    ap.add_argument("--tap", help="also write TAP lines to this file")
    ap.add_argument("--self-test", action="store_true", help="plant bad includes and calls: each must be found")
    a = ap.parse_args()
    files = sources(a.root)
    lines, failed, n = [], False, 0

    def tap(ok, text, detail=()):
        nonlocal failed, n
        failed |= not ok
        n += 1
        lines.append(f"{'ok' if ok else 'not ok'} {n} - {text}")
        lines.extend("# " + d for d in detail)

    if a.self_test:
        for ok, name, findings in self_test(files, a.arch):
            tap(ok, "layers self-test: " + name, [] if ok else findings or ["nothing found"])
    else:
        f = check_includes(files, a.arch)
        tap(not f, "include graph: no arrow up, no circle between headers", f)
        if a.objects:
            public = set()
            if a.public:
                with open(a.public) as fh:
                    public = {l.strip() for l in fh if l.strip()}
            only = a.only.split() if a.only is not None else None
            f = check_calls(nm_graph(a.objects, a.nm, a.arch, only), frozenset(public))
            tap(not f, "call graph of the library's objects: no arrow up, no circle", f)
    print("\n".join(lines))
    if a.tap:
        with open(a.tap, "w") as fh:
            fh.write("\n".join(lines) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
