#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""selfmon's LAVA check (make check-lava): LAVA's own dispatcher runs the jobs.

1. Every job in lava/jobs passes LAVA's strict schema (as a server checks a
   submission); each real board's job renders against its stock device type.
2. lava/selfmon-lava.sh parses a known TAP stream into the known results.
3. The emulated-board jobs run with lava-run on the real bundle (make
   tests-bundle, arm64): the device is rendered from lava/devices/ as
   lava-server renders a device dictionary. The per-test results LAVA sends
   in its log stream must equal the TAP the bundle printed on the console in
   the same job: the same pass, fail and skip counts and the same names.
4. Negative jobs prove the plumbing can fail: a failing test and a short plan
   are `fail` in LAVA; a guest that hangs or panics fails the job within its
   timeout.
Each outcome is a TAP line on stdout and in CHECKDIR/lava.tap, LAVA's own
per-test results included; tests/summary.sh sums them.

Usage: lava/check.py [--validate-only] [--jobs max,cortex-a72,biglittle]
                     [--negative fail,hang,panic] [--parallel N] [--kernel IMAGE]
                     ROOT BUILDDIR CHECKDIR BUNDLE_TGZ VMDIR
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

import jinja2.sandbox
import yaml

SUITE_SETS = ("selfmon-figures", "selfmon-tap")
EXACT_FIGURES = {"bench_exact_test.readcost.selfmon", "bench_exact_test.readcost.read2_total",
                 "bench_exact_test.add_chain.instructions", "cost_test.inline_read.index32",
                 "cost_test.inline_read.index1", "cost_test.set_read.call",
                 "pmu_test.empty_region.pmc32.mrs", "bench_test.set_read.selfmon"}
PROMPT_TIMEOUT_S = 120


class Tap:
    """The TAP lines of this check, numbered, echoed and kept."""

    def __init__(self):
        self.lines = []

    def add(self, ok, text, directive=""):
        n = len(self.lines) + 1
        line = "%sok %d - %s%s" % ("" if ok else "not ", n, text, directive)
        self.lines.append(line)
        print(line, flush=True)
        return ok

    def note(self, text):
        print("# " + text, flush=True)


# ---- names, as lava/selfmon-lava.sh makes them (an independent reading) ----
def clean(text):
    """1:1: [A-Za-z0-9_] and a '.' past the first byte stay, any other byte
    is -XX; past 128, 117 bytes and "--h" with a hash of the whole name."""
    raw = text.encode("utf-8", "surrogateescape")
    out = "".join(chr(b) if (chr(b).isascii() and (chr(b).isalnum() or b == 0x5f))
                  or (b == 0x2e and i > 0) else "-%02x" % b for i, b in enumerate(raw))
    if len(out) <= 128:
        return out
    h = 0
    for b in raw:
        h = (h * 31 + b) % 2147483647
    return out[:117] + "--h%08x" % h


def parse_tap(lines):
    """The bundle's TAP as (set, name, result) items, the plan sum, the
    count of numbered results and the bundle's own summary line."""
    items, used, dup = [], set(), collections.Counter()
    suite, running, plan, numbered, summary = "", "", 0, 0, None
    for line in lines:
        m = re.match(r"# suite: (\S+)", line)
        if m:
            suite, running = clean(m.group(1).rsplit("/", 1)[-1]), ""
            continue
        m = re.match(r"#  RUN\s+(\S+)", line)
        if m:
            running = m.group(1)
            continue
        m = re.match(r"1\.\.(\d+)", line)
        if m:
            plan += int(m.group(1))
            continue
        m = re.match(r"(\d+) passed, (\d+) failed, (\d+) skipped$", line)
        if m:
            summary = tuple(int(x) for x in m.groups())
            continue
        m = re.match(r"(not )?ok( (\d+))?(.*)$", line)
        if not m or (m.group(4) and not m.group(4)[0].isspace()):
            continue
        result = "fail" if m.group(1) else "pass"
        if re.search(r"#\s*skip", line, re.I):
            result = "skip"
        if m.group(3):
            numbered += 1
        desc = re.sub(r"^\s*(- )?", "", m.group(4))
        desc = re.sub(r"\s*#.*$", "", desc) or running or "test"
        name, key = clean(desc), (suite or "selfmon", clean(desc))
        if key in used:
            dup[key] += 1
            name = "%s--%d" % (name, dup[key] + 1)
        used.add((key[0], name))
        items.append((key[0], name, result))
        running = ""
    return items, plan, numbered, summary


# ---- LAVA's log stream ----
def read_log(path):
    """lava-run's log: one YAML mapping per line."""
    records = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                try:
                    records.append(yaml.load(line, Loader=yaml.CSafeLoader))
                except yaml.YAMLError:
                    pass
    return records


def job_view(records):
    """What a job left in its log: test-case results, the console lines and
    the job's own verdict with its error, if any."""
    cases, console, verdict, error = [], [], None, ""
    for r in records:
        msg = r.get("msg")
        if r.get("lvl") == "target" and isinstance(msg, str):
            console.append(msg.replace("\r", ""))
        elif r.get("lvl") == "results" and isinstance(msg, dict):
            if msg.get("definition") == "lava":
                if msg.get("case") == "job":
                    verdict, error = msg.get("result"), msg.get("error_msg", "")
            else:
                cases.append(msg)
    return cases, console, verdict, error


# ---- rendering, as lava-server does it ----
def render_device(dictionary, dirs, context):
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([os.path.dirname(dictionary)] + dirs),
        trim_blocks=True, autoescape=False)
    return env.get_template(os.path.basename(dictionary)).render(**context)


def device_types(build):
    """The stock device-type templates: lava-server's, if installed, else
    taken from its .deb (never installed: it wants a database and a web
    server)."""
    for d in ("/usr/share/lava-server/device-types", os.path.join(build, "device-types")):
        if os.path.exists(os.path.join(d, "qemu.jinja2")):
            return d
    deb = os.path.join(build, "deb")
    os.makedirs(deb, exist_ok=True)
    print("# lava: taking the device-type templates from lava-server's .deb", flush=True)
    subprocess.run(["apt-get", "download", "lava-server"], cwd=deb, check=True,
                   stdout=subprocess.DEVNULL)
    pkg = sorted(glob.glob(os.path.join(deb, "lava-server_*.deb")))[-1]
    tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", pkg], check=True,
                         stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", deb, "./usr/share/lava-server/device-types/"],
                   input=tar, check=True)
    out = os.path.join(build, "device-types")
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(os.path.join(deb, "usr/share/lava-server/device-types"), out)
    return out


# ---- 1. the job files ----
REAL_BOARD_DICT = """{%% extends '%s.jinja2' %%}
{%% set connection_command = 'telnet ser2net 7001' %%}
{%% set hard_reset_command = 'pduclient --port 1 --command reboot' %%}
{%% set power_off_command = 'pduclient --port 1 --command off' %%}
{%% set power_on_command = 'pduclient --port 1 --command on' %%}
"""


def check_jobs(tap, root, build, dtypes):
    from lava_common.schemas import validate
    for path in sorted(glob.glob(os.path.join(root, "lava/jobs/*.yaml"))):
        name = os.path.relpath(path, root)
        with open(path) as f:
            job = yaml.safe_load(f)
        try:
            validate(job, strict=True)
            err = ""
        except Exception as exc:  # voluptuous' Invalid and its kin
            err = str(exc)
        tap.add(not err, "[lava] %s passes LAVA's strict schema%s" % (name, err and ": " + err))
        dt = job.get("device_type")
        if dt == "qemu":
            continue
        # A real board: its stock device type must offer what the job asks.
        dictionary = os.path.join(build, "dict-%s.jinja2" % dt)
        with open(dictionary, "w") as f:
            f.write(REAL_BOARD_DICT % dt)
        boot = next(a["boot"] for a in job["actions"] if "boot" in a)
        try:
            device = yaml.safe_load(render_device(dictionary, [dtypes], job.get("context", {})))
            method = device["actions"]["boot"]["methods"][boot["method"]]
            ok = boot["commands"] in method and "tftp" in device["actions"]["deploy"]["methods"]
            why = "" if ok else ": no %s/%s or tftp" % (boot["method"], boot["commands"])
        except Exception as exc:
            ok, why = False, ": %s" % exc
        tap.add(ok, "[lava] %s renders on the stock %s device type with %s commands '%s'%s"
                % (name, dt, boot["method"], boot["commands"], why))


# ---- 2. the parser on a known stream ----
PARSER_TAP = """TAP version 13
# suite: /bundle/bin/a_test
1..4
#  RUN           global.first_rule ...
ok 1 global.first_rule
#  RUN           global.skipped_rule ...
#      SKIP      not here
ok 2 # SKIP not here
not ok 3 - broken rule
not ok 4 # SKIP cmocka's skip
# tests/selftests/arm64/pmu_test.c:164:an_inline_read:22.02 instructions per inline read (1 with the loop)
# suite: /bundle/bin/b_test
1..2
ok 1 - only
not ok - b_test exited with status 1
"""
PARSER_WANT = """a_test global.first_rule pass
a_test global.skipped_rule skip
a_test broken-20rule fail
a_test test skip
b_test only pass
b_test b_test-20exited-20with-20status-201 fail
selfmon-figures a_test.inline_read pass 22.02 instructions/read
selfmon-tap plan fail 5 tests
"""


def check_parser(tap, root, build):
    path = os.path.join(build, "parser.tap")
    with open(path, "w") as f:
        f.write(PARSER_TAP)
    got = subprocess.run(["sh", os.path.join(root, "lava/selfmon-lava.sh"), "parse", path],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    tap.add(got == PARSER_WANT, "[lava] selfmon-lava.sh names each TAP line, fails a short plan "
            "and sends figures with units" + ("" if got == PARSER_WANT else
                                              ": got\n#   " + got.replace("\n", "\n#   ")))


# ---- 3. and 4. jobs run by lava-run ----
class Runner:
    """Prepares what the jobs fetch (as file:// URLs) and runs them."""

    def __init__(self, args, dtypes):
        self.args, self.dtypes = args, dtypes
        self.art = os.path.join(args.build, "artifacts")
        self.runs = os.path.join(args.build, "runs")
        self.base_id = os.getpid() * 100

    def prepare(self):
        a = self.args
        shutil.rmtree(self.runs, ignore_errors=True)
        os.makedirs(self.art, exist_ok=True)
        os.makedirs(self.runs)
        kernels = [a.kernel] if a.kernel else sorted(glob.glob(os.path.join(a.vm, "linux-image-*/vmlinuz-*")))
        if not kernels:
            raise SystemExit("lava: no kernel under %s/linux-image-*: run scripts/vm/fetch-kernel.sh %s"
                             % (a.vm, a.vm))
        ramdisk = os.path.join(self.art, "selfmon-ramdisk.cpio.gz")
        script = os.path.join(a.root, "lava/mkramdisk.sh")
        busybox = os.path.join(a.vm, "busybox")
        if not os.path.exists(ramdisk) or any(
                os.path.getmtime(p) > os.path.getmtime(ramdisk) for p in (script, busybox)):
            subprocess.run([script, busybox, ramdisk], check=True)
        dtb = os.path.join(a.vm, "biglittle-4.dtb")
        if not os.path.exists(dtb):
            subprocess.run([os.path.join(a.root, "scripts/vm/mkdtb-biglittle.sh"), "4", dtb],
                           check=True)
        for src, dst in ((kernels[-1], "vmlinuz"), (a.bundle, "selfmon-tests-arm64.tar.gz"),
                         (dtb, "biglittle-4.dtb")):
            link = os.path.join(self.art, dst)
            if os.path.lexists(link):
                os.unlink(link)
            os.symlink(os.path.abspath(src), link)
        self.repo = self.definition_repo()

    def definition_repo(self):
        """A git repository holding this tree's lava/ folder, as a lab's
        would: the git-referenced job clones it."""
        repo = os.path.join(self.args.build, "definition.git")
        shutil.rmtree(repo, ignore_errors=True)
        os.makedirs(os.path.join(repo, "lava"))
        for f in ("selfmon.yaml", "selfmon-lava.sh"):
            shutil.copy(os.path.join(self.args.root, "lava", f), os.path.join(repo, "lava"))
        git = ["git", "-C", repo, "-c", "user.name=selfmon", "-c", "user.email=selfmon@localhost"]
        for cmd in (["init", "-q"], ["add", "lava"], ["commit", "-q", "-m", "selfmon's LAVA test definition"]):
            subprocess.run(git + cmd, check=True)
        return repo

    def load(self, board, bundle=None):
        path = os.path.join(self.args.root, "lava/jobs/qemu-%s.yaml" % board)
        with open(path) as f:
            text = f.read().replace("@ARTIFACTS@", "file://" + self.art)
        text = text.replace("@REPOSITORY@", self.repo)
        if bundle:
            text = text.replace("file://%s/selfmon-tests-arm64.tar.gz" % self.art, "file://" + bundle)
        return yaml.safe_load(text)

    def run(self, label, job, index):
        """lava-run on JOB; returns (exit status, log records, seconds)."""
        d = os.path.join(self.runs, label)
        os.makedirs(d)
        with open(os.path.join(d, "job.yaml"), "w") as f:
            yaml.safe_dump(job, f, sort_keys=False)
        dictionary = os.path.join(self.args.root, "lava/devices/qemu-selfmon.jinja2")
        with open(os.path.join(d, "device.yaml"), "w") as f:
            f.write(render_device(dictionary, [self.dtypes], job.get("context", {})))
        cmd = ["lava-run", "--job-id", str(self.base_id + index), "--output-dir",
               os.path.join(d, "out"), "--device", os.path.join(d, "device.yaml"),
               os.path.join(d, "job.yaml")]
        if os.geteuid() != 0:
            cmd = ["sudo", "-n"] + cmd
        start = time.monotonic()
        with open(os.path.join(d, "lava.log"), "w") as err:
            rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err).returncode
        return rc, read_log(os.path.join(d, "lava.log")), time.monotonic() - start


def lava_tests(cases):
    """LAVA's per-test results of the bundle, without the plan check and the
    figures."""
    return [(c.get("set", ""), c["case"], c["result"]) for c in cases
            if c.get("set") not in SUITE_SETS]


def check_board(tap, board, outcome):
    rc, records, secs = outcome
    cases, console, verdict, error = job_view(records)
    tag = "[lava %s]" % board
    tap.add(rc == 0 and verdict == "pass", "%s lava-run completes the job in %.0f s (exit %d, job %s%s)"
            % (tag, secs, rc, verdict, error and ": " + error))
    # LAVA's own per-test results, as TAP.
    for s, name, result in lava_tests(cases):
        tap.add(result != "fail", "%s %s/%s" % (tag, s, name),
                " # SKIP in LAVA" if result == "skip" else "")
    items, plan, numbered, summary = parse_tap(console)
    got = collections.Counter(lava_tests(cases))
    want = collections.Counter(items)
    count = lambda c: tuple(sum(n for k, n in c.items() if k[2] == r) for r in ("pass", "fail", "skip"))
    diff = sorted((got - want).keys())[:3] + sorted((want - got).keys())[:3]
    tap.add(bool(items) and got == want and count(got) == summary,
            "%s LAVA recorded the bundle's TAP: %d pass, %d fail, %d skip (TAP %d, %d, %d; "
            "the bundle's summary %s), same names%s"
            % ((tag,) + count(got) + count(want) + (summary and "%d, %d, %d" % summary,)
               + ("" if got == want else ": differ on %s" % diff,)))
    plans = [c for c in cases if c.get("set") == "selfmon-tap" and c["case"] == "plan"]
    tap.add(len(plans) == 1 and plans[0]["result"] == "pass" and plan == numbered
            and plans[0].get("measurement") == numbered,
            "%s the plan check passed in LAVA: %d results for plans summing to %d"
            % (tag, numbered, plan))
    figures = [c for c in cases if c.get("set") == "selfmon-figures"]
    bad = [c["case"] for c in figures if "measurement" not in c or not c.get("units")]
    # On one vCPU the counts are exact and the exact tests run: their
    # figures must reach LAVA, or a changed format dropped them unseen.
    missing = sorted(EXACT_FIGURES - {c["case"] for c in figures}) if board != "biglittle" else []
    tap.add(not bad and not missing, "%s %d figures sent as LAVA measurements with units%s%s"
            % (tag, len(figures), ": none on %s" % bad[:3] if bad else "",
               ": %s missing" % missing if missing else ""))
    for c in figures:
        if "readcost" in c["case"] or "inline_read" in c["case"]:
            tap.note("%s %s = %g %s" % (tag, c["case"], c["measurement"], c["units"]))


NEGATIVE = {
    # name: (run_tests.sh body, test timeout s)
    "fail": ("""echo "TAP version 13"
echo "# suite: /bundle/bin/a_test"
echo "1..3"
echo "ok 1 - passes"
echo "not ok 2 - fails_on_purpose"
echo "ok 3 - skips_on_purpose # SKIP on purpose"
echo "# suite: /bundle/bin/b_test"
echo "1..2"
echo "ok 1 - runs_one_of_two"
exit 1
""", 60),
    "hang": ("""echo "# selfmon-lava check: hanging on purpose"
while :; do sleep 1; done
""", 20),
    "panic": ("""echo "# selfmon-lava check: panicking on purpose"
# The line above can still sit in the tty's buffer when the panic, which
# writes to the console directly, takes the machine: the kernel's log
# reaches the console first, so the job's log shows the test ran.
echo "selfmon-lava check: panicking on purpose" >/dev/kmsg
echo c >/proc/sysrq-trigger
sleep 60
""", 60),
}


def negative_bundle(runner, name, body):
    d = os.path.join(runner.args.build, "negative", name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "bundle/lava"))
    with open(os.path.join(d, "bundle/run_tests.sh"), "w") as f:
        f.write("#!/bin/sh\n" + body)
    os.chmod(os.path.join(d, "bundle/run_tests.sh"), 0o755)
    shutil.copy(os.path.join(runner.args.root, "lava/selfmon-lava.sh"), os.path.join(d, "bundle/lava"))
    tgz = os.path.join(d, "bundle.tar.gz")
    subprocess.run(["tar", "-czf", tgz, "-C", d, "bundle"], check=True)
    return tgz


def negative_job(runner, name):
    body, timeout = NEGATIVE[name]
    job = runner.load("max", negative_bundle(runner, name, body))
    job["job_name"] = "selfmon LAVA check: %s on purpose" % name
    for action in job["actions"]:
        if "test" in action:
            action["test"]["timeout"] = {"seconds": timeout}
    return job


def check_negative(tap, name, outcome):
    rc, records, secs = outcome
    cases, console, verdict, error = job_view(records)
    tag = "[lava negative %s]" % name
    if name == "fail":
        got = {(c.get("set"), c["case"]): c["result"] for c in cases}
        want = {("a_test", "passes"): "pass", ("a_test", "fails_on_purpose"): "fail",
                ("a_test", "skips_on_purpose"): "skip", ("b_test", "runs_one_of_two"): "pass",
                ("selfmon-tap", "plan"): "fail"}
        tap.add(got == want, "%s a failing test is fail in LAVA, a skip skip, and 4 results "
                "for plans summing to 5 fail the plan check%s" % (tag, "" if got == want else ": %s" % got))
        return
    timeout = NEGATIVE[name][1]
    # The job's verdict, not the dispatcher's exit status, says what
    # happened; the guest's time adds the boot, well under the prompt's.
    within = secs < timeout + PROMPT_TIMEOUT_S
    reached = any("on purpose" in line for line in console)
    if name == "panic":
        reached = reached and any("Kernel panic" in line for line in console)
    tap.add(verdict == "fail" and within and reached and not lava_tests(cases),
            "%s a guest that %ss fails the job in %.0f s (test timeout %d s): %s"
            % (tag, "hang" if name == "hang" else "panic", secs, timeout,
               (error or verdict) if reached else "the guest never ran the test: " + str(error)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--validate-only", action="store_true")
    ap.add_argument("--jobs", default="max,cortex-a72,biglittle")
    ap.add_argument("--negative", default="fail,hang,panic")
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--kernel", help="the arm64 kernel Image (scripts/vm/fetch-kernel.sh prints it)")
    for a in ("root", "build", "check", "bundle", "vm"):
        ap.add_argument(a)
    args = ap.parse_args()
    for a in ("root", "build", "check", "bundle", "vm"):
        setattr(args, a, os.path.abspath(getattr(args, a)))
    os.makedirs(args.build, exist_ok=True)
    os.makedirs(args.check, exist_ok=True)
    tap = Tap()
    dtypes = device_types(args.build)
    check_jobs(tap, args.root, args.build, dtypes)
    check_parser(tap, args.root, args.build)
    if not args.validate_only:
        run_all(tap, args, dtypes)
    with open(os.path.join(args.check, "lava.tap"), "w") as f:
        f.write("\n".join(tap.lines) + "\n")
    return 0 if all(not l.startswith("not ok") for l in tap.lines) else 1


def run_all(tap, args, dtypes):
    if not os.path.exists(args.bundle):
        tap.add(False, "[lava] no bundle at %s: make ARCH=arm64 ... tests-bundle" % args.bundle)
        return
    runner = Runner(args, dtypes)
    runner.prepare()
    boards = [b for b in args.jobs.split(",") if b]
    negatives = [n for n in args.negative.split(",") if n]
    work = [("board", b, runner.load(b)) for b in boards]
    work += [("negative", n, negative_job(runner, n)) for n in negatives]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        futures = [pool.submit(runner.run, "%s-%s" % (kind, name), job, i)
                   for i, (kind, name, job) in enumerate(work)]
        for (kind, name, _), fut in zip(work, futures):
            outcome = fut.result()
            print("# lava: %s %s: %.1f s (log %s)" % (kind, name, outcome[2], os.path.join(
                runner.runs, "%s-%s" % (kind, name), "lava.log")), flush=True)
            (check_board if kind == "board" else check_negative)(tap, name, outcome)


if __name__ == "__main__":
    sys.exit(main())
