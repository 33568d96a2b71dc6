#!/bin/sh
# SPDX-License-Identifier: MIT
# Every source, script, make and build file of the tree names its licence in
# an SPDX-License-Identifier line within its first lines (docs/licensing.md):
# C sources and headers, assembly, shell and Python scripts (and any tracked
# file starting with #!), makefiles, Kconfig and defconfigs, the man pages,
# selfmon.pc.in, the LAVA jobs and templates, debian/'s scripts. Data (test
# fixtures, fuzz corpora, JSON, the linker's --wrap lists) and prose (*.md)
# carry none. Prints each file that lacks one; exits 1 if any does.
# Also: no leftover of a merge, a patch or an editor is tracked (*.orig,
# *.rej, *~, .*.swp), nor a compiler's output (a.out, *.o): such a copy of
# a header builds nowhere and ships stale text, a binary ships unread.
# Usage: scripts/check-spdx.sh [TAP]   (run at the top of a git tree)
set -u
unset CDPATH
tap=${1:-}

# Whether $1 is a file whose kind must carry the line.
wanted() {
	case "$1" in
	tests/fixtures/*|tests/fuzz/corpus/*|*/__pycache__/*) return 1 ;;
	*.c|*.h|*.S|*.sh|*.py|*.mk|*.pc.in|*.yaml|*.jinja2|*.bb|*.inc) return 0 ;;
	Makefile|*/Makefile|Kconfig|*/Kconfig|Config.in|*/Config.in|configs/*_defconfig) return 0 ;;
	docs/man/*.[1-9]|debian/rules|debian/tests/*|.ci/*) return 0 ;;
	esac
	# A script of any name: its first two bytes are "#!".
	[ "$(head -c 2 "$1" 2>/dev/null)" = '#!' ]
}

missing=""
count=0
for f in $(git ls-files); do
	[ -f "$f" ] || continue
	wanted "$f" || continue
	count=$((count + 1))
	head -n 5 "$f" | grep -q 'SPDX-License-Identifier: ' || missing="$missing $f"
done

leftovers=$(git ls-files | grep -E '(\.orig|\.rej|~|/\..*\.swp|(^|/)a\.out|\.o)$' | tr '\n' ' ')
if [ -n "$leftovers" ]; then
	echo "check-spdx: leftovers of a merge, a patch or an editor are tracked: $leftovers(git rm them)" >&2
	[ -z "$tap" ] || printf 'not ok 1 - no leftover of a merge, a patch or an editor is tracked: %s\n' \
		"$leftovers" >"$tap"
	exit 1
fi

if [ -n "$missing" ]; then
	echo "check-spdx: these files have no SPDX-License-Identifier line in their first 5 lines;" >&2
	echo "  add '# SPDX-License-Identifier: MIT' (// in C, .\\\" in a man page) at the top (after a #! line):" >&2
	for f in $missing; do echo "  $f" >&2; done
	[ -z "$tap" ] || printf 'not ok 1 - every source, script and make file has an SPDX line (%s missing)\n' \
		"$(echo "$missing" | wc -w)" >"$tap"
	exit 1
fi
[ -z "$tap" ] || printf 'ok 1 - every source, script and make file has an SPDX line (%d files), and no leftover of a merge or an editor is tracked\n' "$count" >"$tap"
echo "check-spdx: $count files, each with an SPDX-License-Identifier line"
