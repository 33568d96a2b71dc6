#!/bin/sh
# SPDX-License-Identifier: MIT
# Every public header compiles as C++: each one alone and all of them
# together, for x86_64 and arm64, by g++ and clang++, at C++11, 14, 17, 20
# and 23, with -Wall -Wextra -Werror -pedantic (compile only:
# -fsyntax-only). A compiler that is not installed is a SKIP line naming it
# (scripts/deps.sh's tests and arm64 sets install them). On arm64 the
# program is also compiled to an object, to read back that the pair's calls
# are marked variant-PCS (and plain with SELFMON_ARM64_NO_VARIANT_PCS).
# TAP to OUT.
# Usage: tests/check_cxx.sh OUT.tap [LIBS...]
#   LIBS: the host's library and what it needs (libselfmon.a, libperf,
#   -lcmocka, ...): given, the program of every header is linked too.
set -u
out=$1
shift
libs="$*"
: >"$out"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >>"$out"; }
notok() { n=$((n + 1)); echo "not ok $n - $*" >>"$out"; echo "check_cxx: $*" >&2; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $*" >>"$out"; }
# installed WHAT CMD: whether CMD is installed; if not, a SKIP of WHAT says so.
installed() {
	command -v "$2" >/dev/null 2>&1 && return 0
	skip "$1: $2 is not installed (scripts/deps.sh tests arm64)"
	return 1
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# One source per header, and one with all of them; each uses the macros a
# C++ program writes (their bodies are C++ only where they expand). The
# kernel's kselftest_harness.h is C (designated initializers, nested ones
# too): <selfmon/kselftest.h> is checked after a stand-in for the TH_LOG it
# requires, alone, as it refuses to sit beside <selfmon/cmocka.h>.
headers=""
for h in include/selfmon/*.h include/selfmon/*.hpp; do
	[ -f "$h" ] || continue
	b=$(basename "$h")
	[ "$b" = kselftest.h ] || headers="$headers $b"
done
src() { # src FILE HEADER...: a translation unit including each HEADER, using its macros
	f=$1
	shift
	: >"$f"
	for h; do
		[ "$h" = kselftest.h ] && echo '#define TH_LOG(fmt, ...) /* the harness is C */' >>"$f"
		echo "#include <selfmon/$h>" >>"$f"
	done
	echo 'static int work(int x) { return x * 3 + 1; }' >>"$f"
	# A site in an inline function beside one in a plain function (g++
	# refused the two in one section).
	case " $* " in *" marker.h "*)
		echo 'inline int inl(int x) { SELFMON_MARKER_BEGIN("inl"); x++; SELFMON_MARKER_END("inl"); return x; }' >>"$f"
	esac
	{
		echo 'int main(int argc, char **argv) {'
		echo '	int r = work(argc); (void)argv;'
	} >>"$f"
	for h; do
		case $h in
		marker.h) cat >>"$f" <<'END'
	SELFMON_MARKER_BEGIN("cxx"); r = work(r); SELFMON_MARKER_END("cxx");
	selfmon_marker__begin("cxx_name"); r = work(r); selfmon_marker__end("cxx_name");
	selfmon_marker__begin(argv[0]); selfmon_marker__end(argv[0]);
	{ const char local[] = "cxx_local"; char buf[8] = "cxx_buf";
	  selfmon_marker__begin(local); selfmon_marker__end(local);
	  selfmon_marker__begin(buf); selfmon_marker__end(buf);
	  selfmon_marker__begin(nullptr); selfmon_marker__end(nullptr);
	  selfmon_marker__begin(0); selfmon_marker__end(0); }
	for (int i = 0; i < 2; i++) { SELFMON_MARKER_SCOPE("cxx_scope"); if (i) break; r = work(r); }
	r = inl(r);
END
			;;
		marker.hpp) cat >>"$f" <<'END'
	for (int i = 0; i < 2; i++) { SELFMON_MARKER_REGION("cxx_region"); if (i) break; r = work(r); }
	{ selfmon::marker_region by_name(argv[0]); r = work(r); }
END
			;;
		cmocka.h) cat >>"$f" <<'END'
	if (argc > 99) SELFMON_ASSERT_BUDGET("instructions:u", 1000, r = work(r));
END
			;;
		budget.h) cat >>"$f" <<'END'
	{ struct selfmon_measure m; SELFMON_MEASURE(m, "instructions:u", r = work(r)); (void)m; }
END
			;;
		esac
	done
	printf '\treturn r == 0;\n}\n' >>"$f"
}
for h in $headers kselftest.h; do
	src "$tmp/one-$h.cpp" "$h"
done
# shellcheck disable=SC2086
src "$tmp/all.cpp" $headers

# The highest standard each compiler knows by name: clang before 17 and g++
# before 11 call C++23 c++2b.
std_flag() { # std_flag CXX STD
	if $1 -std="$2" -x c++ -fsyntax-only /dev/null 2>/dev/null; then
		echo "-std=$2"
	else
		case $2 in
		c++23) echo -std=c++2b ;;
		c++20) echo -std=c++2a ;;
		*) echo "-std=$2" ;;
		esac
	fi
}

check() { # check ARCH NAME CXX...
	arch=$1 name=$2
	shift 2
	cxx="$*"
	installed "$arch $name" "$1" || return
	if ! $cxx -x c++ -fsyntax-only /dev/null 2>/dev/null; then
		skip "$arch $name: '$cxx' cannot compile for $arch here (no cross headers)"
		return
	fi
	for std in c++11 c++14 c++17 c++20 c++23; do
		flag=$(std_flag "$cxx" $std)
		bad=""
		for f in "$tmp"/*.cpp; do
			# all.cpp to an object, at -O0 and -O2: asm constraints
			# ("S" on arm64, which a by-name literal's sequence
			# takes) are checked when code is made, not by
			# -fsyntax-only, and clang folds less at -O0.
			modes=-fsyntax-only
			[ "$f" = "$tmp/all.cpp" ] && modes="-O0 -O2"
			for mode in $modes; do
				[ "$mode" = -fsyntax-only ] || mode="$mode -c -o $tmp/all.o"
				# shellcheck disable=SC2086
				if ! log=$($cxx $flag -Wall -Wextra -Werror -pedantic -D_GNU_SOURCE -Iinclude \
					-Iarch/"$arch"/include $mode "$f" 2>&1); then
					bad="$bad $(basename "$f" .cpp)(${mode%% *})"
					echo "$log" | head -n 8 >&2
				fi
			done
		done
		if [ -z "$bad" ]; then
			ok "$arch $name $flag: every public header alone and all together compile as C++"
		else
			notok "$arch $name $flag: these fail:$bad"
		fi
	done
}

# The region objects on the host (task-clock): each region's calls are the
# entries of its scope, whichever way it was left (tests/cxx/marker_region_test.cpp);
# at -O2 and at -O0, where SELFMON_MARKER_SCOPE()'s end is the header's
# stub, called from an exception's cleanup too.
regions() { # regions OPT CXX...
	opt=$1
	shift
	bin="$tmp/regions-$1-$opt"
	# shellcheck disable=SC2086
	if ! log=$("$@" -std=c++11 -$opt -Wall -Wextra -Werror -pedantic -D_GNU_SOURCE -Iinclude \
		-Iarch/x86/include tests/cxx/marker_region_test.cpp $libs -o "$bin" 2>&1); then
		echo "$log" | head -n 8 >&2
		notok "x86 $1 -$opt: tests/cxx/marker_region_test.cpp builds"
		return
	fi
	rm -f "$tmp/regions.json"
	err=$(SELFMON_EVENTS=task-clock SELFMON_OUTPUT="$tmp/regions.json" "$bin" 2>&1)
	rc=$?
	# shellcheck disable=SC2016
	got=$(python3 -c '
import json, sys
calls = {b["name"]: b["iterations"] for b in json.load(open(sys.argv[1]))["benchmarks"]
         if b.get("run_type") == "iteration"}
want = {"region by return": 4, "region by break": 3, "region by continue": 4,
        "region by goto": 3, "region by throw": 4, "by name region": 4,
        "scope by throw": 4, "region and pair": 3}
print(" ".join("%s: %s, not %d;" % (k, calls.get(k), v) for k, v in want.items() if calls.get(k) != v))
' "$tmp/regions.json" 2>&1)
	if [ $rc -eq 0 ] && [ -z "$err" ] && [ -z "$got" ]; then
		ok "x86 $1 -$opt: a region object ends at return, break, continue, goto and an exception; its calls are its scope's entries"
	else
		notok "x86 $1 -$opt: region objects: status $rc, stderr '$err', $got"
	fi
}

# The host's link: all.cpp against the library (LIBS), as a C++ program
# links it: the C functions, cmocka's among them, must be found by their C
# names.
link() { # link CXX...
	[ -n "$libs" ] || return
	installed "link by $1" "$1" || return
	# shellcheck disable=SC2086
	if log=$("$@" -std=c++17 -O2 -Wall -Wextra -Werror -pedantic -D_GNU_SOURCE -Iinclude \
		-Iarch/x86/include "$tmp/all.cpp" $libs -o "$tmp/all" 2>&1); then
		ok "x86 $1: a C++ program of every public header (cmocka.h too) links against the library"
	else
		echo "$log" | head -n 8 >&2
		notok "x86 $1: a C++ program of every public header does not link: $(echo "$log" | grep -m1 'undefined')"
	fi
}

# arm64's pairs mark their calls variant-PCS, a mark that reaches the
# library's own symbols, so that the dynamic linker binds a program built
# with an earlier header, whose pairs call through its PLT, at load
# (docs/markers.md, "Shared objects and plugins"), and
# SELFMON_ARM64_NO_VARIANT_PCS, for an assembler without the directive,
# leaves them plain: each compiled to an object, its undefined calls read
# back (readelf prints [VARIANT_PCS] beside a marked symbol).
variant_pcs() { # variant_pcs NAME CXX...
	name=$1
	shift
	installed "arm64 $name, variant-PCS calls" "$1" || return
	for def in "" -DSELFMON_ARM64_NO_VARIANT_PCS; do
		# shellcheck disable=SC2086 # $def is one word or none
		if ! log=$("$@" -std=c++17 -O2 -c -D_GNU_SOURCE -Iinclude -Iarch/arm64/include $def \
			"$tmp/all.cpp" -o "$tmp/vpcs.o" 2>&1); then
			notok "arm64 $name ${def:-(default)}: the program of every header compiles to an object: $log"
			continue
		fi
		marked=$(readelf -sW "$tmp/vpcs.o" | grep -c 'VARIANT_PCS.*UND selfmon_priv_marker_\(begin\|end\)_call$')
		want=2
		[ -n "$def" ] && want=0
		if [ "$marked" -eq $want ]; then
			ok "arm64 $name ${def:-(default)}: $marked of the pair's two calls marked variant-PCS"
		else
			notok "arm64 $name ${def:-(default)}: $marked of the pair's two calls marked variant-PCS, not $want"
		fi
	done
}

# A goto past SELFMON_MARKER_REGION() into its block is the compiler's
# error at every level, as a jump past an object's initialization is: at
# -O0, where the region is C's scope form, its variable is initialized for
# that (a jump past it would leave its end a garbage region).
goto_past() { # goto_past ARCH CXX...
	arch=$1
	shift
	installed "$arch $1, a goto past a region" "$1" || return
	printf '%s\n' '#include <selfmon/marker.hpp>' 'int f(int n)' '{' '	if (n)' '		goto in;' \
		'	{' '		SELFMON_MARKER_REGION("r");' '	in:' '		return n;' '	}' '}' >"$tmp/goto.cpp"
	for opt in O0 O2; do
		if "$@" -std=c++11 -$opt -D_GNU_SOURCE -Iinclude -Iarch/$arch/include -c "$tmp/goto.cpp" \
			-o "$tmp/goto.o" >"$tmp/goto.log" 2>&1; then
			notok "$arch $1 -$opt: a goto past SELFMON_MARKER_REGION() into its block compiles"
		elif grep -q 'jump' "$tmp/goto.log"; then
			ok "$arch $1 -$opt: a goto past SELFMON_MARKER_REGION() into its block is an error"
		else
			notok "$arch $1 -$opt: a goto past a region fails, but not for the jump: $(head -n 3 "$tmp/goto.log")"
		fi
	done
}

check x86 g++ g++
check x86 clang++ clang++
check arm64 g++ aarch64-linux-gnu-g++
check arm64 clang++ clang++ --target=aarch64-linux-gnu
goto_past x86 g++
goto_past x86 clang++
goto_past arm64 aarch64-linux-gnu-g++
goto_past arm64 clang++ --target=aarch64-linux-gnu
variant_pcs g++ aarch64-linux-gnu-g++
variant_pcs clang++ clang++ --target=aarch64-linux-gnu
if [ "$(uname -m)" = x86_64 ]; then
	link g++
	link clang++
	if [ -n "$libs" ]; then
		for c in g++ clang++; do
			command -v $c >/dev/null 2>&1 || continue
			regions O2 $c
			regions O0 $c
		done
	fi
fi
cat "$out"
