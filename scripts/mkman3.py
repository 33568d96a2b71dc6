#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Section 3 man pages from the public headers' doc comments.

  mkman3.py KERNEL_DOC OUTDIR VERSION HEADER...

The kernel's scripts/kernel-doc reads the /** doc comments */ of each header
(the kernel's doc-guide, "Writing kernel-doc comments": "name() - summary",
then @argument lines, a description and "Return:") and writes one man page
per function. Each page becomes OUTDIR/<function>.3: section 3 of selfmon's
manual rather than the kernel's section 9, with the header to include in its
synopsis and selfmon(7) in its SEE ALSO.

Every function a header declares or defines inline at file scope is a public
function, and so is an inline one right after a /** doc comment: one without
a page (no doc comment in that form, or one kernel-doc cannot read) is named
with its header, listed in OUTDIR/missing.txt, and the exit status is 3.
OUTDIR/pages.txt lists the pages written.
"""
import os
import re
import subprocess
import sys
import tempfile

FUNC = re.compile(r'(?:^|[;}]\s*)'                    # a declaration starts afresh
                  r'(?!return\b|typedef\b)'
                  r'((?:(?:extern|static|inline|SELFMON_HOT|const|unsigned|signed|struct|enum)\s+)*)'
                  r'\w+[\s\*]+(selfmon_\w+)\s*\(', re.M)
# An inline function right after its /** doc comment (the others, with a
# plain comment, are the inline read's own helpers).
DOC_INLINE = re.compile(r'/\*\*(?!<)(?:(?!\*/).)*\*/[ \t]*\n[ \t]*(?:SELFMON_HOT|static)\b[^;{(]*?\b(selfmon_\w+)\s*\(',
                        re.S)
# A one-line doc comment, which kernel-doc reads only when opened on a line
# of its own: "/** name() - summary */" becomes three lines.
ONE_LINE_DOC = re.compile(r'(?m)^([ \t]*)/\*\*(?!<)[ \t]*(\S.*?)[ \t]*\*/[ \t]*$')


def file_scope(text):
    """The header's text at file scope: comments, preprocessor lines and
    function bodies left out (extern "C" { } is no scope)."""
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', '', text)
    text = text.replace('extern "C" {', ' ')
    out, depth = [], 0
    for ch in text:
        if ch == '{':
            depth += 1
        if depth == 0:
            out.append(ch)
        if ch == '}':
            depth = max(depth - 1, 0)
            if depth == 0:
                out.append(';')
    return ''.join(out)


def public_functions(path):
    """The functions a header declares (not inline), and the inline ones it
    documents with /**."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    names = {name for quals, name in FUNC.findall(file_scope(text))
             if not re.search(r'\b(static|inline|SELFMON_HOT)\b', quals)}
    return sorted(names | set(DOC_INLINE.findall(text)))


def pages(kernel_doc, header):
    """{name: page} of the function pages kernel-doc writes for @header."""
    with open(header, encoding='utf-8') as f:
        text = ONE_LINE_DOC.sub(lambda m: f'{m[1]}/**\n{m[1]} * {m[2]}\n{m[1]} */', f.read())
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(header))
        with open(copy, 'w', encoding='utf-8') as f:
            f.write(text)
        res = subprocess.run(['perl', kernel_doc, '-man', copy], capture_output=True, text=True,
                             check=False)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit(f'mkman3: kernel-doc failed on {header}')
    out = {}
    for chunk in re.split(r'(?m)^(?=\.TH )', res.stdout):
        m = re.match(r'\.TH "([^"]+)"', chunk)
        if m and re.fullmatch(r'selfmon_\w+', m.group(1)):
            out[m.group(1)] = chunk
    return out


def as_section3(name, page, header, version):
    inc = header.split('include/', 1)[-1]
    # An argument the comment does not describe: its name and type in the
    # synopsis say what there is; no "-- undescribed --" line.
    page = re.sub(r'(?m)^\.IP "[^"]*" \d+\n-- undescribed --\n', '', page)
    page = re.sub(r'(?m)^\.SH ARGUMENTS\n(?=\.SH|\Z)', '', page)
    # kernel-doc leaves the summary's @argument as written
    page = re.sub(r'(?m)^(\S+ \\- .*)$', lambda m: re.sub(r'@(\w+)', r'\\fI\1\\fP', m[1]), page, count=1)
    page = re.sub(r'(?m)^\.TH .*$',
                  f'.TH "{name}" 3 "" "selfmon {version}" "selfmon Programmer\'s Manual"', page, count=1)
    page = page.replace('.SH SYNOPSIS\n', f'.SH SYNOPSIS\n.nf\n.B #include <{inc}>\n.fi\n.sp\n', 1)
    return page.rstrip('\n') + ('\n.SH "SEE ALSO"\n.BR selfmon (7),\n.BR selfmon (1)\n')


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    kernel_doc, outdir, version, headers = argv[1], argv[2], argv[3], argv[4:]
    os.makedirs(outdir, exist_ok=True)
    missing, written = [], []
    for h in headers:
        got = pages(kernel_doc, h)
        for name, page in got.items():
            with open(os.path.join(outdir, name + '.3'), 'w', encoding='utf-8') as f:
                f.write(as_section3(name, page, h, version))
            written.append(name)
        missing += [f'{h}: {n}()' for n in public_functions(h) if n not in got]
    with open(os.path.join(outdir, 'pages.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(n + '\n' for n in sorted(written)))
    with open(os.path.join(outdir, 'missing.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(m + '\n' for m in missing))
    for m in missing:
        print(f'mkman3: {m} has no man page: give it a doc comment "/**\\n * name() - what it does"'
              ' with its @arguments and "Return:" (the kernel\'s doc-guide, "Function documentation")',
              file=sys.stderr)
    return 3 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
