#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The library's formats use only what its own formatter takes, checked.

core/fmt.c formats the library's messages and paths instead of the C
library's printf family (core/fmt.h says why). It takes the flags '-', '0'
and '#', a width and a precision, the lengths hh, h, l, ll, z, j and t and
the conversions d, i, u, x, X, c, s, p and %; any other directive would be copied
out as it stands, its argument left unread, so it must not reach it. This
finds the format strings of the calls that go there (FORMATTERS) in each
FILE and names every directive outside that set. Each FILE is read as text.

Usage: check-fmt.py [--self-test] FILE...
Prints FILE:LINE: NAME: directive '%..' for each one; exits 1 if any.
"""
import re
import sys

# The calls whose format core/fmt.c expands: the formatter itself and the
# library's message and note functions built on it.
FORMATTERS = ("selfmon_fmt__print", "selfmon_fmt__vprint", "selfmon__err", "record_err", "note")

CALL = re.compile(r"\b(" + "|".join(FORMATTERS) + r")\s*\(")
DIRECTIVE = re.compile(r"%([-+ #0]*)(\*|[0-9]+)?(\.(\*|[0-9]+))?(hh|h|ll|l|z|j|t|L|q)?(.)", re.S)
TAKEN_FLAGS = set("-0#")
TAKEN_CONV = set("diuxXcsp%")


def strip_comments(text):
    """@text with comments blanked, newlines kept (lines still count)."""
    def blank(m):
        s = m.group(0)
        return s if s[0] in "\"'" else re.sub(r"[^\n]", " ", s)
    return re.sub(r'"(\\.|[^"\\\n])*"|\'(\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


def call_literals(text, start):
    """The string literals among a call's arguments from @start (its '(')."""
    depth, i, out = 0, start, []
    while i < len(text):
        c = text[i]
        if c == '"':
            m = re.compile(r'"((\\.|[^"\\])*)"', re.S).match(text, i)
            out.append(m.group(1))
            i = m.end()
            continue
        if c == "'":
            i = re.compile(r"'(\\.|[^'\\])*'").match(text, i).end()
            continue
        depth += c == "("
        depth -= c == ")"
        if depth == 0:
            break
        i += 1
    return "".join(out)


def check(name, text):
    """Findings, one line each, for the file @name holding @text."""
    text = strip_comments(text)
    found = []
    for m in CALL.finditer(text):
        fmt = call_literals(text, m.end() - 1).replace("%%", "")
        line = text.count("\n", 0, m.start()) + 1
        for d in DIRECTIVE.finditer(fmt):
            flags, length, conv = d.group(1), d.group(5) or "", d.group(6)
            if set(flags) - TAKEN_FLAGS or length in ("L", "q") or conv not in TAKEN_CONV:
                found.append("%s:%d: %s: directive '%s' is not core/fmt.c's"
                             % (name, line, m.group(1), d.group(0)))
    return found


def self_test():
    good = 'x = selfmon__err(-EINVAL, "event \'%.40s...\': %d of %zu, %-8s %02x %#llx %p %llu %%",\n a, b);'
    bad = 'selfmon_fmt__print(buf, n, "ratio %.2f" /* "%g" */, r);\nnote(p, "%+d %Lu",\n 1, 2);'
    assert check("good.c", good) == [], check("good.c", good)
    got = check("bad.c", bad)
    assert [g.split(": directive ")[1].split("'")[1] for g in got] == ["%.2f", "%+d", "%Lu"], got
    assert got[1].startswith("bad.c:2: note:"), got
    return 0


def main(argv):
    if argv[:1] == ["--self-test"]:
        return self_test()
    found = []
    for name in argv:
        with open(name, encoding="utf-8") as f:
            found += check(name, f.read())
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
