# SPDX-License-Identifier: MIT
# ---- the ABI of libselfmon.so against the baseline in the tree (docs/abi.md) ----
## abi-check      libselfmon.so's ABI against abi/libselfmon.so.N.ARCH.xml (abidiff; additions allowed)
## abi-baseline   rewrite that baseline from this build: on purpose only, after an intended change (docs/abi.md)
## check-run-abi  abi-check, then the check itself: an injected layout change must fail it and fall back at run time
ABI_BASELINE := abi/libselfmon.so.$(ABI_MAJOR).$(SRCARCH).xml
ABI_WORK := $(CHECK)/abi
.PHONY: abi-check abi-baseline check-run-abi

abi-check: $(SHLIB)
	$(Q)scripts/abi.sh diff $(SHLIB) $(ABI_BASELINE) $(SRCARCH) && echo '  ABI      $(ABI_BASELINE): unchanged'

abi-baseline: $(SHLIB)
	$(Q)scripts/abi.sh dump $(SHLIB) $(ABI_BASELINE) $(SRCARCH)
	@echo '  ABI      $(ABI_BASELINE) rewritten: commit it with the change it records'

# The copy of the tree with the injected change builds its own libselfmon.so
# (lib only, the shared DEPS).
check-run-abi: $(SHLIB)
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_abi.sh $(CHECK)/host-abi.tap $(SHLIB) $(ABI_BASELINE) $(SRCARCH) $(ABI_WORK) \
	  '$(MAKE) --no-print-directory -j$(CHECK_JOBS) DEPS=$(DEPS) LINUX_SRC=$(call shq,$(LINUX_SRC))' \
	  >/dev/null || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-abi.tap

check-run-host: check-run-abi
CHECK_TAPS += $(CHECK)/host-abi.tap

# The board's build (qemu_arm64_defconfig) against the arm64 baseline: the
# same check for the other architecture selfmon ships a shared library for.
## check-run-abi-arm64  the board build's libselfmon.so against abi/libselfmon.so.N.arm64.xml
.PHONY: check-run-abi-arm64
check-run-abi-arm64:
	$(Q)mkdir -p $(CHECK)
	+$(Q)[ -f $(ARM64_O)/.config ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)if $(ARM64_MAKE) abi-check >$(CHECK)/host-abi-arm64.log 2>&1; then \
	  echo "ok 1 - libselfmon.so for arm64: its ABI is the baseline's (abi/libselfmon.so.$(ABI_MAJOR).arm64.xml), additions aside"; \
	else \
	  echo "not ok 1 - libselfmon.so for arm64 is not the baseline's abi/libselfmon.so.$(ABI_MAJOR).arm64.xml (log: $(CHECK)/host-abi-arm64.log)"; \
	fi >$(CHECK)/host-abi-arm64.tap
	$(Q)cat $(CHECK)/host-abi-arm64.tap

check-run-variants: check-run-abi-arm64
CHECK_TAPS += $(CHECK)/host-abi-arm64.tap
