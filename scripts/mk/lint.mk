# SPDX-License-Identifier: MIT
# Lint: the kernel's checkpatch.pl (from LINUX_SRC), cppcheck and clang-tidy
# on the code selfmon ships (scripts/lint.sh says which files and why each
# suppression); `make check` runs it into host-lint.tap.
## lint           checkpatch (kernel), cppcheck and clang-tidy on the library and CLI: no findings
## check-spdx     every source, script and make file names its licence (SPDX line; docs/licensing.md)

.PHONY: lint check-run-lint check-spdx check-run-spdx

LINT = scripts/lint.sh $(DEPS)/lint-$(notdir $(LINUX_DEPS)) $(LINUX_SRC)
LINT_FLAGS = -D_GNU_SOURCE -DSELFMON_VERSION='"$(VERSION)"' -Iinclude -Iarch/$(SRCARCH)/include \
	     -I$(O)/include -I$(LIBPERF)/include

lint: $(AUTOCONF) $(LIBPERF_H)
	$(Q)scripts/deps.sh lint
	$(Q)mkdir -p $(CHECK)
	$(Q)$(LINT) $(CHECK)/host-lint.tap $(SRCARCH) $(LINT_FLAGS)
	$(Q)scripts/check-spdx.sh

check-run-lint: $(AUTOCONF) $(LIBPERF_H)
	$(Q)mkdir -p $(CHECK)
	$(Q)$(LINT) $(CHECK)/host-lint.tap $(SRCARCH) $(LINT_FLAGS) >/dev/null || true
	$(Q)cat $(CHECK)/host-lint.tap

check-run-host: check-run-lint
HOST_TAPS += $(CHECK)/host-lint.tap

# The SPDX lines (scripts/check-spdx.sh): git and a shell only, in a second.
check-spdx:
	$(Q)scripts/check-spdx.sh

check-run-spdx:
	$(Q)mkdir -p $(CHECK)
	$(Q)scripts/check-spdx.sh $(CHECK)/host-spdx.tap || true
	$(Q)cat $(CHECK)/host-spdx.tap

check-run-host: check-run-spdx
HOST_TAPS += $(CHECK)/host-spdx.tap
