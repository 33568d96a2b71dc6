#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The instruction counts of `selfmon bench --format json` files, side by side.

  counts.py same FILE...        every file has the same instruction counts in
                                every benchmark and repetition (exit 0), else
                                name the first difference (exit 1)
  counts.py diff BASE NEW       the benchmarks and metrics whose instructions
                                differ, one "name metric base new" a line
Metrics: the counters whose name starts with "instructions".
"""
import json
import sys


def counts(path):
    """{(benchmark, repetition, metric): value} of the iteration rows."""
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    out = {}
    for row in doc.get('benchmarks', []):
        if row.get('run_type') != 'iteration':
            continue
        for key, val in row.items():
            if key.startswith('instructions') and isinstance(val, (int, float)):
                out[(row['name'], row.get('repetition_index', 0), key)] = val
    if not out:
        sys.exit(f"counts.py: {path}: no instruction counts (was the bench run where they count?)")
    return out


def main(argv):
    if len(argv) >= 3 and argv[1] == 'same':
        first = counts(argv[2])
        for path in argv[3:]:
            other = counts(path)
            if other != first:
                diff = sorted(k for k in set(first) | set(other) if first.get(k) != other.get(k))
                k = diff[0]
                print(f"{path}: {k[0]} repetition {k[1]} {k[2]}: {other.get(k)} against {first.get(k)} "
                      f"in {argv[2]} ({len(diff)} differences)")
                return 1
        print(f"{len(argv) - 2} runs, {len(first)} instruction counts each: identical")
        return 0
    if len(argv) == 4 and argv[1] == 'diff':
        base, new = counts(argv[2]), counts(argv[3])
        seen = set()
        for k in sorted(set(base) | set(new)):
            if base.get(k) != new.get(k) and (k[0], k[2]) not in seen:
                seen.add((k[0], k[2]))
                print(f"{k[0]} {k[2]} {base.get(k)} {new.get(k)}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
