#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the dynamically linked writer (its libraries from --sysroot) and the
# budget example when present, then hands over to the static one with this script's arguments.
writer-dynamic 0 dynamic.json "from the sysroot" || exit 99
# A user's budget test (examples/budget_cmocka.c), when it was sent along.
if command -v budget-example >/dev/null; then
	budget-example || exit 98
fi
exec writer-static "$@"
