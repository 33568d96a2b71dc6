#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's tour cannot rot: each examples/*.c is built against the
# installed library through pkg-config (scripts/build-examples.sh) and run
# (tests/run_examples.sh), every program the README quotes
# ("<!-- examples/NAME.c -->" before a C block) is quoted exactly as the file
# is, and every excerpt ("<!-- examples/NAME.c, excerpt -->") is lines of the
# file, consecutive and unchanged. TAP to OUT.
# Usage: tests/check_examples.sh OUT.tap STAGING OUTDIR README SRC...
# (STAGING holds `make install DESTDIR=STAGING prefix=/usr` of this machine.)
set -u
out=$1 staging=$2 outdir=$3 readme=$4
shift 4
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_examples: $*" >&2; }

# The C block after the marker line $1 in $readme, on stdout.
block() {
	awk -v q="$1" '
		$0 == q { m = 1; next }
		m == 1 && /^```c$/ { m = 2; next }
		m == 2 && /^```$/ { exit }
		m == 2 { print }' "$readme"
}
# Whether the lines of $1 are lines of $2, consecutive and unchanged.
excerpt_of() {
	awk 'NR == FNR { e[++ne] = $0; next }
		{ f[++nf] = $0 }
		END {
			if (ne == 0) exit 1
			for (i = 1; i + ne - 1 <= nf; i++) {
				for (j = 1; j <= ne && f[i + j - 1] == e[j]; j++)
					;
				if (j > ne) exit 0
			}
			exit 1
		}' "$1" "$2"
}

# The excerpt check can fail: lines with one left out between them are no excerpt.
mkdir -p "$(dirname "$outdir")"
printf 'a\nb\nc\n' >"$outdir.file" && printf 'b\nc\n' >"$outdir.good" && printf 'a\nc\n' >"$outdir.bad"
if excerpt_of "$outdir.good" "$outdir.file" && ! excerpt_of "$outdir.bad" "$outdir.file"; then
	ok "an excerpt with a line of the file left out is refused (the excerpt check can fail)"
else
	notok "the excerpt check takes lines that are not consecutive in the file, or refuses ones that are"
fi
rm -f "$outdir.file" "$outdir.good" "$outdir.bad"

# The quotes: the C block after each marker, against the file.
quotes=$(sed -n 's|^<!-- \(examples/[A-Za-z0-9_.-]*\.c\) -->$|\1|p' "$readme")
excerpts=$(sed -n 's|^<!-- \(examples/[A-Za-z0-9_.-]*\.c\), excerpt -->$|\1|p' "$readme")
[ -n "$quotes" ] || notok "$readme quotes programs of examples/ (<!-- examples/NAME.c --> markers)"
for q in $quotes; do
	if [ ! -f "$q" ]; then
		notok "$readme quotes $q, which does not exist"
		continue
	fi
	block "<!-- $q -->" >"$outdir.quote" 2>/dev/null ||
		{ notok "cannot write $outdir.quote"; continue; }
	if cmp -s "$outdir.quote" "$q"; then
		ok "$readme quotes $q exactly"
	else
		notok "$readme quotes $q as the file is: $(diff "$q" "$outdir.quote" | head -n 4 | tr '\n' ' ')"
	fi
done
for q in $excerpts; do
	if [ ! -f "$q" ]; then
		notok "$readme quotes an excerpt of $q, which does not exist"
		continue
	fi
	block "<!-- $q, excerpt -->" >"$outdir.quote" 2>/dev/null ||
		{ notok "cannot write $outdir.quote"; continue; }
	if excerpt_of "$outdir.quote" "$q"; then
		ok "$readme quotes $(wc -l <"$outdir.quote") consecutive lines of $q exactly"
	else
		notok "$readme's excerpt of $q is lines of the file, consecutive and unchanged: it is not"
	fi
done

rm -rf "$outdir"
built=$(scripts/build-examples.sh "$staging" "$outdir" "${CC:-cc}" "" "$@")
printf '%s\n' "$built" | while IFS= read -r line; do
	case "$line" in
	built*) echo "ok - examples/${line#built } builds against the installed library (pkg-config --static selfmon)" ;;
	skipped*) echo "ok - examples: # SKIP ${line#skipped }" ;;
	*) echo "not ok - examples: $line" ;;
	esac
done >"$outdir.build"
while IFS= read -r line; do
	case "$line" in ok*) ok "${line#ok - }" ;; *) notok "${line#not ok - }" ;; esac
done <"$outdir.build"

tests/run_examples.sh "$outdir" >"$outdir.run" 2>&1
while IFS= read -r line; do
	case "$line" in
	"ok "*) ok "$(printf '%s' "$line" | sed 's/^ok [0-9]* - //')" ;;
	"not ok "*) notok "$(printf '%s' "$line" | sed 's/^not ok [0-9]* - //')" ;;
	esac
done <"$outdir.run"
