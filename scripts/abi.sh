#!/bin/sh
# SPDX-License-Identifier: MIT
# libselfmon.so's ABI against the baseline kept in the tree (docs/abi.md):
#   scripts/abi.sh dump SO BASELINE ARCH     write BASELINE from SO (abidw)
#   scripts/abi.sh diff SO BASELINE ARCH     abidiff BASELINE SO: status 0 when
#                                            nothing but additions changed
# ARCH: the kernel's (x86, arm64), for arch/ARCH/include/selfmon/arch.h.
# Run from the source tree. The types are those the public headers declare
# and the exported functions and variables reach.
set -u
cmd=$1 so=$2 base=$3 arch=$4
if ! command -v abidw >/dev/null 2>&1; then
	echo "abi.sh: no abidw/abidiff here (Debian: apt-get install abigail-tools; scripts/deps.sh tests installs it)" >&2
	exit 2
fi
hd="--headers-dir include/selfmon --headers-dir arch/$arch/include/selfmon"
# libabigail tells a public type by its header's base name alone: a struct
# defined in an internal header named like a public one (sample/sampler.h
# beside <selfmon/sampler.h>) would count as public, and every change of an
# opaque object's insides as an ABI break. No such pair may exist.
clash=$(for f in $(find core sample bench util "arch/$arch" -name '*.h' ! -path '*/include/*'); do
	b=${f##*/}
	if [ -e "include/selfmon/$b" ] || [ -e "include/selfmon/priv/$b" ] || [ -e "arch/$arch/include/selfmon/$b" ]; then
		echo "$f"
	fi
done)
if [ -n "$clash" ]; then
	echo "abi.sh: internal header(s) named like a public one: $(echo $clash); libabigail would take their types for public ones: rename them (NAME_int.h)" >&2
	exit 2
fi
case $cmd in
dump)
	# No paths of this machine in the file: it is kept in the tree.
	# shellcheck disable=SC2086 # hd is words
	abidw --no-corpus-path --no-comp-dir-path --short-locs $hd --out-file "$base.tmp" "$so" &&
		mv "$base.tmp" "$base" ;;
diff)
	# An added function or variable is compatible; the baseline records it
	# when it is next updated on purpose (make abi-baseline).
	# Members appended to an options struct that carries its size
	# (abi/selfmon.abignore) are compatible too.
	abidiff --no-added-syms --suppressions abi/selfmon.abignore \
		--hd2 include/selfmon --hd2 "arch/$arch/include/selfmon" "$base" "$so" ;;
*)
	echo "usage: scripts/abi.sh dump|diff SO BASELINE ARCH" >&2
	exit 2 ;;
esac
