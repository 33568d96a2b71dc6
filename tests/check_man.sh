#!/bin/sh
# SPDX-License-Identifier: MIT
# The man pages: every public function of include/selfmon/*.h has its
# section 3 page (scripts/mkman3.py lists those without in missing.txt), every
# command of the CLI its section 1 page naming each of its options, every
# SELFMON_* variable the library reads is in selfmon(7)'s ENVIRONMENT, and
# every page renders through man(1) without one groff warning. TAP to OUT.
# Usage: tests/check_man.sh OUT.tap MANDIR SELFMON
# (MANDIR: man1/ man3/ man7/ as `make man` leaves them in $(O)/man)
set -u
out=$1 man=$2 selfmon=$3
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_man: $*" >&2; }
# groff's warnings, on stderr; the page's text is not the point. A fixed width,
# since a line that cannot be adjusted warns at one width and not another.
warnings() { MANWIDTH=80 man --warnings -l "$1" 2>&1 >/dev/null; }

# The check itself can fail: a page with an undefined macro warns.
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
printf '.TH BROKEN 3\n.SH NAME\nbroken \\- a test page\n.NOSUCHMACRO\n' >"$tmp/broken.3"
[ -n "$(warnings "$tmp/broken.3")" ] && ok "a page with an undefined macro draws a groff warning (the check can fail)" ||
	notok "man --warnings reports nothing for an undefined macro: the check below could not fail"

if [ ! -f "$man/man3/missing.txt" ]; then
	notok "no $man/man3/missing.txt: run make man"
elif [ -s "$man/man3/missing.txt" ]; then
	notok "every public function has a man page; without one: $(tr '\n' ' ' <"$man/man3/missing.txt")"
else
	ok "every public function of include/selfmon/*.h has a man page ($(wc -l <"$man/man3/pages.txt") pages)"
fi

for sec in 1 3 7; do
	pages=0 bad=0
	for p in "$man/man$sec"/*."$sec"; do
		[ -f "$p" ] || continue
		pages=$((pages + 1))
		w=$(warnings "$p")
		if [ -n "$w" ]; then
			bad=$((bad + 1))
			notok "$(basename "$p") renders without a groff warning: $(printf '%s' "$w" | head -n 2 | tr '\n' ' ')"
		fi
	done
	if [ "$pages" -eq 0 ]; then
		notok "section $sec has pages"
	elif [ "$bad" -eq 0 ]; then
		ok "the $pages page(s) of section $sec render without a groff warning"
	fi
done
[ -f "$man/man7/selfmon.7" ] && ok "selfmon(7), the overview, exists" || notok "selfmon(7), the overview, exists"
[ -f "$man/man1/selfmon.1" ] && ok "selfmon(1) exists" || notok "selfmon(1) exists"

# Each command `selfmon --help` lists has a page naming each option its
# --help names.
cmds=$("$selfmon" --help 2>&1 | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && /^$/ { c = 0 }')
[ -n "$cmds" ] || notok "selfmon --help lists its commands"
for c in $cmds; do
	page="$man/man1/selfmon-$c.1"
	if [ ! -f "$page" ]; then
		notok "selfmon $c has a man page (docs/man/selfmon-$c.1)"
		continue
	fi
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
	lack=""
	for o in $("$selfmon" "$c" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		[ "$o" = --help ] && continue
		printf '%s\n' "$text" | grep -q -- "$o\\b" || lack="$lack $o"
	done
	[ -z "$lack" ] && ok "selfmon-$c(1) names every option of 'selfmon $c --help'" ||
		notok "selfmon-$c(1) lacks options of 'selfmon $c --help':$lack"
done

# Every SELFMON_* variable the library reads (getenv or env_true in core/,
# sample/, bench/, include/; run from the source tree) is in selfmon(7)'s
# ENVIRONMENT section.
env_lacking() { # PAGE NAME...: the names the page's ENVIRONMENT section lacks
	sect=$(MANWIDTH=200 man -l "$1" 2>/dev/null | awk '/^ENVIRONMENT/ { e = 1; next } /^[A-Z]/ { e = 0 } e')
	shift
	for v in "$@"; do
		printf '%s\n' "$sect" | grep -qw -- "$v" || printf ' %s' "$v"
	done
}
page7="$man/man7/selfmon.7"
if [ -n "$(env_lacking "$page7" SELFMON_NO_SUCH_VARIABLE)" ]; then
	ok "a variable not in selfmon(7)'s ENVIRONMENT is found lacking (the check can fail)"
else
	notok "the ENVIRONMENT check finds SELFMON_NO_SUCH_VARIABLE in selfmon(7): it could not fail"
fi
vars=$(grep -rhoE '(getenv|env_true)\("SELFMON_[A-Z0-9_]+"\)' core sample bench include 2>/dev/null |
	sed 's/.*"\(SELFMON_[A-Z0-9_]*\)".*/\1/' | sort -u)
# shellcheck disable=SC2086
lack=$(env_lacking "$page7" $vars)
if [ -z "$vars" ]; then
	notok "the library's SELFMON_* variables are found (run from the source tree)"
elif [ -z "$lack" ]; then
	ok "selfmon(7)'s ENVIRONMENT names every variable the library reads:" $vars
else
	notok "selfmon(7)'s ENVIRONMENT lacks variables the library reads:$lack"
fi
