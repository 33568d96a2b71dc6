#!/bin/sh
# SPDX-License-Identifier: MIT
# PROGRAM named like a busybox applet (board-run sends it as "ls"): writes
# its arguments as it got them, runs the --with files named "mt" (an applet
# too) and "-x" by name, and writes to stdout and stderr in turn; each
# check reads its own mark, so one failing leaves the others to say theirs.
printf '[%s]' "$@" >args.txt
echo "order: one"
echo "order: two" >&2
mt 0 mt.json by-name
# shellcheck disable=SC2215 # a command of that name, sent with --with
-x
echo "order: three"
echo "order: four" >&2
