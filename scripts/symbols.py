#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Symbol hygiene of libselfmon.a and libselfmon.so (docs/architecture.md, "Conventions").

The rule: a global symbol of the installed libselfmon.a is a function (or
an extern variable, such as the thread variable an inline path reads)
declared in a public header (include/selfmon/*.h, arch/*/include/selfmon/
arch.h, and include/selfmon/priv/*.h: not API, but the inline paths call
their entries) right after a /** doc comment */. Every other function, internal
names included, is made local when the library is linked (ld -r, then
objcopy --keep-global-symbols with the list `keep` prints; libselfmon.so's
version script is made from the same list). The one exception, LIBPERF_CALLS:
core/heap.h's functions, which the musl libperf.a calls in place of malloc(3)
and its kin (scripts/build-deps.sh), stay global in libselfmon.a (the
Makefile's HEAP_SYMBOLS) and are declared in no public header.

  symbols.py keep HEADER...                  the documented public functions, one a line
  symbols.py check LIB RAW NM HEADER...      TAP: LIB exports only documented functions,
                                             RAW (the objects before objcopy) declares none
                                             without a doc comment, and every documented
                                             function is in LIB. Exit 1 on an offender.
"""
import re
import subprocess
import sys

DECL = re.compile(r'^\s*(?:extern\s+)?(?!static\b|typedef\b|#|return\b)[A-Za-z_][\w \t\*]*?\b(selfmon_\w+)\s*\(')
LIBPERF_CALLS = frozenset(('selfmon_heap__malloc', 'selfmon_heap__calloc', 'selfmon_heap__realloc',
                           'selfmon_heap__free'))
# An extern variable: "extern [__thread|_Thread_local] TYPE *selfmon_name;".
VAR = re.compile(r'^\s*extern\s+(?!static\b|typedef\b)[A-Za-z_][\w \t\*]*?\b(selfmon_\w+)\s*;')


def declarations(headers):
    """{name: documented?} of the functions (not static inline) and extern variables the headers declare."""
    out = {}
    for path in headers:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        in_comment = False
        doc_open = False      # the comment now open started with /**
        last_doc_end = -2     # line index where the last /** comment ended
        depth = 0             # braces: a declaration lives at file scope
        for i, line in enumerate(lines):
            code = line
            if in_comment:
                if '*/' not in line:
                    continue
                in_comment = False
                if doc_open:
                    last_doc_end = i
                code = line.split('*/', 1)[1]
            # comments opening on this line
            while '/*' in code:
                before, rest = code.split('/*', 1)
                if '*/' in rest:
                    if rest.startswith('*') and not before.strip():
                        last_doc_end = i
                    code = before + rest.split('*/', 1)[1]
                else:
                    in_comment = True
                    doc_open = rest.startswith('*')
                    code = before
                    break
            if depth == 0 and not line.lstrip().startswith(('SELFMON_HOT', 'static')):
                m = DECL.match(code) or VAR.match(code)
                if m:
                    name = m.group(1)
                    out[name] = out.get(name, False) or last_doc_end == i - 1 or \
                        (last_doc_end == i and code.strip() != '')
            # extern "C" { ... } of C++ guards is not a scope.
            if 'extern "C"' not in code and not (code.strip() == '}' and i and
                                                 lines[i - 1].strip() == '#ifdef __cplusplus'):
                depth += code.count('{') - code.count('}')
            if depth < 0:
                depth = 0
    return out


def defined_globals(nm, lib):
    """{symbol: object} of the globals @lib defines."""
    res = subprocess.run([nm, '-A', '-g', '--defined-only', lib], capture_output=True, text=True,
                         check=True)
    out = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        # A shared library's version node (SELFMON_0, type A) is no symbol of the API.
        if len(parts) >= 3 and not (parts[-2] == 'A' and parts[-1].startswith('SELFMON_')):
            out[parts[-1]] = parts[0].rsplit(':', 1)[0]
    return out


def check(lib, raw, nm, headers):
    decl = declarations(headers)
    documented = {n for n, d in decl.items() if d}
    exported = defined_globals(nm, lib)
    internal = defined_globals(nm, raw)
    tests = []

    bad = sorted(s for s in exported if s not in documented and s not in LIBPERF_CALLS)
    tests.append(('every global symbol of %s is a function documented in a public header, '
                  'or one libperf calls (%d global, %d documented)'
                  % (lib.rsplit('/', 1)[-1], len(exported), len(documented)),
                  ['undocumented global: %s (%s)' % (s, exported[s]) for s in bad]))
    bad = sorted(s for s in internal if s in decl and not decl[s])
    tests.append(('every public function the library defines has a doc comment in its header',
                  ['declared in a public header without a /** doc comment */: %s' % s for s in bad]))
    bad = sorted(s for s in documented if s not in exported)
    tests.append(('every documented public function is defined and exported by the library',
                  ['documented but not exported: %s' % s for s in bad]))
    print('1..%d' % len(tests))
    failed = 0
    for k, (name, problems) in enumerate(tests, 1):
        for p in problems:
            print('# ' + p)
        print('%sok %d - %s' % ('not ' if problems else '', k, name))
        failed += bool(problems)
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == 'keep':
        for name in sorted(n for n, d in declarations(argv[2:]).items() if d):
            print(name)
        return 0
    if len(argv) >= 5 and argv[1] == 'check':
        return check(argv[2], argv[3], argv[4], argv[5:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
