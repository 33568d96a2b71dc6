#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Functions under ~60 lines (docs/architecture.md, "Conventions"), checked.

A function counts from the first line of its signature to its closing brace,
in the kernel's layout that the tree keeps (checkpatch): the signature starts
in column 0, the body's braces stand alone in column 0. Each FILE is read as
text; nothing is compiled.

Usage: check-funclen.py [--max N] [--self-test] FILE...
Prints FILE:LINE: NAME: N lines, over MAX for each function over the limit
not in EXEMPT; exits 1 if there is one.
"""
import argparse
import re
import sys

# Functions that stay whole, and why.
EXEMPT = {
    # The seqlock read of the perf mmap page: one body, so that each caller's
    # inlined copy keeps only the half it needs; its instructions are a budget.
    "selfmon_priv_page_read_times",
}

NAME = re.compile(r"(\w+)\s*\(")


def functions(lines):
    """(first line, name, length) of each function body in @lines (0-based)."""
    i = 0
    while i < len(lines):
        if lines[i].rstrip() != "{":
            i += 1
            continue
        # The signature: the lines above, back to the one in column 0.
        start = i - 1
        while start > 0 and lines[start][:1] in ("\t", " "):
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != "}":
            end += 1
        m = NAME.search(" ".join(lines[start:i]))
        if m and start >= 0:
            yield start, m.group(1), end - start + 1
        i = end + 1


def check(path, text, limit):
    found = []
    for start, name, n in functions(text.split("\n")):
        if n > limit and name not in EXEMPT:
            found.append(f"{path}:{start + 1}: {name}: {n} lines, over {limit}")
    return found


def self_test(limit):
    """A function of @limit lines passes, one of a line more fails, unless exempt."""
    body = "\tx();\n" * (limit - 4)
    at_limit = f"static int short_fn(int a,\n\t\t    int b)\n{{\n{body}}}\n"
    over = f"int long_fn(void)\n{{\n{body}\tx();\n\tx();\n}}\n"
    exempt = f"int selfmon_priv_page_read_times(void)\n{{\n{body}\tx();\n\tx();\n}}\n"
    return (check("t.c", at_limit, limit) == [] and len(check("t.c", over, limit)) == 1
            and check("t.c", exempt, limit) == [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=60)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        ok = self_test(a.max)
        print("function length self-test:", "ok" if ok else "FAILED")
        return 0 if ok else 1
    found = []
    for f in a.files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            found += check(f, fh.read(), a.max)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
