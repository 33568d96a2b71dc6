#!/bin/sh
# SPDX-License-Identifier: MIT
# Where a static program's bytes go: the top contributors by input object
# (archive member) and by symbol, from its GNU ld link map (-Wl,-Map) and
# nm(1). Sizes are of the sections the link kept (after --gc-sections)
# that take room in the file: code, read-only data, data and unwind tables;
# .bss and .tbss take none and are left out.
# Usage: scripts/size-top.sh CROSS_COMPILE PROGRAM [N]
#   PROGRAM.map must be its link map; N rows of each table (default 15).
set -eu
cross=$1 prog=$2 rows=${3:-15}
map=$prog.map
[ -f "$map" ] || { echo "size-top: no link map '$map': link with -Wl,-Map=$map" >&2; exit 1; }

# A map line names an input section, its address, size and object; a long
# section name puts the rest on the next line. POSIX awk has no strtonum.
by_object() {
	awk '
	function hex(s,   i, n, c) {
		n = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; n = n * 16 + c }
		return n
	}
	/^Linker script and memory map/ { on = 1; next }
	!on { next }
	/^\/DISCARD\// { exit }
	{
		if ($0 ~ /^ [._a-zA-Z]/ && NF == 1) { pend = $1; next }
		if (pend != "" && $1 ~ /^0x/ && NF >= 3) { sec = pend; sz = $2; obj = $3 }
		else if ($0 ~ /^ [._a-zA-Z]/ && $2 ~ /^0x/ && NF >= 4) { sec = $1; sz = $3; obj = $4 }
		else { pend = ""; next }
		pend = ""
		if (sec ~ /^\.(debug|comment|note|gnu\.attr|bss|tbss)/ || sec ~ /^COMMON/) next
		n = hex(sz)
		if (n == 0) next
		o = obj; sub(/.*\//, "", o)
		lib = o; sub(/\(.*/, "", lib)
		member[o] += n; file[lib] += n
	}
	END {
		for (l in file) printf "  %8d  %s\n", file[l], l
		for (o in member) if (o ~ /\(/) printf "  %8d  %s\n", member[o], o
	}' "$map"
}

echo "$prog: $(wc -c <"$prog" | tr -d ' ') bytes (unstripped)"
echo "by archive (kept sections, no .bss):"
by_object | grep -v '(' | sort -rn
echo "top $rows objects:"
by_object | grep '(' | sort -rn | head -n "$rows"
echo "top $rows symbols (nm --size-sort, no .bss):"
# -t d: decimal sizes; b, B: .bss.
"${cross}nm" --size-sort -S -t d "$prog" | awk '$3 !~ /^[bB]$/ { printf "  %8d  %s %s\n", $2 + 0, $3, $4 }' |
	sort -rn | head -n "$rows"
