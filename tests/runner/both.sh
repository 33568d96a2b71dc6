#!/bin/sh
# Runs the dynamically linked writer (its libraries from --sysroot), then
# hands over to the static one with this script's arguments.
writer-dynamic 0 dynamic.json "from the sysroot" || exit 99
exec writer-static "$@"
