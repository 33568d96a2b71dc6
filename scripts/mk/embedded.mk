# SPDX-License-Identifier: MIT
# Embedded builds: musl, size, the minimal program, the cross install.
## size           text/data/bss and stripped size: library, CLI, minimal program (glibc, musl; x86_64, arm64)
## min            the minimal static program (tests/min), with and without --gc-sections

# The minimal program (tests/min/min.c): one event read inline, linked
# statically with --gc-sections, so it keeps only the counting API it reaches
# of libselfmon.a (-ffunction-sections above). min.nogc is the same link
# without --gc-sections: what the cut saves, and the proof that the symbol
# check of scripts/size.sh can fail. Not in `all`: a sanitizer build cannot
# link statically.
MIN := $(O)/tests/min
MIN_LINK = $(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -static $< $(O)/libselfmon.a $(LIBS)

.PHONY: min size size-build check-run-musl check-run-size check-run-install check-run-fresh

min: $(MIN) $(MIN).nogc

MIN_DEPS := $(O)/obj/tests/min/min.o $(O)/libselfmon.a $(filter %.a,$(LIBS))
$(filter %.a,$(LIBS)): | $(LIBPERF)/.stamp
$(MIN): $(MIN_DEPS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(MIN_LINK) -Wl,--gc-sections -Wl,-Map=$@.map -o $@

$(MIN).nogc: $(MIN_DEPS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(MIN_LINK) -o $@

# The musl trees of `make check`: the host's suites (host-musl.tap) and the
# emulated board's musl boot (scripts/vm/check.sh's max-musl).
MUSL_O := $(O)/musl
ARM64_MUSL_O := $(srctree)/build/arm64-vm-musl
ARM64_MUSL_MAKE := $(MAKE) --no-print-directory ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- LIBC=musl O=$(ARM64_MUSL_O)
# The smallest arm64 image (configs/arm64_min_defconfig: musl, no
# pmu-events tables, no unwind tables, -Os): its minimal program is the one
# the tight budget holds.
ARM64_MIN_O := $(srctree)/build/arm64-min-musl
ARM64_MIN_MAKE := $(MAKE) --no-print-directory ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- LIBC=musl O=$(ARM64_MIN_O)

# `make size`: the five builds, each static where it is a board's (the arm64
# trees are the emulated board's, CONFIG_STATIC, and the smallest image's);
# the host glibc CLI is as `make` links it. The budgets, in bytes of the
# stripped minimal program: the emulated board's musl tree (with its
# pmu-events tables) and the smallest image's (docs/building.md, "Size").
SIZE_BUDGETS ?= arm64-musl=204800 arm64-min=65536
SIZE_TREES = x86_64-glibc::$(O) x86_64-musl::$(MUSL_O) \
	     arm64-glibc:aarch64-linux-gnu-:$(ARM64_O) arm64-musl:aarch64-linux-gnu-:$(ARM64_MUSL_O) \
	     arm64-min:aarch64-linux-gnu-:$(ARM64_MIN_O)

.PHONY: size-objs
size-objs: lib cli min
	@:

# The arm64 trees are the build's own, not a user's: each is made afresh
# from its defconfig when that changed (a new option off there, as
# CONFIG_GROUPS in the smallest image's, would otherwise come in at its
# default, on).
size-build:
	$(Q)$(MAKE) --no-print-directory size-objs
	$(Q)$(MAKE) --no-print-directory O=$(MUSL_O) LIBC=musl size-objs
	+$(Q)[ $(ARM64_O)/.config -nt configs/qemu_arm64_defconfig ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) size-objs
	+$(Q)[ $(ARM64_MUSL_O)/.config -nt configs/qemu_arm64_defconfig ] || $(ARM64_MUSL_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MUSL_MAKE) size-objs
	+$(Q)[ $(ARM64_MIN_O)/.config -nt configs/arm64_min_defconfig ] || $(ARM64_MIN_MAKE) arm64_min_defconfig >/dev/null
	+$(Q)$(ARM64_MIN_MAKE) lib min

size: size-build
	$(Q)scripts/size.sh '$(SIZE_BUDGETS)' $(SIZE_TREES)

check-run-size:
	$(Q)mkdir -p $(CHECK)
	$(Q)TAP=$(CHECK)/host-size.tap scripts/size.sh '$(SIZE_BUDGETS)' $(SIZE_TREES)
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-size.tap

check-run-musl:
	$(Q)tests/run_suites.sh $(CHECK)/host-musl.tap $(call suites,$(MUSL_O))

# A cross build installed into a sysroot's staging folder, as Buildroot does,
# and a program linked against it with a cross pkg-config's flags: the
# board's glibc tree, and the smallest image's musl tree (its libperf calls
# selfmon's arena, core/heap.h, which libselfmon.a must bring to a link
# that names it first). The musl program runs on the board (min_staged_test).
INSTALL_STAGING := $(CHECK)/staging
INSTALL_STAGING_MIN := $(CHECK)/staging-min
MUSL_SPECS := -specs /usr/lib/aarch64-linux-musl/musl-gcc.specs
check-run-install:
	$(Q)rm -rf $(INSTALL_STAGING) $(INSTALL_STAGING_MIN)
	$(Q)$(ARM64_MAKE) install DESTDIR=$(INSTALL_STAGING) prefix=/usr >/dev/null
	$(Q)tests/check_install.sh $(CHECK)/host-install.tap $(INSTALL_STAGING) aarch64-linux-gnu- tests/min/min.c
	+$(Q)[ $(ARM64_MIN_O)/.config -nt configs/arm64_min_defconfig ] || $(ARM64_MIN_MAKE) arm64_min_defconfig >/dev/null
	+$(Q)$(ARM64_MIN_MAKE) install DESTDIR=$(INSTALL_STAGING_MIN) prefix=/usr >/dev/null
	$(Q)tests/check_install.sh $(CHECK)/host-install-musl.tap $(INSTALL_STAGING_MIN) aarch64-linux-gnu- \
	  tests/min/min.c "$(MUSL_SPECS)"

# The board's musl bundle: check-arm64-run builds it first and hands it to
# scripts/vm/check.sh, which boots it once more (max-musl). It carries the
# smallest image's minimal program too (min-small, run by min_small_test),
# and the same program linked against that tree as installed, through
# pkg-config (min-staged, run by min_staged_test; made by check-run-install
# unless newer than the tree's library).
.PHONY: embedded-build arm64-musl-bundle
embedded-build: size-build
	$(Q)$(MAKE) -s --no-print-directory O=$(MUSL_O) LIBC=musl all

arm64-musl-bundle:
	+$(Q)$(ARM64_MUSL_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MUSL_MAKE) tests-bundle
	+$(Q)[ $(ARM64_MIN_O)/.config -nt configs/arm64_min_defconfig ] || $(ARM64_MIN_MAKE) arm64_min_defconfig >/dev/null
	+$(Q)$(ARM64_MIN_MAKE) lib min
	$(Q)cp $(ARM64_MIN_O)/tests/min $(ARM64_MUSL_O)/bundle/min-small
	$(Q)cp tests/bundle/min_test $(ARM64_MUSL_O)/bundle/bin/min_small_test
	+$(Q)[ $(INSTALL_STAGING_MIN).program -nt $(ARM64_MIN_O)/libselfmon.a ] || \
	  $(MAKE) --no-print-directory check-run-install
	$(Q)cp $(INSTALL_STAGING_MIN).program $(ARM64_MUSL_O)/bundle/min-staged
	$(Q)cp tests/bundle/min_test $(ARM64_MUSL_O)/bundle/bin/min_staged_test

check-arm64-run: arm64-musl-bundle
check-arm64-run: export SELFMON_MUSL_BUNDLE := $(ARM64_MUSL_O)/bundle
tests-bundle: min
# A fresh machine's first make run, simulated (no kconfiglib yet).
check-run-fresh:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_fresh.sh $(CHECK)/host-fresh.tap $(KCONFIGLIB)
	$(Q)cat $(CHECK)/host-fresh.tap

check-variants: embedded-build
check-run-variants: check-run-musl check-run-size check-run-install check-run-fresh
CHECK_TAPS += $(CHECK)/host-musl.tap $(CHECK)/host-size.tap $(CHECK)/host-install.tap \
	      $(CHECK)/host-install-musl.tap $(CHECK)/host-fresh.tap
