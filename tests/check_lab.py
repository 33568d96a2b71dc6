#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""make check-lab: selfmon's jobs through a real LAVA lab (scripts/lab/lab.sh).

With the lab up (lava-server, scheduler, PostgreSQL and a worker with two
QEMU devices, in a chroot, on 127.0.0.1):
1. the bundle's jobs (-cpu max, cortex-a72) are submitted with lavacli, and
   the max job also runs under lava-run, LAVA's dispatcher alone, on this
   host; the results the REST API gives (scripts/lab-run --job-id) equal
   lava-run's: the same test names and results, the same measurements;
2. the gate: `selfmon compare` on the report from lava-run and the one
   from the lab passes;
3. a program whose TAP fails a test, run with scripts/lab-run: the API
   shows the failure, lab-run exits 1 naming the job and its log's URL,
   and the gate fails on its report;
4. a job for a device type the lab lacks and a job file LAVA's schema
   refuses are refused at submission, with the server's reason, by lavacli
   and by lab-run.
TAP on stdout and in CHECKDIR/lab.tap; reports, JUnit and logs in CHECKDIR/lab/.

Usage: tests/check_lab.py LAB_RUN_DIR CHECKDIR SELFMON BUNDLE_TGZ VMDIR KERNEL
"""
import collections
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import threading
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "lava"))
import check as lavacheck  # noqa: E402  (lava/check.py: rendering, log reading)

labrun = importlib.machinery.SourceFileLoader(
    "labrun", os.path.join(ROOT, "scripts/lab-run")).load_module()

BOARDS = ("max", "cortex-a72")


# Counts that vary from boot to boot even on the emulated board: the
# kernel's side of read(2), and a mean over calls where a read that met an
# interrupt is retried (59.000 one run, 59.021 the next).
VARIES = {"bench_exact_test.readcost.read2_total", "cost_test.set_read.call"}


def exact(units, name=""):
    """Counts are exact on the emulated board (one vCPU, icount): the
    instructions and cycles; a time ratio or a share of time is not."""
    return units.split("/")[0] in ("instructions", "cycles") and name not in VARIES
FAIL_PROGRAM = """#!/bin/sh
echo "TAP version 13"
echo "# suite: /bundle/bin/a_test"
echo "1..3"
echo "ok 1 - passes"
echo "not ok 2 - fails_on_purpose"
echo "ok 3 - skips_on_purpose # SKIP on purpose"
"""


def sh(cmd, env=None, **kw):
    return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, **kw)


class Check:
    def __init__(self, args):
        (self.run_dir, self.checkdir, self.selfmon, self.bundle, self.vm,
         self.kernel) = [os.path.abspath(a) for a in args]
        os.makedirs(self.checkdir, exist_ok=True)
        with open(os.path.join(self.run_dir, "lab.env")) as f:
            self.env = dict(l.strip().split("=", 1) for l in f if "=" in l)
        self.root = self.env["LAB_ROOT"]
        # What a run leaves to read (reports, JUnit, lava-run's log): beside
        # lab.tap, not in the lab's folder, which the next start empties.
        self.out = os.path.join(self.checkdir, "lab")
        self.tap = lavacheck.Tap()
        self.cli_env = dict(os.environ, HOME=os.path.join(self.run_dir, "home"),
                            XDG_CONFIG_HOME=os.path.join(self.run_dir, "home/.config"))

    # ---- what the jobs fetch ----
    def artifacts(self):
        """Kernel, ramdisk and bundle inside the lab's tree (the dispatcher
        runs there: file:///srv/lab) and, for lava-run, on this host."""
        host = os.path.join(self.run_dir, "artifacts")
        os.makedirs(host, exist_ok=True)
        ramdisk = os.path.join(host, "selfmon-ramdisk.cpio.gz")
        subprocess.run([os.path.join(ROOT, "lava/mkramdisk.sh"), os.path.join(self.vm, "busybox"),
                        ramdisk], check=True, stdout=subprocess.DEVNULL)
        shutil.copy(self.kernel, os.path.join(host, "vmlinuz"))
        shutil.copy(self.bundle, os.path.join(host, "selfmon-tests-arm64.tar.gz"))
        self.srv = os.path.join(self.root, "srv/lab")
        shutil.copytree(host, self.srv, dirs_exist_ok=True)
        # The git-referenced definition: a repository of this tree's lava/
        # folder, where the lab's dispatcher clones it.
        repo = os.path.join(self.srv, "definition.git")
        shutil.rmtree(repo, ignore_errors=True)
        os.makedirs(os.path.join(repo, "lava"))
        for f in ("selfmon.yaml", "selfmon-lava.sh"):
            shutil.copy(os.path.join(ROOT, "lava", f), os.path.join(repo, "lava"))
        git = ["git", "-C", repo, "-c", "user.name=selfmon", "-c", "user.email=selfmon@localhost"]
        for cmd in (["init", "-q"], ["add", "lava"], ["commit", "-q", "-m", "selfmon's LAVA test definition"]):
            subprocess.run(git + cmd, check=True)
        return host

    def job_text(self, board, artifacts):
        """lava/jobs/qemu-BOARD.yaml for the lab (artifacts file:///srv/lab)
        or for lava-run on this host."""
        repo = "/srv/lab/definition.git" if artifacts.startswith("file:///srv/lab") else \
            os.path.join(self.srv, "definition.git")
        with open(os.path.join(ROOT, "lava/jobs/qemu-%s.yaml" % board)) as f:
            return f.read().replace("@ARTIFACTS@", artifacts).replace("@REPOSITORY@", repo)

    # ---- lava-run on the host: the reference ----
    def lava_run(self, host_art, result):
        d = os.path.join(self.out, "lava-run-max")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        job = yaml.safe_load(self.job_text("max", "file://" + host_art))
        with open(os.path.join(d, "job.yaml"), "w") as f:
            yaml.safe_dump(job, f, sort_keys=False)
        # The device types the lab's server renders with, for the same device.
        dtypes = os.path.join(self.root, "usr/share/lava-server/device-types")
        with open(os.path.join(d, "device.yaml"), "w") as f:
            f.write(lavacheck.render_device(os.path.join(ROOT, "lava/devices/qemu-selfmon.jinja2"),
                                            [dtypes], job.get("context", {})))
        with open(os.path.join(d, "lava.log"), "w") as err:
            rc = subprocess.run(["lava-run", "--job-id", str(os.getpid()), "--output-dir",
                                 os.path.join(d, "out"), "--device", os.path.join(d, "device.yaml"),
                                 os.path.join(d, "job.yaml")],
                                stdout=subprocess.DEVNULL, stderr=err).returncode
        cases, _, verdict, error = lavacheck.job_view(lavacheck.read_log(os.path.join(d, "lava.log")))
        result.update(rc=rc, cases=cases, verdict=verdict, error=error, log=os.path.join(d, "lava.log"))

    # ---- lavacli ----
    def lavacli(self, *argv):
        """lavacli in the lab's tree (Debian's, with the lab's identity):
        the host gets no LAVA package but the dispatcher."""
        return sh(["chroot", self.root, "/usr/bin/env", "-i", "HOME=/root", "LANG=C.UTF-8",
                   "PATH=/usr/bin:/bin", "lavacli", "-i", "lab"] + list(argv))

    def in_lab(self, name, text):
        """Write TEXT in the lab's tree; its path there."""
        os.makedirs(os.path.join(self.srv, "jobs"), exist_ok=True)
        with open(os.path.join(self.srv, "jobs", name), "w") as f:
            f.write(text)
        return "/srv/lab/jobs/" + name

    def submit_boards(self):
        ids = {}
        for b in BOARDS:
            r = self.lavacli("jobs", "submit", self.in_lab("%s.yaml" % b, self.job_text(b, "file:///srv/lab")))
            ok = r.returncode == 0 and r.stdout.strip().isdigit()
            self.tap.add(ok, "[lab %s] lavacli jobs submit: job %s" % (b, r.stdout.strip()))
            if ok:
                ids[b] = int(r.stdout.strip())
        return ids

    def refusals(self):
        """A missing device type and an invalid job file: refused with the
        server's reason, by lavacli and by lab-run."""
        job = yaml.safe_load(self.job_text("max", "file:///srv/lab"))
        cases = {"missing device type": (dict(job, device_type="no-such-board"),
                                         "Device type 'no-such-board' is unavailable"),
                 "invalid job file": (dict(job, timeouts={"job": {"fortnights": 1}}), "fortnights")}
        for what, (definition, reason) in cases.items():
            path = os.path.join(self.run_dir, "refused-%s.yaml" % what.replace(" ", "-"))
            with open(path, "w") as f:
                yaml.safe_dump(definition, f, sort_keys=False)
            with open(path) as f:
                r = self.lavacli("jobs", "submit", self.in_lab(os.path.basename(path), f.read()))
            # lavacli 1.2 prints the refusal and exits 0: the text decides.
            self.tap.add("Unable to submit" in r.stdout and reason in r.stdout,
                         "[lab refuses] %s: lavacli (exit %d) prints the server's reason: %s"
                         % (what, r.returncode, r.stdout.strip().splitlines()[-1:] or "nothing"))
            r = sh([os.path.join(ROOT, "scripts/lab-run"), "--identity", "lab", "--board", path,
                    "--out", os.path.join(self.out, "refused")], env=self.cli_env)
            self.tap.add(r.returncode == 2 and reason in r.stdout and "refused" in r.stdout,
                         "[lab refuses] %s: lab-run exits %d: %s"
                         % (what, r.returncode, r.stdout.strip().splitlines()[-1:] or "nothing"))

    def run(self):
        host_art = self.artifacts()
        ref = {}
        thread = threading.Thread(target=self.lava_run, args=(host_art, ref))
        thread.start()
        ids = self.submit_boards()
        self.refusals()
        fail_rc, fail_text = self.fail_job()
        for b, j in ids.items():
            r = self.lavacli("jobs", "wait", str(j))
            self.tap.add(r.returncode == 0, "[lab %s] lavacli jobs wait %d" % (b, j))
        cmd = [os.path.join(ROOT, "scripts/lab-run"), "--identity", "lab", "--out", self.out]
        for j in ids.values():
            cmd += ["--job-id", str(j)]
        r = sh(cmd, env=self.cli_env)
        print("# " + r.stdout.strip().replace("\n", "\n# "))
        self.tap.add(r.returncode == 0 and len(ids) == len(BOARDS),
                     "[lab] lab-run --job-id: every bundle job Complete, no test failed (exit %d)"
                     % r.returncode)
        thread.join()
        if "max" in ids:
            self.api_against_console(ids["max"])
        self.compare_with_lava_run(ref, ids)
        self.fail_checks(fail_rc, fail_text)
        with open(os.path.join(self.checkdir, "lab.tap"), "w") as f:
            f.write("\n".join(self.tap.lines) + "\n")
        return 0 if all(not l.startswith("not ok") for l in self.tap.lines) else 1

    # ---- 1. the API against the job's own console, and against lava-run ----
    def api_against_console(self, job_id):
        """The TAP the bundle printed in the lab's job (its log, through the
        API), parsed by lava/selfmon-lava.sh: the API must give every line
        of it, with the same result, measurement and units."""
        lab = labrun.Lab(self.env["LAB_URL"], self.env["LAB_TOKEN"])
        console = []
        for line in lab.call("/api/v0.2/jobs/%d/logs/" % job_id, raw=True).splitlines():
            if line.startswith("- {"):
                rec = yaml.load(line[2:], Loader=yaml.CSafeLoader)
                if rec.get("lvl") == "target" and isinstance(rec.get("msg"), str):
                    console.append(rec["msg"].replace("\r", ""))
        tapfile = os.path.join(self.out, "max.console.tap")
        with open(tapfile, "w") as f:
            f.write("\n".join(console) + "\n")
        parsed = sh(["sh", os.path.join(ROOT, "lava/selfmon-lava.sh"), "parse", tapfile]).stdout
        want = set()
        for line in parsed.splitlines():
            w = line.split()
            if len(w) >= 3 and not line.startswith("#"):
                want.add((w[0], w[1], w[2], float(w[3]) if len(w) > 3 else None, w[4] if len(w) > 4 else ""))
        with open(os.path.join(self.out, "max.results.json")) as f:
            got = {(c["set"], c["name"], c["result"], c["measurement"], c["units"])
                   for c in json.load(f)["tests"] if c["suite"] != "lava"}
        diff = sorted(got ^ want, key=str)[:4]
        self.tap.add(got == want and len(want) > 100,
                     "[lab max] the API gives each of the %d results the bundle printed in the job's "
                     "log, the same result, measurement and units%s"
                     % (len(want), ": differ on %s" % diff if diff else ""))

    def compare_with_lava_run(self, ref, ids):
        self.tap.add(ref.get("rc") == 0 and ref.get("verdict") == "pass",
                     "[lava-run max] completes the job (exit %s, %s%s)"
                     % (ref.get("rc"), ref.get("verdict"), ref.get("error") and ": " + ref["error"]))
        path = os.path.join(self.out, "max.results.json")
        if "max" not in ids or not os.path.exists(path):
            self.tap.add(False, "[lab max] no results from the API to compare")
            return
        with open(path) as f:
            api = [c for c in json.load(f)["tests"] if c["suite"] != "lava"]
        local = [{"suite": c.get("definition", ""), "set": c.get("set") or c.get("definition", ""),
                  "name": c["case"], "result": c["result"],
                  "measurement": float(c["measurement"]) if "measurement" in c else None,
                  "units": c.get("units", "")} for c in ref.get("cases", [])]
        got = collections.Counter((c["set"], c["name"], c["result"]) for c in api)
        want = collections.Counter((c["set"], c["name"], c["result"]) for c in local)
        count = lambda c: tuple(sum(n for k, n in c.items() if k[2] == r) for r in ("pass", "fail", "skip"))
        diff = sorted((got - want).keys())[:3] + sorted((want - got).keys())[:3]
        self.tap.add(got == want and sum(got.values()) > 0,
                     "[lab max] the REST API's test cases equal lava-run's: %d pass, %d fail, %d skip "
                     "(lava-run %d, %d, %d)%s" % (count(got) + count(want)
                                                  + ("" if got == want else ": differ on %s" % diff,)))
        am = {(c["set"], c["name"]): (c["measurement"], c["units"]) for c in api if c["measurement"] is not None}
        lm = {(c["set"], c["name"]): (c["measurement"], c["units"]) for c in local
              if c["measurement"] is not None}
        keys = set(am) | set(lm)
        counts = sorted(k for k in keys if exact((am.get(k) or lm.get(k))[1], k[1]))
        bad = [k for k in counts if am.get(k) != lm.get(k)]
        self.tap.add(set(am) == set(lm) and counts and not bad,
                     "[lab max] the API has lava-run's %d measurements; its %d counts "
                     "(instructions, cycles) equal lava-run's, value and units%s"
                     % (len(lm), len(counts), "" if not bad else ": differ on %s"
                        % [(k, am.get(k), lm.get(k)) for k in bad[:3]] + (
                            "; on one side only: %s" % sorted(set(am) ^ set(lm))[:3]
                            if set(am) != set(lm) else "")))
        for k in sorted(keys):
            a, l = am.get(k, (float("nan"), "")), lm.get(k, (float("nan"), ""))
            self.tap.note("%-52s API %10g  lava-run %10g  %s%s" % (
                "%s/%s" % k, a[0], l[0], a[1] or l[1], "" if exact(a[1] or l[1], k[1]) else "  (not exact)"))
        # The gate: lava-run's report as the base, the lab's as the new.
        base = os.path.join(self.out, "max.lava-run.json")
        with open(base, "w") as f:
            json.dump(labrun.report("max", "lava-run", local), f, indent=1)
        # The counts: not one instruction more where they are exact; +1%
        # where the kernel's share or a retried read moves them (1464 vs
        # 1458 instructions), still under one instruction on a 21.
        gate = []
        for u in sorted({u for _, u in lm.values() if exact(u)}):
            varies = any(k[1] in VARIES and lm[k][1] == u for k in lm)
            gate += ["--metric", u, "--limit", u + ("=+1%" if varies else "=+0%")]
        r = sh([self.selfmon, "compare"] + gate + ["--format", "junit", "--out",
               os.path.join(self.out, "gate-max.xml"), base, os.path.join(self.out, "max.json")])
        print("# " + r.stdout.strip().replace("\n", "\n# "))
        self.tap.add(r.returncode == 0, "[lab gate] selfmon compare lava-run's report, the lab's: exit %d"
                     % r.returncode)

    # ---- 3. a failing program through lab-run ----
    def fail_job(self):
        prog = os.path.join(self.run_dir, "fails.sh")
        with open(prog, "w") as f:
            f.write(FAIL_PROGRAM)
        os.chmod(prog, 0o755)
        r = sh([os.path.join(ROOT, "scripts/lab-run"), "--identity", "lab", "--board", "max",
                "--artifacts", "file:///srv/lab", "--publish", self.srv, "--out",
                os.path.join(self.out, "fail"), "--timeout", "900", prog], env=self.cli_env)
        return r.returncode, r.stdout

    def fail_checks(self, rc, text):
        print("# " + text.strip().replace("\n", "\n# "))
        self.tap.add(rc == 1 and "fails_on_purpose" in text and "/scheduler/job/" in text,
                     "[lab fail] lab-run exits %d on a failing test, naming the job, the test and "
                     "the log's URL" % rc)
        path = os.path.join(self.out, "fail", "max.results.json")
        got = {}
        if os.path.exists(path):
            with open(path) as f:
                got = {(c["set"], c["name"]): c["result"] for c in json.load(f)["tests"]
                       if c["suite"] != "lava"}
        want = {("a_test", "passes"): "pass", ("a_test", "fails_on_purpose"): "fail",
                ("a_test", "skips_on_purpose"): "skip", ("selfmon-tap", "plan"): "pass"}
        self.tap.add(got == want, "[lab fail] the API gives the failing test as fail%s"
                     % ("" if got == want else ": %s" % got))
        r = sh([self.selfmon, "compare", "--allow-missing", "--metric", "instructions/read",
                os.path.join(self.out, "max.json"),
                os.path.join(self.out, "fail", "max.json")])
        print("# " + r.stdout.strip().replace("\n", "\n# "))
        self.tap.add(r.returncode == 1 and "FAILED" in r.stdout,
                     "[lab gate] selfmon compare fails on the failing test's report: exit %d" % r.returncode)


def main():
    if len(sys.argv) != 7:
        print(__doc__.split("Usage: ")[1], file=sys.stderr)
        return 2
    c = Check(sys.argv[1:])
    start = time.monotonic()
    rc = c.run()
    print("# check-lab: jobs and checks in %.0f s" % (time.monotonic() - start))
    return rc


if __name__ == "__main__":
    sys.exit(main())
