# SPDX-License-Identifier: MIT
# The host's checks (check-run-host, in `make check`): the unit and kernel
# tests of this build, the exported symbols, the unprivileged user, the soak,
# the layers and LINUX_SRC. check-host runs them alone.
## check-host     the host's part of check: tests, symbols, unprivileged, soak, layers, LINUX_SRC
## check-layers   the include and call graphs point down, with no circle (docs/architecture.md)

.PHONY: check-host check-run-host check-layers check-run-layers check-run-linux-src

# Each check-run-host line's TAP; check-host sums these, check all of CHECK_TAPS.
HOST_TAPS = $(CHECK)/host-gcc.tap $(CHECK)/host-symbols.tap $(CHECK)/host-unpriv.tap $(CHECK)/host-soak.tap
CHECK_TAPS += $(HOST_TAPS)

check-host: all
	$(Q)$(MAKE) --no-print-directory check-run-host
	$(Q)tests/summary.sh $(HOST_TAPS)

check-run-host:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/run_suites.sh $(CHECK)/host-gcc.tap $(call suites,$(O))
	$(Q)SHLIB=$(if $(filter $(SHLIB_LINKS),$(LIB_TARGETS)),$(SHLIB)) tests/check_symbols.sh $(O)/libselfmon.a $(INTERNAL_LIB) $(NM) $(CC) $(PUBLIC_HEADERS) \
	  >$(CHECK)/host-symbols.tap || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-symbols.tap
	$(Q)scripts/check-unpriv.sh $(CHECK)/host-unpriv.tap $(O)/selfmon $(O)/tests/selftests/unpriv_test
	$(Q)SELFMON_SOAK_CYCLES=100000 SELFMON_SOAK_SECONDS=180 \
	  tests/run_suites.sh $(CHECK)/host-soak.tap $(O)/tests/selftests/resources_test

# The layers (docs/architecture.md): every include and every call of the
# library's objects points down, and none goes round a circle.
# Only this configuration's objects (obj-y, util-y): one Kconfig no longer
# chooses may linger in $(O)/obj. Each source named in an objs.mk is checked
# when the Makefile is read (the "objects" block): a file left out of every
# list stops the build, this check included.
LAYERS_CHECK = $(PYTHON) scripts/check-layers.py --arch $(SRCARCH) --objects $(O)/obj --nm $(NM) \
	       --public $(O)/public-symbols.txt --only '$(LIB_OBJS) $(UTIL_OBJS)'
check-layers: lib
	$(Q)$(LAYERS_CHECK)

check-run-layers:
	$(Q)mkdir -p $(CHECK)
	$(Q)$(PYTHON) scripts/check-layers.py --self-test --tap $(CHECK)/host-layers-selftest.tap >/dev/null || true
	$(Q)$(LAYERS_CHECK) --tap $(CHECK)/host-layers.tap >/dev/null || true
	$(Q)grep -hE '^(not )?ok|^#' $(CHECK)/host-layers.tap $(CHECK)/host-layers-selftest.tap
check-run-host: check-run-layers
HOST_TAPS += $(CHECK)/host-layers.tap $(CHECK)/host-layers-selftest.tap

# LINUX_SRC: sources refused by name, libperf checked.
# tests/check_linux_src.sh: build-deps.sh on sources that will not do, the
# deps directory per source, check-libperf.sh on libperfs that lack what
# selfmon calls, and the arm64 cross build's headers. TAP in host-linuxsrc.tap.
check-run-linux-src:
	$(Q)mkdir -p $(CHECK)
	$(Q){ $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null && \
	  $(ARM64_MAKE) $(ARM64_O)/include/generated/autoconf.h $(ARM64_O)/include/generated/libperf.h; } || \
	  echo "  (no arm64 cross build here: its header check skips)"
	$(Q)tests/check_linux_src.sh $(LIBPERF) $(O) $(ARM64_O) $(LINUX_DEPS)/arm64 >$(CHECK)/host-linuxsrc.tap 2>&1 || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-linuxsrc.tap
check-run-host: check-run-linux-src
HOST_TAPS += $(CHECK)/host-linuxsrc.tap
