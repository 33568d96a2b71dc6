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


# ---- macros: SELFMON_* a program writes ----
# Internal by name: SELFMON_PRIV_* (the inline paths' own, <selfmon/priv/*.h>),
# "__" inside, a trailing "_", SELFMON_ARCH_*, include guards; and
# SELFMON_HOT, the headers' own attribute for their inline reads.
MACRO_DEF = re.compile(r'(?m)^[ \t]*#[ \t]*define[ \t]+(SELFMON_[A-Z0-9_]+)(\([^)]*\))?([^\n]*)')
INTERNAL_MACROS = {'SELFMON_HOT'}


def public_macro(name):
    return not ('__' in name or name.endswith('_') or name.startswith(('SELFMON_ARCH_', 'SELFMON_PRIV_'))
                or re.search(r'_H(PP)?$', name) or name in INTERNAL_MACROS)


def comment_lines(body):
    """The lines of a doc comment's body (between /** and */), each without
    its leading " * " (a tab after it kept: code)."""
    out = []
    for line in body.split('\n'):
        line = re.sub(r'^[ \t]*\*(?!/) ?', '', line.strip(' ')) if line.strip().startswith('*') \
            else line.strip()
        out.append(line.rstrip())
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def doc_before(text, pos):
    """The /** doc comment that ends right before @pos (blank space
    between), or None."""
    m = re.search(r'/\*\*(?!<)((?:(?!\*/).)*)\*/[ \t]*\n[ \t\n]*\Z', text[:pos], re.S)
    return comment_lines(m.group(1)) if m else None


def macros(path):
    """{name: (args or None, value, doc lines or None)} of @path's public
    macros, the first documented definition of each."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    out = {}
    for m in MACRO_DEF.finditer(text):
        name, args, rest = m.group(1), m.group(2), m.group(3)
        if not public_macro(name):
            continue
        doc = doc_before(text, m.start())
        trail = re.search(r'/\*\*<\s*(.*?)\s*\*/', rest)
        if trail:
            # one of a group: its own line, then the group's comment
            doc = [trail.group(1)] + ([''] + doc if doc else [])
        full = re.match(r'(?:[^\n]*\\\n)*[^\n]*', text[m.end(0) - len(rest):]).group(0)
        value = re.sub(r'\s+', ' ', re.sub(r'/\*.*?\*/|\\\n', ' ', full, flags=re.S)).strip()
        if name not in out or (out[name][2] is None and doc):
            out[name] = (args, value, doc)
    return out


def roff(s):
    """Text for a man page line: backslashes escaped, @arg in italics,
    no line starting a request."""
    s = s.replace('\\', '\\e')
    s = re.sub(r'@(\w+)', r'\\fI\1\\fP', s)
    return re.sub(r'^([.\'])', r'\\&\1', s)


def roff_code(lines):
    """Lines shown as written (.EX/.EE), read back by tests/check_man_examples.sh."""
    out = ['.EX']
    for line in lines:
        line = line.replace('\\', '\\e').replace('-', '\\-')
        out.append(re.sub(r'^([.\'])', r'\\&\1', line))
    return '\n'.join(out + ['.EE'])


def roff_text(lines):
    """Paragraphs of a doc comment: blank lines part them, lines indented
    by a tab are code."""
    paras, cur, code = [], [], []
    for line in lines + ['']:
        if line.startswith('\t'):
            if cur:
                paras.append('\n'.join(cur))
                cur = []
            code.append(line[1:])
            continue
        if code:
            paras.append(roff_code(code))
            code = []
        if line.strip():
            cur.append(roff(line.strip()))
        elif cur:
            paras.append('\n'.join(cur))
            cur = []
    return '\n.PP\n'.join(paras)


def parse_doc(name, lines):
    """(summary, [(arg, text)], description lines) of a kernel-doc comment
    ("NAME() - summary", @arg: lines) or of a plain one (its first
    paragraph the summary)."""
    lines = list(lines)
    first = re.match(r'\s*' + re.escape(name) + r'(?:\([^)]*\))?\s+-\s+(.*)', lines[0])
    summary = [first.group(1) if first else lines[0]]
    lines.pop(0)
    while lines and lines[0].strip() and not re.match(r'\s*@', lines[0]) \
            and not lines[0].startswith('\t'):
        summary.append(lines.pop(0).strip())
    args = []
    while lines and re.match(r'\s*@(\w+|\.\.\.)\s*:', lines[0]):
        a = re.match(r'\s*@(\w+|\.\.\.)\s*:\s*(.*)', lines.pop(0))
        text = [a.group(2)]
        while lines and lines[0].strip() and not re.match(r'\s*@', lines[0]):
            text.append(lines.pop(0).strip())
        args.append((a.group(1), ' '.join(text)))
    summary = ' '.join(summary).rstrip('.')
    return summary, args, lines


def macro_page(name, defs, version):
    """The page of macro @name; defs is [(header, args, value, doc)], one a
    header that defines it (cmocka.h and kselftest.h define the same)."""
    summary, args, desc = parse_doc(name, defs[0][3])
    page = [f'.TH "{name}" 3 "" "selfmon {version}" "selfmon Programmer\'s Manual"',
            '.SH NAME', f'{name} \\- {roff(summary)}', '.SH SYNOPSIS', '.nf']
    for h, _, _, _ in defs:
        page.append(f'.B #include <{h.split("include/", 1)[-1]}>')
    a, value = defs[0][1], defs[0][2]
    shown = f'#define {name}{a}' if a else f'#define {name} {value}'
    page += ['.sp', '\\fB' + roff(shown) + '\\fP', '.fi']
    if args:
        page.append('.SH ARGUMENTS')
        for arg, text in args:
            page += [f'.IP "{arg}" 12', roff(text)]
    paras = [roff_text(desc)] if roff_text(desc) else []
    for h, _, _, doc in defs[1:]:
        other = parse_doc(name, doc)
        paras.append(f'With <{h.split("include/", 1)[-1]}>: {roff(other[0])}.')
        paras += [roff_text(other[2])] if roff_text(other[2]) else []
    if paras:
        page += ['.SH DESCRIPTION', '\n.PP\n'.join(paras)]
    return '\n'.join(page) + '\n'


# ---- structs a program fills or reads ----
STRUCT_DEF = re.compile(r'(?m)^struct (selfmon_\w+) \{\n(.*?)^\};', re.S)


def struct_fields(body):
    """[(declaration, doc)] of a struct's body: a field's /** comment
    before it, or its /**< comment after it on its line; a nested struct
    is one field."""
    fields, doc, i, depth, start = [], None, 0, 0, 0
    while i < len(body):
        if body.startswith('/*', i):
            end = body.index('*/', i) + 2
            c = body[i:end]
            if depth == 0:
                if c.startswith('/**<') and fields and fields[-1][1] is None:
                    fields[-1] = (fields[-1][0], ' '.join(comment_lines(c[4:-2])))
                elif c.startswith('/**'):
                    doc = ' '.join(x.strip() for x in comment_lines(c[3:-2]))
                start = end
            i = end
            continue
        ch = body[i]
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        elif ch == ';' and depth == 0:
            decl = re.sub(r'/\*.*?\*/', ' ', body[start:i], flags=re.S)
            decl = re.sub(r'\s+', ' ', re.sub(r'(?m)^\s*#.*$', '', decl)).strip()
            if decl:
                fields.append((decl, doc))
            doc, start = None, i + 1
        i += 1
    return fields


def field_names(decl):
    """The names a field declaration declares ("const char *a, *b" -> a, b)."""
    decl = re.sub(r'\{.*\}', ' ', decl)
    decl = re.sub(r'\[[^]]*\]|:\s*\d+', '', decl)
    return [re.findall(r'(\w+)\s*$', part)[0] for part in decl.split(',') if re.search(r'\w\s*$', part)]


def structs(headers):
    """{name: (header, doc lines, [(declaration, doc)])} of the structs the
    headers define (selfmon_priv_*, and those with "__", are the inline paths' own)."""
    out = {}
    for h in headers:
        with open(h, encoding='utf-8') as f:
            text = f.read()
        for m in STRUCT_DEF.finditer(text):
            if '__' not in m.group(1) and not m.group(1).startswith('selfmon_priv_'):
                out[m.group(1)] = (h, doc_before(text, m.start()) or [], struct_fields(m.group(2)))
    return out


def struct_section(page, known):
    """The OPTIONS and STRUCTURES sections of a page: each struct its text
    names (and those their fields name, one level), field by field."""
    named = [n for n in dict.fromkeys(re.findall(r'struct (selfmon_\w+)', page)) if n in known]
    for n in list(named):
        for decl, _ in known[n][2]:
            named += [s for s in re.findall(r'struct (selfmon_\w+)', decl) if s in known and s not in named]
    secs = {'OPTIONS': [], 'STRUCTURES': []}
    for n in named:
        h, doc, fields = known[n]
        out = [f'.SS "struct {n}"']
        if doc:
            out += [roff_text(doc), '.PP']
        out.append(f'Declared in <{h.split("include/", 1)[-1]}>; its fields:')
        for decl, fdoc in fields:
            out += ['.TP', '\\fB' + roff(decl) + '\\fP']
            out.append(roff(fdoc) if fdoc else
                       ('the size of the struct: set it to sizeof(struct ' + n + ')')
                       if decl == 'size_t sz' else '(no comment in the header)')
        secs['OPTIONS' if n.endswith('_opts') else 'STRUCTURES'] += out
    return ''.join(f'.SH {k}\n' + '\n'.join(v) + '\n' for k, v in secs.items() if v)


# ---- examples: docs/man/examples/NAME.c (C++: NAME.cpp) ----
def examples(exdir):
    """{file: text} of the examples, their SPDX line left out."""
    out = {}
    for fn in sorted(os.listdir(exdir)) if os.path.isdir(exdir) else []:
        if fn.endswith(('.c', '.cpp')):
            with open(os.path.join(exdir, fn), encoding='utf-8') as f:
                out[fn] = re.sub(r'\A//[^\n]*SPDX[^\n]*\n', '', f.read())
    return out


def example_for(name, exs):
    """The example of page @name: NAME.c (or .cpp), else the shortest that
    uses @name, in C before C++."""
    for fn in (name + '.c', name + '.cpp'):
        if fn in exs:
            return fn
    users = [fn for fn, t in exs.items() if re.search(r'\b' + re.escape(name) + r'\b', t)]
    return min(users, key=lambda fn: (fn.endswith('.cpp'), len(exs[fn]))) if users else None


def examples_section(name, exs):
    """EXAMPLES: the example as a program to compile; the comment line names
    its file, for tests/check_man_examples.sh, which compiles what the page
    shows."""
    fn = example_for(name, exs)
    if not fn:
        return ''
    return (f'.SH EXAMPLES\n.\\" example: {fn}\n'
            + roff_code(exs[fn].rstrip('\n').split('\n')) + '\n')


def as_section3(name, page, header, version, extra=''):
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
    return page.rstrip('\n') + '\n' + extra + ('.SH "SEE ALSO"\n.BR selfmon (7),\n.BR selfmon (1)\n')


def write_page(outdir, name, page, known, exs):
    """@page with its structs' fields and its example, as OUTDIR/NAME.3."""
    page = page.rstrip('\n') + '\n'
    extra = struct_section(page, known) + examples_section(name, exs)
    page = page.replace('.SH "SEE ALSO"\n', extra + '.SH "SEE ALSO"\n', 1) if '.SH "SEE ALSO"' in page \
        else page + extra + '.SH "SEE ALSO"\n.BR selfmon (7),\n.BR selfmon (1)\n'
    with open(os.path.join(outdir, name + '.3'), 'w', encoding='utf-8') as f:
        f.write(page)


def main(argv):
    if len(argv) >= 4 and argv[1] == '--fields':
        # mkman3.py --fields STRUCT HEADER...: the field names, one a line (tests)
        for decl, _ in structs(argv[3:]).get(argv[2], (0, 0, []))[2]:
            print('\n'.join(field_names(decl)))
        return 0
    exdir = ''
    if len(argv) > 1 and argv[1].startswith('--examples='):
        exdir = argv.pop(1).split('=', 1)[1]
    if len(argv) < 5:
        sys.exit(__doc__)
    kernel_doc, outdir, version, headers = argv[1], argv[2], argv[3], argv[4:]
    os.makedirs(outdir, exist_ok=True)
    known, exs = structs(headers), examples(exdir)
    missing, written, macro_defs = [], [], {}
    for h in headers:
        # kernel-doc reads C; a C++ header (marker.hpp) gives its macros
        got = pages(kernel_doc, h) if h.endswith('.h') else {}
        for name, page in got.items():
            write_page(outdir, name, as_section3(name, page, h, version), known, exs)
            written.append(name)
        missing += [f'{h}: {n}()' for n in public_functions(h) if n not in got and h.endswith('.h')]
        for name, (args, value, doc) in macros(h).items():
            macro_defs.setdefault(name, []).append((h, args, value, doc))
    for name, defs in sorted(macro_defs.items()):
        defs = [d for d in defs if d[3]]
        if not defs:
            missing.append(f'{macro_defs[name][0][0]}: {name}')
            continue
        write_page(outdir, name, macro_page(name, defs, version), known, exs)
        written.append(name)
    with open(os.path.join(outdir, 'pages.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(n + '\n' for n in sorted(written)))
    with open(os.path.join(outdir, 'macros.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(n + '\n' for n in sorted(macro_defs)))
    with open(os.path.join(outdir, 'missing.txt'), 'w', encoding='utf-8') as f:
        f.write(''.join(m + '\n' for m in missing))
    for m in missing:
        print(f'mkman3: {m} has no man page: give it a doc comment "/**\\n * name() - what it does"'
              ' with its @arguments and "Return:" (the kernel\'s doc-guide, "Function documentation")',
              file=sys.stderr)
    return 3 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
