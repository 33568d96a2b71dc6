# SPDX-License-Identifier: MIT
# The variants of `make check`: the same tests built by clang, with
# ASan+UBSan, and for the generic arch. Other pipelines add their builds as
# prerequisites of check-variants and their runs to check-run-variants.
## check-variants the clang, ASan+UBSan and generic builds (and those other pipelines add)

.PHONY: check-variants check-run-variants

CHECK_TAPS += $(CHECK)/host-clang.tap $(CHECK)/host-asan.tap $(CHECK)/host-generic.tap

check-run-variants:
	$(Q)tests/run_suites.sh $(CHECK)/host-clang.tap $(call suites,$(O)/clang)
	$(Q)tests/run_suites.sh $(CHECK)/host-asan.tap $(call suites,$(O)/asan)
	$(Q)tests/run_suites.sh $(CHECK)/host-generic.tap $(wildcard $(O)/generic/tests/selftests/*_test)

# The same tests built by clang, and with ASan+UBSan; and the generic arch
# (no user-space read), whose kernel tests show every read taking read(2).
# Its unit tests compile but are written for builds with user reads.
check-variants:
	$(Q)$(MAKE) --no-print-directory O=$(O)/generic ARCH=generic all
	$(Q)$(MAKE) --no-print-directory O=$(O)/clang CC=clang all
	$(Q)$(MAKE) --no-print-directory O=$(O)/asan CC=gcc all \
	  EXTRA_CFLAGS='-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer' \
	  LDFLAGS='-fsanitize=address,undefined,float-cast-overflow'
