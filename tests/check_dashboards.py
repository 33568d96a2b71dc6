#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""scripts/dashboards' payloads against their published shapes, as TAP.

A real report (selfmon bench, add_chain, 3 repetitions) and its compare
JSON, then a fixture report and compare JSON holding every verdict, a
failed and a skipped benchmark, a counter, a name with '/' and ':' and a
time in us: each payload is validated against the schema kept in
tests/fixtures/dashboards (SQUAD's submit files, KCIDB v5's tests subset,
Bencher Metric Format) by the small JSON Schema validator below, and read
back: every metric's median, Bencher's least and greatest repetition, and
compare's verdicts as pass, fail or skip. Bad input exits 2 naming the file.

Usage: check_dashboards.py SELFMON ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, text, note=""):
        self.n += 1
        self.failed += not cond
        print("%sok %d - %s" % ("" if cond else "not ", self.n, text), flush=True)
        if note and not cond:
            print("# " + str(note).replace("\n", "\n# "), flush=True)
        return cond


def type_ok(v, t):
    num = isinstance(v, (int, float)) and not isinstance(v, bool)
    return {"object": isinstance(v, dict), "array": isinstance(v, list), "string": isinstance(v, str),
            "number": num, "integer": num and v == int(v), "boolean": isinstance(v, bool)}[t]


def errors(v, s, root, where="$"):
    """What in @v breaks schema @s: the JSON Schema keywords the schemas here use."""
    if "$ref" in s:
        return errors(v, root["$defs"][s["$ref"].split("/")[-1]], root, where)
    if "type" in s and not type_ok(v, s["type"]):
        return ["%s: not %s" % (where, s["type"])]
    out = []
    if "anyOf" in s and all(errors(v, a, root, where) for a in s["anyOf"]):
        out.append("%s: none of anyOf" % where)
    if "enum" in s and v not in s["enum"]:
        out.append("%s: %r not in %s" % (where, v, s["enum"]))
    if "const" in s and v != s["const"]:
        out.append("%s: %r is not %r" % (where, v, s["const"]))
    if isinstance(v, str):
        if "pattern" in s and not re.search(s["pattern"], v):
            out.append("%s: %r does not match %s" % (where, v, s["pattern"]))
        if len(v) < s.get("minLength", 0) or len(v) > s.get("maxLength", len(v)):
            out.append("%s: length" % where)
    if type_ok(v, "number") and not s.get("minimum", v) <= v <= s.get("maximum", v):
        out.append("%s: %r out of range" % (where, v))
    if isinstance(v, list):
        if len(v) < s.get("minItems", 0):
            out.append("%s: too few items" % where)
        for i, x in enumerate(v):
            out += errors(x, s.get("items", {}), root, "%s[%d]" % (where, i))
    if isinstance(v, dict):
        out += ["%s: no %s" % (where, k) for k in s.get("required", []) if k not in v]
        props = s.get("properties", {})
        for k, x in v.items():
            out += errors(k, s.get("propertyNames", {}), root, "%s key %r" % (where, k))
            extra = s.get("additionalProperties", {})
            if k in props:
                out += errors(x, props[k], root, "%s.%s" % (where, k))
            elif extra is False:
                out.append("%s: %r not allowed" % (where, k))
            else:
                out += errors(x, extra, root, "%s.%s" % (where, k))
    return out


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class Payloads:
    """scripts/dashboards run on a report; its files, read back."""

    def __init__(self, root, tmp, report, compare=None, extra=()):
        self.out = tempfile.mkdtemp(dir=tmp)
        cmd = [os.path.join(root, "scripts/dashboards"), "--out", self.out, report] + list(extra)
        self.p = run(cmd + (["--compare", compare] if compare else []))
        self.files = {}
        for f in ("squad/tests.json", "squad/metrics.json", "squad/metadata.json", "kcidb.json", "bmf.json"):
            path = os.path.join(self.out, f)
            self.files[f] = json.load(open(path)) if os.path.exists(path) else None


def check_shapes(t, pl, schemas, what):
    sq = schemas["squad"]
    for f, s in (("squad/tests.json", {"$ref": "#/$defs/tests"}), ("squad/metrics.json", {"$ref": "#/$defs/metrics"}),
                 ("squad/metadata.json", {"$ref": "#/$defs/metadata"})):
        e = errors(pl.files[f], s, sq)
        t.ok(pl.files[f] is not None and not e, "%s: SQUAD's %s has the submit API's shape" % (what, f), e)
    e = errors(pl.files["kcidb.json"], schemas["kcidb"], schemas["kcidb"])
    t.ok(pl.files["kcidb.json"] is not None and not e, "%s: kcidb.json is KCIDB v5 I/O data" % what, e)
    e = errors(pl.files["bmf.json"], schemas["bmf"], schemas["bmf"])
    t.ok(pl.files["bmf.json"] is not None and not e, "%s: bmf.json is Bencher Metric Format" % what, e)


def check_real(t, selfmon, root, tmp, schemas):
    report, cmp_json = os.path.join(tmp, "r.json"), os.path.join(tmp, "c.json")
    p = run([selfmon, "bench", "--format", "json", "--filter", "^add_chain$", "--repetitions", "3",
             "--keep-noisy", "--out", report])
    if not t.ok(p.returncode == 0, "selfmon bench writes a report", p.stderr):
        return
    run([selfmon, "compare", "--format", "json", "--out", cmp_json, report, report])
    pl = Payloads(root, tmp, report, cmp_json, ["--compatible", "linux,dummy-virt"])
    t.ok(pl.p.returncode == 0, "dashboards reads a real report and its compare JSON", pl.p.stderr)
    check_shapes(t, pl, schemas, "real report")
    rows = json.load(open(report))["benchmarks"]
    med = {r["run_name"]: r for r in rows if r.get("aggregate_name") == "median"}["add_chain"]
    want = {"time": med["real_time"], "cpu_time": med["cpu_time"]}
    got = {m: pl.files["squad/metrics.json"].get("selfmon/add_chain/" + m) for m in want}
    t.ok(got == want, "SQUAD metrics are the report's own medians of time and cpu_time", (got, want))
    kc = {x["misc"]["metric"]: x for x in pl.files["kcidb.json"]["tests"]}
    got = {m: kc[m]["number"]["value"] for m in want if m in kc}
    t.ok(got == want and kc["time"]["number"]["unit"] == "ns",
         "KCIDB numbers are the same medians, in ns", (got, want))
    t.ok(kc["time"]["environment"]["compatible"] == ["linux,dummy-virt"],
         "KCIDB environment.compatible is the board's, in order", kc["time"]["environment"])
    reps = [r["real_time"] for r in rows if r.get("run_type") == "iteration"]
    b = pl.files["bmf.json"]["add_chain"]["latency"]
    t.ok((b["value"], b["lower_value"], b["upper_value"]) == (med["real_time"], min(reps), max(reps)),
         "BMF latency: the median, the least and the greatest repetition", (b, reps))
    tests = pl.files["squad/tests.json"]
    t.ok(tests == {"selfmon/add_chain/time": "pass", "selfmon/add_chain/cpu_time": "pass"},
         "a report against itself passes every SQUAD test", tests)


def check_fixture(t, root, tmp, schemas):
    fx = os.path.join(root, "tests/fixtures/dashboards")
    pl = Payloads(root, tmp, os.path.join(fx, "report.json"), os.path.join(fx, "compare.json"))
    t.ok(pl.p.returncode == 0, "dashboards reads the fixture report and compare JSON", pl.p.stderr)
    check_shapes(t, pl, schemas, "every verdict")
    want = {"loop/time": "fail", "loop/cpu_time": "fail", "loop/instructions:u": "skip",
            "region/thread:1/time": "pass", "region/thread:1/cpu_time": "pass",
            "broken/run": "fail", "absent/run": "skip", "gone/run": "skip"}
    want = {"selfmon/" + k: v for k, v in want.items()}
    t.ok(pl.files["squad/tests.json"] == want, "regression and inconclusive fail, unsure skips, "
         "same and improvement pass, a failed benchmark fails", pl.files["squad/tests.json"])
    st = {x["path"]: x["status"] for x in pl.files["kcidb.json"]["tests"]}
    t.ok(st.get("selfmon.loop.time") == "FAIL" and st.get("selfmon.loop.instructions_u") == "SKIP"
         and st.get("selfmon.region_thread_1.cpu_time") == "PASS" and st.get("selfmon.broken.run") == "ERROR",
         "KCIDB statuses: FAIL, SKIP, PASS, and ERROR for a benchmark that failed", st)
    m = pl.files["squad/metrics.json"]
    t.ok(m.get("selfmon/loop/time") == 3.0 and m.get("selfmon/loop/instructions:u") == 1001.5
         and m.get("selfmon/region/thread:1/time") == 2500.0,
         "medians of an even count, counters, and us converted to ns", m)
    plain = Payloads(root, tmp, os.path.join(fx, "report.json"))
    t.ok(plain.files["squad/tests.json"] == {"selfmon/loop/run": "pass", "selfmon/region/thread:1/run": "pass",
                                             "selfmon/broken/run": "fail", "selfmon/absent/run": "skip"},
         "without compare: one run test per benchmark, as the report says", plain.files["squad/tests.json"])
    check_shapes(t, plain, schemas, "without compare")
    bad = json.loads(json.dumps(plain.files["kcidb.json"]))
    bad["tests"][0]["status"] = "BROKEN"
    t.ok(errors(bad, schemas["kcidb"], schemas["kcidb"]) != [], "the validator refuses a status KCIDB has not")


def check_bad(t, root, tmp):
    fx = os.path.join(root, "tests/fixtures/dashboards")
    cases = (("malformed.json", "{\"benchmarks\": [", "malformed JSON"),
             ("other.json", "{\"foo\": 1}", "not a selfmon report"),
             ("nan.json", "{\"benchmarks\": [{\"name\": \"x\", \"real_time\": NaN}]}", "malformed JSON"))
    for name, text, why in cases:
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        p = Payloads(root, tmp, path).p
        t.ok(p.returncode == 2 and path in p.stderr and why in p.stderr,
             "%s: exit 2, the file and '%s' on stderr" % (name, why), (p.returncode, p.stderr))
    p = Payloads(root, tmp, os.path.join(fx, "report.json"), os.path.join(fx, "report.json")).p
    t.ok(p.returncode == 2 and "not selfmon compare output" in p.stderr,
         "a report given as --compare: exit 2", (p.returncode, p.stderr))


def main():
    selfmon, root = sys.argv[1], os.path.abspath(sys.argv[2])
    fx = os.path.join(root, "tests/fixtures/dashboards")
    schemas = {k: json.load(open(os.path.join(fx, f))) for k, f in
               (("squad", "squad-submit.schema.json"), ("kcidb", "kcidb-v5-subset.schema.json"),
                ("bmf", "bmf.schema.json"))}
    t = Tap()
    with tempfile.TemporaryDirectory() as tmp:
        check_real(t, selfmon, root, tmp, schemas)
        check_fixture(t, root, tmp, schemas)
        check_bad(t, root, tmp)
    print("1..%d" % t.n)
    sys.exit(1 if t.failed else 0)


if __name__ == "__main__":
    main()
