#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""selfmon compare end to end on the host, as TAP (make check-run-compare).

selfmon bench runs twice; compare reads both and every output format is read
back by its own consumer: the JUnit XML by xml.etree, the lava-test-case
lines by LAVA's own lava-test-case script and its dispatcher's parser (with
names as lava/check.py cleans them), the JSON by json. Then the exit
statuses of bad input, an exact comparison, and the gate's short form:
a run against a rerun of itself raises no alarm, a 50% slowdown injected
into a kernel (SELFMON_TEST_SLOWDOWN) is caught, each in most of 5 tries,
the two sides run in pairs of random order, 9 one-repetition runs each, pooled by
selfmon compare --base ... --new ....

Usage: check_compare.py SELFMON ROOT
"""
import importlib.util
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

LAVA_SHELL = "/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell"
BENCH = ["--format", "json", "--keep-noisy", "--repetitions", "9", "--warmup", "0"]


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, text, note=""):
        self.n += 1
        self.failed += not cond
        print("%sok %d - %s" % ("" if cond else "not ", self.n, text), flush=True)
        if note and not cond:
            print("# " + note.replace("\n", "\n# "), flush=True)
        return cond


def run(cmd, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, **(env or {})))


def bench(selfmon, out, filt, slow=None):
    p = run([selfmon, "bench"] + BENCH + ["--filter", filt, "--out", out],
            {"SELFMON_TEST_SLOWDOWN": slow} if slow else None)
    if p.returncode:
        sys.exit("selfmon bench failed: %s" % p.stderr)


def lava_clean(root):
    spec = importlib.util.spec_from_file_location("lava_check", os.path.join(root, "lava/check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.clean


def check_lava(tap, lines, root, tmp):
    """Each line runs LAVA's lava-test-case; its signal goes through the dispatcher's parser."""
    sys.path.insert(0, "/usr/lib/python3/dist-packages")
    if not os.path.isdir(LAVA_SHELL):
        tap.n += 1
        print("ok %d # SKIP lava-dispatcher is not installed (scripts/deps.sh lava installs it; "
              "make check does)" % tap.n)
        return
    from lava_dispatcher.actions.test.shell import handle_testcase
    from lava_dispatcher.connection import SignalMatch
    clean = lava_clean(root)
    bindir = os.path.join(tmp, "lava-bin")
    os.makedirs(bindir, exist_ok=True)
    # As lava-test-shell installs them: the interpreter line first, executable.
    for name in ("lava-test-case", "lava-common-functions"):
        with open(os.path.join(LAVA_SHELL, name)) as f:
            text = f.read()
        write(os.path.join(bindir, name), "#!/bin/sh\n" + text)
        os.chmod(os.path.join(bindir, name), 0o755)
    bad = []
    for line in lines:
        words = shlex.split(line)
        name = words[1] if len(words) > 1 else ""
        p = run(["sh", "-c", line], {"PATH": bindir + ":" + os.environ["PATH"],
                                     "LAVA_RESULT_DIR": os.path.join(tmp, "lava-results")})
        sig = p.stdout.strip()
        try:
            if p.returncode or not sig.startswith("<LAVA_SIGNAL_TESTCASE ") or not sig.endswith(">"):
                raise ValueError("lava-test-case said %r (status %d)" % (p.stdout + p.stderr, p.returncode))
            res = SignalMatch().match(handle_testcase(sig[1:-1].split()[1:]))
            if res["test_case_id"] != name or name != clean(name):
                raise ValueError("name %r, cleaned %r" % (name, clean(name)))
            if res["result"] not in ("pass", "fail", "skip") or "measurement" not in res or not res.get("units"):
                raise ValueError("result %r, measurement and units %r" % (res["result"], res))
        except Exception as e:  # the dispatcher's own errors (TestError, JobError) included
            bad.append("%s: %s" % (line, e))
    tap.ok(lines and not bad, "%d lava-test-case lines pass LAVA's lava-test-case and its dispatcher's "
           "parser, with measurements and units, names as lava/check.py cleans them" % len(lines),
           "\n".join(bad[:5]))


def check_formats(tap, selfmon, root, tmp, a, b):
    p = run([selfmon, "compare", a, b])
    rows = [l for l in p.stdout.splitlines() if l.startswith(("add_chain ", "empty "))]
    tap.ok(p.returncode in (0, 1, 3) and len(rows) == 4,
           "selfmon compare of two bench runs: exit 0, 1 or 3, a row per benchmark and metric (%d rows, exit %d)"
           % (len(rows), p.returncode), p.stdout + p.stderr)
    p = run([selfmon, "compare", "--format", "junit", a, b])
    try:
        root_el = ET.fromstring(p.stdout)
        cases = root_el.findall("./testsuite/testcase")
        fails = len(root_el.findall("./testsuite/testcase/failure"))
        good = (root_el.tag == "testsuites" and len(cases) == 4 and
                int(root_el.get("failures")) == fails and int(root_el.get("tests")) == 4 and
                {c.get("classname") for c in cases} == {"add_chain", "empty"})
        note = p.stdout
    except ET.ParseError as e:
        good, note = False, "%s\n%s" % (e, p.stdout)
    tap.ok(good, "the JUnit XML parses (xml.etree): 4 testcases, its failures attribute counts its <failure>s",
           note)
    p = run([selfmon, "compare", "--format", "json", a, b])
    try:
        doc = json.loads(p.stdout)
        good = doc["schema"] == "selfmon-compare" and len(doc["results"]) == 4 and \
            doc["regressions"] == sum(r["verdict"] == "regression" for r in doc["results"])
    except (ValueError, KeyError) as e:
        good = False
    tap.ok(good, "the JSON output parses, with a result per benchmark and metric", p.stdout[:2000])
    p = run([selfmon, "compare", "--format", "lava", a, b])
    check_lava(tap, p.stdout.splitlines(), root, tmp)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def exact_report(path, insns):
    its = [{"name": "k", "run_name": "k", "run_type": "iteration", "iterations": 100, "real_time": 5 + i,
            "cpu_time": 5 + i, "time_unit": "ns", "instructions:u": insns} for i in range(3)]
    write(path, json.dumps({"schema": "selfmon-report", "schema_version": 1, "context": {},
                            "benchmarks": its}))


HOSTILE = ["\uffff", "k\ufffe", "\x01ctl\x1b[31m", "<&>\"'", "tab\tnl\nret\r", "\U0001F600",
           "\\u0041", "\u2028"]


def gb_report(path, names, reps=3, extra=None):
    """Google Benchmark's layout (no schema tag), RAW names, one counter with a hostile name too."""
    its = [{"name": n, "run_name": n, "run_type": "iteration", "iterations": 10, "real_time": 5 + i,
            "cpu_time": 5 + i, "time_unit": "ns", "c\uffff": 7} for n in names for i in range(reps)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"context": {}, "benchmarks": its + (extra or [])}, f, ensure_ascii=False)


def check_hostile_names(tap, selfmon, tmp):
    """Names that are valid JSON and UTF-8 but not XML 1.0 characters, and a file name that is not
    UTF-8: the JUnit parses with xml.etree, the JSON with json, each a testcase or result per name."""
    base = os.path.join(os.fsencode(tmp), b"base\xff\x01.json")
    new = os.path.join(tmp, "new.json")
    gb_report(os.fsdecode(base), HOSTILE)
    gb_report(new, HOSTILE + ["only\uffffnew"])
    args = [os.fsencode(selfmon), b"compare", b"--allow-missing", base, os.fsencode(new)]
    p = subprocess.run(args[:2] + [b"--format", b"junit"] + args[2:], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    try:
        root_el = ET.fromstring(p.stdout)
        cases = root_el.findall("./testsuite/testcase")
        names = {c.get("classname") for c in cases}
        good = p.returncode == 0 and len(cases) == 3 * len(HOSTILE) + 1 and \
            "\\uffff" in names and "<&>\"'" in names and "tab\tnl\nret\r" in names and \
            "\U0001F600" in names and len(root_el.findall("./testsuite/testcase/error")) == 1
        note = "exit %d, classnames %r\n%s" % (p.returncode, sorted(names), p.stderr.decode(errors="replace"))
    except ET.ParseError as e:
        good, note = False, "%s\n%r" % (e, p.stdout[:3000])
    tap.ok(good, "hostile names (U+FFFF, U+FFFE, controls, markup, an emoji, a file name not UTF-8): "
           "the JUnit XML parses (xml.etree), a testcase per name and metric, the others kept", note)
    p = subprocess.run(args[:2] + [b"--format", b"json"] + args[2:], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    try:
        doc = json.loads(p.stdout)
        got = {r["benchmark"] for r in doc["results"]}
        good = p.returncode == 0 and got == set(HOSTILE) and doc["only_in_new"] == ["only\uffffnew"] and \
            {r["metric"] for r in doc["results"]} == {"time", "cpu_time", "c\uffff"} and \
            doc["base"].startswith("/") and doc["base"].endswith("base\ufffd\x01.json")
        note = "exit %d, %r" % (p.returncode, got)
    except (ValueError, KeyError) as e:
        good, note = False, "%s\n%r" % (e, p.stdout[:3000])
    tap.ok(good, "hostile names: the JSON output parses (json), every name exactly as in the report, "
           "the file name's stray byte as U+FFFD", note)


def check_failed_run(tap, selfmon, tmp):
    """A benchmark that called SkipWithError() in NEW, as Google Benchmark writes it: the gate fails,
    with its message, and one run gives the JUnit file and the table on stdout."""
    ok_its = [{"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 9,
               "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": 10, "cpu_time": 10,
               "time_unit": "ns"} for i in range(9)]
    err_its = [dict(o, iterations=0, real_time=0, cpu_time=0, error_occurred=True,
                    error_message="cannot open /dev/cpu/0/msr") for o in ok_its]
    base, new, xml = (os.path.join(tmp, n) for n in ("gb-ok.json", "gb-err.json", "gb.xml"))
    write(base, json.dumps({"context": {}, "benchmarks": ok_its}))
    write(new, json.dumps({"context": {}, "benchmarks": err_its}))
    p = run([selfmon, "compare", "--format", "junit", "--out", xml, base, new])
    try:
        fail = ET.parse(xml).getroot().find("./testsuite/testcase/failure")
        good = p.returncode == 1 and fail is not None and "cannot open /dev/cpu/0/msr" in fail.get("message") \
            and "FAILED" in p.stdout and "improvement:" not in p.stdout and "cannot open /dev/cpu/0/msr" in p.stderr
    except (OSError, ET.ParseError) as e:
        good = False
    tap.ok(good, "a benchmark that failed (error_occurred) in NEW: exit 1 (%d), its message in the JUnit "
           "<failure> and on stderr, the table on stdout beside --out" % p.returncode, p.stdout + p.stderr)


def check_exits(tap, selfmon, tmp, a):
    p = run([selfmon, "compare", a, os.path.join(tmp, "absent.json")])
    tap.ok(p.returncode == 2 and "No such file or directory" in p.stderr and "absent.json" in p.stderr,
           "a missing file: exit 2, named, with the cause", p.stderr)
    write(os.path.join(tmp, "bad.json"), '{"benchmarks": [1, 2,]}')
    p = run([selfmon, "compare", a, os.path.join(tmp, "bad.json")])
    tap.ok(p.returncode == 2 and "line 1, column 22" in p.stderr, "malformed JSON: exit 2 with line and column",
           p.stderr)
    p = run([selfmon, "compare", "--limit", "cycles=+5%", a, a])
    tap.ok(p.returncode == 2 and "no such metric" in p.stderr, "a limit on a metric of neither file: exit 2",
           p.stderr)
    exact_report(os.path.join(tmp, "e1.json"), 1000)
    exact_report(os.path.join(tmp, "e2.json"), 1001)
    p1 = run([selfmon, "compare", "--limit", "instructions=+0%", os.path.join(tmp, "e1.json"),
              os.path.join(tmp, "e1.json")])
    p2 = run([selfmon, "compare", "--limit", "instructions=+0%", os.path.join(tmp, "e1.json"),
              os.path.join(tmp, "e2.json")])
    tap.ok(p1.returncode == 0 and p2.returncode == 1 and "exact" in p2.stdout,
           "exact counts at instructions=+0%%: equal passes (exit %d), one more instruction fails (exit %d)"
           % (p1.returncode, p2.returncode), p2.stdout)


def interleaved(selfmon, tmp, rounds, slow=None):
    """ROUNDS one-repetition runs of add_chain a side, in pairs, each pair in a random order
    (as docs/compare.md says to): compare's arguments."""
    args = []
    for r in range(rounds):
        a, b = os.path.join(tmp, "ia%d.json" % r), os.path.join(tmp, "ib%d.json" % r)
        for side in ((a, None), (b, slow)) if random.random() < 0.5 else ((b, slow), (a, None)):
            p = run([selfmon, "bench", "--format", "json", "--keep-noisy", "--repetitions", "1",
                     "--filter", "^add_chain$", "--out", side[0]],
                    {"SELFMON_TEST_SLOWDOWN": side[1]} if side[1] else None)
            if p.returncode:
                sys.exit("selfmon bench failed: %s" % p.stderr)
        args += ["--base", a, "--new", b]
    return args


def check_gate(tap, selfmon, tmp, tries=7, rounds=15):
    """The gate on this noisy host as the README's CI step runs it: the two sides run alternately
    (as docs/compare.md says to), --alpha 0.01; most of TRIES tries, so that one disturbed run
    does not decide."""
    alarms = caught = 0
    gate = [selfmon, "compare", "--alpha", "0.01"]
    for _ in range(tries):
        # exit 1 (a regression) or 3 (an inconclusive rise): either fails a CI step
        alarms += run(gate + interleaved(selfmon, tmp, rounds)).returncode in (1, 3)
        caught += run(gate + interleaved(selfmon, tmp, rounds, "add_chain=50")).returncode in (1, 3)
    tap.ok(alarms <= tries // 2, "self vs rerun at the default limits and alpha 0.01, %d runs a side in pairs of random order: "
           "no alarm (%d alarms in %d tries)" % (rounds, alarms, tries))
    tap.ok(caught > tries // 2, "a 50%% slowdown of add_chain: caught (%d of %d tries)" % (caught, tries))


def main():
    selfmon, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    tap = Tap()
    print("# suite: selfmon compare end to end")
    print("1..13")
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
        bench(selfmon, a, "^(add_chain|empty)$")
        bench(selfmon, b, "^(add_chain|empty)$")
        check_formats(tap, selfmon, root, tmp, a, b)
        check_exits(tap, selfmon, tmp, a)
        check_hostile_names(tap, selfmon, tmp)
        check_failed_run(tap, selfmon, tmp)
        check_gate(tap, selfmon, tmp)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
