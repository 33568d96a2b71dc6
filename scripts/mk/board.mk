# SPDX-License-Identifier: MIT
# The board: the test bundle a board (or the emulated one) runs, and the
# emulated arm64 board of `make check` (scripts/vm).
## tests-bundle   the bundle a board runs (build/bundle, and a tarball): ./run_tests.sh as root
## check-arm64    the emulated arm64 boards (QEMU, Debian's 6.1 and 6.12 kernels, musl)

.PHONY: tests-bundle bundle-copy check-arm64 check-arm64-run

# ---- the test bundle: what a board (or the emulated one) runs ----
BUNDLE := $(O)/bundle
tests-bundle: all
	$(Q)$(MAKE) --no-print-directory bundle-copy
	$(Q)tar -czf $(O)/selfmon-tests-$(SRCARCH).tar.gz -C $(O) bundle
	@echo "  bundle   $(BUNDLE) and $(O)/selfmon-tests-$(SRCARCH).tar.gz: run ./run_tests.sh as root"
	$(if $(CONFIG_STATIC),,@echo "  note: not CONFIG_STATIC: the board needs libcmocka.so.0")

bundle-copy:
	$(Q)rm -rf $(BUNDLE) && mkdir -p $(BUNDLE)/bin
	$(Q)cp $(call suites,$(O)) $(BUNDLE)/bin/
	$(Q)cp tests/bundle/run_tests.sh tests/run_suites.sh tests/summary.sh $(BUNDLE)/
	$(Q)cp $(O)/selfmon $(BUNDLE)/
	$(Q)cp $(MIN) $(BUNDLE)/ && cp tests/bundle/min_test $(BUNDLE)/bin/
	$(Q)cp -R tests/fixtures/sysfs $(BUNDLE)/fixtures
	$(Q)mkdir -p $(BUNDLE)/lava && cp lava/selfmon-lava.sh $(BUNDLE)/lava/
	$(Q)[ ! -d $(O)/examples ] || { cp -R $(O)/examples $(BUNDLE)/examples && cp tests/run_examples.sh $(BUNDLE)/bin/examples_test; }

# ---- the emulated arm64 board (scripts/vm): real kernel, real mrs ----
ARM64_O := $(srctree)/build/arm64-vm
ARM64_MAKE := $(MAKE) --no-print-directory ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- O=$(ARM64_O)
check-arm64-run:
	$(Q)mkdir -p $(CHECK) && rm -f $(CHECK)/arm64-*
	+$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) tests-bundle
	+$(Q)$(ARM64_612_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_612_MAKE) tests-bundle
	$(Q)scripts/vm/check.sh $(ARM64_O)/bundle $(CHECK) $(srctree)/build/vm $(ARM64_612_O)/bundle

# The second kernel line: Debian's 6.12 arm64 kernel boots the
# bundle built against libperf from linux-source-6.12, in a tree of its own.
LINUX_SRC_612 := /usr/src/linux-source-6.12.tar.xz
ARM64_612_O := $(srctree)/build/arm64-vm-612
ARM64_612_MAKE := $(ARM64_MAKE) O=$(ARM64_612_O) LINUX_SRC=$(LINUX_SRC_612)

# The summary still runs after a failure: the failure becomes a "not ok".
ARM64_FAILED = echo "not ok - the arm64 part (build, bundle or VM) failed: see above" >>$(CHECK)/arm64-failed.tap

check-arm64:
	$(Q)scripts/deps.sh build tests board
	$(Q)$(MAKE) --no-print-directory check-arm64-run || $(ARM64_FAILED)
	$(Q)tests/summary.sh $(CHECK)/arm64-*.tap
