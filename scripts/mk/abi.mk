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
