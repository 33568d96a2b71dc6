#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What bitbake would run of a recipe, for tests/check_recipes.sh.

Reads a .bb and the files it requires with the subset of bitbake's syntax a
plain make-based recipe uses (assignments with =, ?=, ??=, :=, +=, =+, .=,
the :append and :prepend overrides, flags, export, inherit, require, shell
tasks), and expands ${VAR} and ${@...} (d.getVar, bb.utils.contains,
bb.utils.filter) the way bitbake does, against the values a build gives
(--set VAR=VALUE: the toolchain, the directories). A variable that neither
the recipe nor --set defines is an error, where bitbake would leave the
text "${VAR}" in the shell script: a renamed variable fails the replay.

  bb_replay.py RECIPE.bb [--set VAR=VALUE]... script TASK
      the task's shell function, expanded, with oe_runmake as base.bbclass
      defines it (EXTRA_OEMAKE, PARALLEL_MAKE in do_compile, PARALLEL_MAKEINST
      in do_install), preceded by the exported variables; on stdout.
  bb_replay.py RECIPE.bb [--set ...] packages DESTDIR
      each file under DESTDIR (the task's ${D}) and the package whose FILES
      take it first, in PACKAGES order (bitbake.conf's defaults and the
      recipe's); exit 1 if a file is in none (Yocto's installed-vs-shipped)
      or a package's LICENSE names a licence the recipe's LICENSE does not.
  bb_replay.py RECIPE.bb [--set ...] get VAR
"""
import fnmatch
import os
import re
import shlex
import sys

# bitbake.conf's package split (the parts a library and a command use).
DEFAULTS = {
    "PACKAGES": "${PN}-src ${PN}-dbg ${PN}-staticdev ${PN}-dev ${PN}-doc ${PN}-locale ${PACKAGE_BEFORE_PN} ${PN}",
    "PACKAGE_BEFORE_PN": "",
    "SOLIBS": ".so.*",
    "SOLIBSDEV": ".so",
    "FILES:${PN}": "${bindir}/* ${sbindir}/* ${libexecdir}/* ${libdir}/lib*${SOLIBS} ${sysconfdir} "
                   "${datadir}/${BPN} ${libdir}/${BPN}/*",
    "FILES:${PN}-dev": "${includedir} ${libdir}/lib*${SOLIBSDEV} ${libdir}/*.la ${libdir}/*.o "
                       "${libdir}/pkgconfig ${datadir}/pkgconfig ${datadir}/aclocal ${libdir}/cmake ${datadir}/cmake",
    "FILES:${PN}-staticdev": "${libdir}/*.a ${base_libdir}/*.a ${libdir}/${BPN}/*.a",
    "FILES:${PN}-doc": "${docdir} ${mandir} ${infodir} ${datadir}/gtk-doc ${datadir}/gnome/help",
    "FILES:${PN}-locale": "${datadir}/locale",
    "FILES:${PN}-src": "",
    "FILES:${PN}-dbg": "",
    # bitbake.conf: EXTRA_OEMAKE:prepend:task-compile = "${PARALLEL_MAKE} "
    "MAKE": "make",
}
# What bitbake.conf exports to every task.
EXPORTED = ("CC", "CPP", "CXX", "LD", "AR", "NM", "OBJCOPY", "STRIP", "RANLIB", "CFLAGS", "CPPFLAGS",
            "CXXFLAGS", "LDFLAGS", "prefix", "exec_prefix", "base_prefix", "bindir", "sbindir",
            "libexecdir", "libdir", "includedir", "datadir", "mandir", "docdir", "sysconfdir")


class Recipe:
    def __init__(self):
        self.vars = {}       # name -> raw value
        self.weak = {}       # ??= defaults
        self.appends = {}    # name -> [(op, raw)]
        self.funcs = {}
        self.inherits = []
        self.errors = []

    def parse(self, path):
        text = open(path).read()
        lines = text.replace("\\\n", " ").split("\n")
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(?:python\s+)?([\w${}.:-]+)\s*\(\)\s*\{$", line)
            if m:
                body = []
                while i < len(lines) and lines[i].rstrip() != "}":
                    body.append(lines[i])
                    i += 1
                i += 1
                self.funcs[m.group(1)] = "\n".join(body)
                continue
            m = re.match(r"^(inherit|require|include)\s+(.*)$", line)
            if m:
                if m.group(1) == "inherit":
                    self.inherits += m.group(2).split()
                else:
                    inc = os.path.join(os.path.dirname(path), self.expand(m.group(2)))
                    if os.path.exists(inc):
                        self.parse(inc)
                    elif m.group(1) == "require":
                        self.errors.append("require %s: no such file" % m.group(2))
                continue
            m = re.match(r'^(?:export\s+)?([\w${}.:/+-]+)(\[[\w-]+\])?\s*(\?\?=|\?=|:=|\+=|=\+|\.=|=)\s*"(.*)"$', line)
            if not m:
                self.errors.append("cannot parse: %s" % line)
                continue
            name, flag, op, val = m.group(1), m.group(2), m.group(3), m.group(4)
            if flag:
                continue
            name = self.expand_name(name)
            for sfx in (":append", ":prepend"):
                if name.endswith(sfx):
                    self.appends.setdefault(name[: -len(sfx)], []).append((sfx, val))
                    break
            else:
                self.assign(name, op, val)

    def assign(self, name, op, val):
        if op == "??=":
            self.weak[name] = val
        elif op == "?=":
            self.vars.setdefault(name, val)
        elif op == ":=":
            self.vars[name] = self.expand(val)
        elif op == "+=":
            self.vars[name] = self.raw(name) + " " + val
        elif op == "=+":
            self.vars[name] = val + " " + self.raw(name)
        elif op == ".=":
            self.vars[name] = self.raw(name) + val
        else:
            self.vars[name] = val

    def expand_name(self, name):
        return re.sub(r"\$\{(\w+)\}", lambda m: self.vars.get(m.group(1), m.group(0)), name)

    def raw(self, name):
        if name in self.vars:
            return self.vars[name]
        if name in self.weak:
            return self.weak[name]
        for k, v in DEFAULTS.items():
            if self.expand_name(k) == name:
                return v
        return None

    def getVar(self, name, expand=True):
        val = self.raw(name)
        if val is None:
            return None
        for op, extra in self.appends.get(name, []):
            val = val + extra if op == ":append" else extra + val
        return self.expand(val) if expand else val

    def expand(self, s, depth=0):
        if depth > 20:
            raise RuntimeError("recursive expansion: %s" % s)

        def one(m):
            inner = m.group(1)
            if inner.startswith("@"):
                return str(eval(inner[1:], {"bb": BB, "d": self, "os": os}))
            val = self.getVar(inner)
            if val is None:
                self.errors.append("${%s} is not defined (bitbake would leave it in the script)" % inner)
                return ""
            return val
        prev = None
        while prev != s:
            prev = s
            s = re.sub(r"\$\{(@[^{}]*|\w[\w:+.-]*)\}", one, s)
        return s


class _Utils:
    @staticmethod
    def contains(var, item, truevalue, falsevalue, d):
        have = set((d.getVar(var) or "").split())
        return truevalue if set(item.split()) <= have else falsevalue

    @staticmethod
    def filter(var, items, d):
        have = (d.getVar(var) or "").split()
        return " ".join(w for w in items.split() if w in have)


class BB:
    utils = _Utils


def licences(expr):
    return set(w for w in re.split(r"[\s&|()]+", expr) if w)


def main(argv):
    recipe = Recipe()
    args = argv[1:]
    path = args.pop(0)
    sets = []
    while args and args[0] == "--set":
        sets.append(args[1].split("=", 1))
        args = args[2:]
    # The build's own values (bitbake.conf's, local.conf's), before the
    # recipe: its ?= and ??= yield to them, its = does not.
    for k, v in sets:
        recipe.vars[k] = v
    recipe.parse(path)
    cmd = args[0]
    if cmd == "get":
        out = recipe.getVar(args[1]) or ""
    elif cmd == "script":
        task = args[1]
        if task not in recipe.funcs:
            print("bb_replay: the recipe has no %s()" % task, file=sys.stderr)
            return 1
        par = {"do_compile": "PARALLEL_MAKE", "do_install": "PARALLEL_MAKEINST"}.get(task)
        oemake = ((recipe.getVar(par) or "") + " " if par else "") + (recipe.getVar("EXTRA_OEMAKE") or "")
        oemake = " ".join(oemake.split())
        out = "set -e\n"
        for k in EXPORTED:
            v = recipe.getVar(k)
            if v is not None:
                out += "export %s=%s\n" % (k, shlex.quote(v))
        out += 'oe_runmake() {\n\techo "NOTE: %s %s $*"\n\t%s %s "$@"\n}\n' % (
            recipe.getVar("MAKE"), oemake.strip(), recipe.getVar("MAKE"), oemake.strip())
        out += "mkdir -p %s\ncd %s\n" % (recipe.getVar("B"), recipe.getVar("B"))
        out += recipe.expand(recipe.funcs[task]) + "\n"
    elif cmd == "packages":
        root = args[1]
        pkgs = recipe.getVar("PACKAGES").split()
        globs = {p: (recipe.getVar("FILES:" + p) or "").split() for p in pkgs}
        out, unshipped = "", []
        for dirpath, _, files in sorted(os.walk(root)):
            for f in sorted(files):
                rel = "/" + os.path.relpath(os.path.join(dirpath, f), root)
                owner = next((p for p in pkgs for g in globs[p]
                              if fnmatch.fnmatchcase(rel, g) or rel.startswith(g.rstrip("/") + "/")), None)
                if owner is None:
                    unshipped.append(rel)
                out += "%s %s\n" % (owner or "-", rel)
        whole = licences(recipe.getVar("LICENSE") or "")
        for p in pkgs:
            lic = recipe.getVar("LICENSE:" + p)
            if lic and not licences(lic) <= whole:
                recipe.errors.append("LICENSE:%s names %s, not in LICENSE (%s)" % (p, lic, " & ".join(sorted(whole))))
        if unshipped:
            recipe.errors.append("installed but not shipped in any package: " + " ".join(unshipped))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    sys.stdout.write(out)
    if recipe.errors:
        for e in recipe.errors:
            print("bb_replay: %s: %s" % (path, e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
