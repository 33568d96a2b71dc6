#!/bin/sh
# The README's tour cannot rot: each examples/*.c is built against the
# installed library through pkg-config (scripts/build-examples.sh) and run
# (tests/run_examples.sh), and every program the README quotes
# ("<!-- examples/NAME.c -->" before a C block) is quoted exactly as the file
# is. TAP to OUT.
# Usage: tests/check_examples.sh OUT.tap STAGING OUTDIR README SRC...
# (STAGING holds `make install DESTDIR=STAGING prefix=/usr` of this machine.)
set -u
out=$1 staging=$2 outdir=$3 readme=$4
shift 4
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_examples: $*" >&2; }

# The quotes: the C block after each marker, against the file.
quotes=$(sed -n 's|^<!-- \(examples/[A-Za-z0-9_.-]*\.c\) -->$|\1|p' "$readme")
[ -n "$quotes" ] || notok "$readme quotes programs of examples/ (<!-- examples/NAME.c --> markers)"
for q in $quotes; do
	if [ ! -f "$q" ]; then
		notok "$readme quotes $q, which does not exist"
		continue
	fi
	awk -v q="<!-- $q -->" '
		$0 == q { m = 1; next }
		m == 1 && /^```c$/ { m = 2; next }
		m == 2 && /^```$/ { exit }
		m == 2 { print }' "$readme" >"$outdir.quote" 2>/dev/null ||
		{ mkdir -p "$(dirname "$outdir")"; notok "cannot write $outdir.quote"; continue; }
	if cmp -s "$outdir.quote" "$q"; then
		ok "$readme quotes $q exactly"
	else
		notok "$readme quotes $q as the file is: $(diff "$q" "$outdir.quote" | head -n 4 | tr '\n' ' ')"
	fi
done

rm -rf "$outdir"
built=$(scripts/build-examples.sh "$staging" "$outdir" "${CC:-cc}" "" "$@")
printf '%s\n' "$built" | while IFS= read -r line; do
	case "$line" in
	built*) echo "ok - examples/${line#built }.c builds against the installed library (pkg-config --static selfmon)" ;;
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
