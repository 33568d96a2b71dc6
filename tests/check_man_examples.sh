#!/bin/sh
# SPDX-License-Identifier: MIT
# The EXAMPLES of the section 3 pages compile: each example is taken out of
# the page that shows it (the .EX/.EE block after the '.\" example: FILE'
# line scripts/mkman3.py writes, its roff escapes undone), so what a reader
# copies is what is compiled, with -Wall -Wextra -Werror, and linked against
# this build's library (C with CC, C++ with CXX); a cmocka example gets
# CMOCKA's flags, a kselftest one the harness's folder. One compile and link
# per example, however many pages show it. Every docs/man/examples/ file
# must be shown on some page. TAP to OUT.
# Usage: tests/check_man_examples.sh OUT.tap MANDIR EXAMPLES_DIR "CC" "CXX" "CPPFLAGS" "LIBS" "CMOCKA" KSELFTEST_DIR
set -u
out=$1 man=$2 exdir=$3 cc=$4 cxx=$5 cppflags=$6 libs=$7 cmocka=$8 ksft=$9
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_man_examples: $*" >&2; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

# extract PAGE DIR: each example of PAGE as DIR/FILE (its name from the page)
extract() {
	awk -v dir="$2" '
		/^\.\\" example: / { f = dir "/" $3; next }
		f && /^\.EX$/ { on = 1; printf "" >f; next }
		f && /^\.EE$/ { on = 0; close(f); f = ""; next }
		on { sub(/^\\&/, ""); gsub(/\\-/, "-"); gsub(/\\e/, "\\"); print >>f }
	' "$1"
}

# build FILE: compile and link it as its kind asks; the compiler's words on stdout
build() {
	f=$1 flags="" ccx=$cc
	case $f in *.cpp) ccx=$cxx std=-std=c++17 ;; *) std=-std=c11 ;; esac
	grep -q '<selfmon/cmocka.h>' "$f" && flags=$cmocka
	grep -q 'kselftest_harness.h' "$f" && flags="-I$ksft -Wno-unused-parameter"
	# shellcheck disable=SC2086
	$ccx $std -O0 -Wall -Wextra -Werror $cppflags "$f" $libs $flags -o "${f%.*}" 2>&1
}

# The check can fail: an example that does not compile is found.
mkdir -p "$tmp/self"
printf '.TH X 3\n.SH EXAMPLES\n.\\" example: broken.c\n.EX\nint main(void) { return no_such_name; }\n.EE\n' >"$tmp/self/x.3"
extract "$tmp/self/x.3" "$tmp/self"
if [ -f "$tmp/self/broken.c" ] && ! build "$tmp/self/broken.c" >/dev/null; then
	ok "an example that does not compile fails the check (the check can fail)"
else
	notok "a broken example was not extracted or compiled: the check below could not fail"
fi

mkdir -p "$tmp/ex"
pages=0
for p in "$man"/man3/*.3; do
	grep -q '^\.SH EXAMPLES' "$p" || continue
	pages=$((pages + 1))
	mkdir -p "$tmp/one" && rm -f "$tmp"/one/*
	extract "$p" "$tmp/one"
	for f in "$tmp"/one/*; do
		[ -f "$f" ] || { notok "$(basename "$p") has an EXAMPLES block scripts/mkman3.py named"; continue; }
		b=$(basename "$f")
		if [ -f "$tmp/ex/$b" ]; then
			cmp -s "$f" "$tmp/ex/$b" || notok "$b reads the same in every page that shows it ($(basename "$p") differs)"
		else
			cp "$f" "$tmp/ex/$b"
		fi
	done
done
compiled=0
for f in "$tmp"/ex/*; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	if w=$(build "$f"); then
		compiled=$((compiled + 1))
	else
		notok "the example $b (docs/man/examples/$b, as the pages show it) compiles and links: $(printf '%s' "$w" | grep -m 2 'error' | tr '\n' ' ')"
	fi
done
ok "$compiled example(s), shown on $pages page(s), compiled and linked"
for f in "$exdir"/*.c "$exdir"/*.cpp; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	[ -f "$tmp/ex/$b" ] || notok "docs/man/examples/$b is shown on a page (name it NAME.c, or call a documented function)"
done
