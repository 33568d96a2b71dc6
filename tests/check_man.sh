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

# ---- section 3: macros, examples, structs (run from the source tree) ----
sect() { # PAGE SECTION: the text of one section of a rendered page
	MANWIDTH=200 man -l "$1" 2>/dev/null | awk -v s="$2" '$0 == s { e = 1; next } /^[A-Z]/ { e = 0 } e'
}
# Every public macro (SELFMON_*; internal: SELFMON_PRIV_*, "__" inside, a
# trailing "_", SELFMON_ARCH_*, include guards, SELFMON_HOT) has its page.
macros=$(grep -ohE '^[[:space:]]*#[[:space:]]*define[[:space:]]+SELFMON_[A-Z0-9_]+' include/selfmon/*.h include/selfmon/*.hpp 2>/dev/null |
	sed 's/.*define[[:space:]]*//' | grep -vE '__|_$|^SELFMON_ARCH_|^SELFMON_PRIV_|_HP?P?$|^SELFMON_HOT$' | sort -u)
lack=""
for m in $macros SELFMON_NO_SUCH_MACRO; do
	[ -f "$man/man3/$m.3" ] || lack="$lack $m"
done
if [ -z "$macros" ]; then
	notok "the public macros of include/selfmon/ are found (run from the source tree)"
elif [ "$lack" != " SELFMON_NO_SUCH_MACRO" ]; then
	notok "every public macro has a man page; without one (SELFMON_NO_SUCH_MACRO must be among them):$lack"
else
	ok "every public macro of include/selfmon/ has a man page ($(printf '%s\n' $macros | wc -l) macros)"
fi

# Every page of a function, and of a macro that takes arguments, shows an
# example, but those docs/man/examples/without-example.txt names (what a
# program does not call itself).
skip=$(sed 's/#.*//' docs/man/examples/without-example.txt 2>/dev/null | tr -s ' \n' ' ')
lack="" with=0 total=0
for p in "$man"/man3/*.3; do
	name=$(basename "$p" .3)
	grep -qE "^\\\\fB#define $name " "$p" && continue # a constant
	total=$((total + 1))
	if grep -q '^\.SH EXAMPLES' "$p"; then
		with=$((with + 1))
	else
		case " $skip " in *" $name "*) ;; *) lack="$lack $name" ;; esac
	fi
done
[ -z "$lack" ] && ok "every page of a function or macro a program calls has EXAMPLES ($with of $total pages)" ||
	notok "pages without EXAMPLES (add docs/man/examples/NAME.c, or name it in without-example.txt with why):$lack"

# No page points at text it does not show ("the schema above": a header
# comment); the pattern catches a page made to say it.
pointing='(see|the [a-z]+|as|comment) (above|below)\b|\((above|below)\)'
printf '.TH X 3\n.SH DESCRIPTION\nwrite JSON (the schema above).\n' >"$tmp/above.3"
points() { tr '\n' ' ' <"$1" | grep -qE "$pointing"; } # the page's source, its lines joined
if points "$tmp/above.3"; then
	bad=""
	for p in "$man"/man3/*.3; do
		points "$p" && bad="$bad $(basename "$p" .3)"
	done
	[ -z "$bad" ] && ok "no section 3 page points at text above or below it that it does not show" ||
		notok "pages that point at text above or below (a header comment they do not show):$bad"
else
	notok "the 'above' pattern misses 'the schema above': the check could not fail"
fi

# Each options struct's fields are all in the OPTIONS section of each page
# that takes it, with a field that is not there found lacking.
opts=$(grep -ohE '^struct selfmon_[a-z_]*opts \{' include/selfmon/*.h | awk '{ print $2 }' | sort -u)
[ -n "$opts" ] || notok "the options structs of include/selfmon/ are found"
for s in $opts; do
	fields=$(python3 scripts/mkman3.py --fields "$s" include/selfmon/*.h)
	users=$(grep -l "struct $s \*" "$man"/man3/*.3 2>/dev/null)
	[ -n "$users" ] || { notok "a page takes struct $s"; continue; }
	for p in $users; do
		text=$(sect "$p" OPTIONS)
		lack=""
		for f in $fields no_such_field; do
			printf '%s\n' "$text" | grep -qw -- "$f" || lack="$lack $f"
		done
		[ "$lack" = " no_such_field" ] && ok "$(basename "$p" .3)(3) describes every field of struct $s" ||
			notok "$(basename "$p" .3)(3)'s OPTIONS lack fields of struct $s:$lack"
	done
done
