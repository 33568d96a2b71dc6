# SPDX-License-Identifier: MIT
# ---- the board as a runner, and the dogfood gate (docs/budgets.md) ----
# scripts/board-run runs a user's arm64 programs on the emulated board and
# brings back their output, exit status and files. In `make check`:
#   check-run-runner   tests/check_board_run.sh: a static and a dynamically
#                      linked (--sysroot) program, one boot -> board-runner.tap
#   check-run-dogfood  the bench kernels on the board DOGFOOD_RERUNS times, and
#                      once built with one more instruction in add_chain's loop,
#                      each compared with DOGFOOD_BASELINE by DOGFOOD_COMPARE
#                      (no alarm on a rerun, an alarm naming add_chain and
#                      instructions on the injection), one boot -> board-dogfood.tap
# `make baseline` renews DOGFOOD_BASELINE from one board run and prints the
# gate's table of old against new: commit it.
## scripts/board-run PROGRAM  your own arm64 program on the emulated board: output, status, files (--help)
## check-run-runner   board-run's check: refusals, a static and a --sysroot program, the cmocka example
## check-run-dogfood  the bench kernels on the board against tests/baseline/, and an injected regression
## baseline       renew tests/baseline/board-bench.json from one board run (then commit it)
.PHONY: check-run-runner check-run-dogfood dogfood-build baseline

BOARD_RUN := $(srctree)/scripts/board-run
BOARD_VM := $(srctree)/build/vm
RUNNER_O := $(O)/runner
RUNNER_CC := aarch64-linux-gnu-gcc
RUNNER_SYSROOT ?= /usr/aarch64-linux-gnu

$(RUNNER_O)/writer-static: tests/runner/writer.c
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(RUNNER_CC) -O2 $(CFLAGS_WARN) -static $< -o $@

$(RUNNER_O)/writer-dynamic: tests/runner/writer.c
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(RUNNER_CC) -O2 $(CFLAGS_WARN) $< -o $@

# examples/budget_cmocka.c as a user builds it for the board: against the
# arm64 library installed in a staging folder, with a cross pkg-config's
# flags, and the static arm64 cmocka of the board's bundle.
RUNNER_STAGING := $(RUNNER_O)/staging
RUNNER_CMOCKA := $(DEPS)/cmocka-aarch64-linux-gnu
RUNNER_PKG := PKG_CONFIG_SYSROOT_DIR=$(RUNNER_STAGING) PKG_CONFIG_LIBDIR=$(RUNNER_STAGING)/usr/lib/pkgconfig \
	      PKG_CONFIG_PATH= pkg-config
.PHONY: runner-example
runner-example:
	+$(Q)[ -f $(ARM64_O)/.config ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) $(RUNNER_CMOCKA)/.stamp
	$(Q)rm -rf $(RUNNER_STAGING)
	+$(Q)$(ARM64_MAKE) install DESTDIR=$(RUNNER_STAGING) prefix=/usr >/dev/null
	$(quiet) CC $(RUNNER_O)/budget-example
	$(Q)$(RUNNER_CC) -O2 $(CFLAGS_WARN) -static examples/budget_cmocka.c -I$(RUNNER_CMOCKA)/include \
	  $$($(RUNNER_PKG) --cflags selfmon) $$($(RUNNER_PKG) --static --libs selfmon) \
	  $(RUNNER_CMOCKA)/lib/libcmocka.a -o $(RUNNER_O)/budget-example

# A failure becomes a "not ok" in the TAP: the rest of `make check` goes on.
check-run-runner:
	$(Q)mkdir -p $(CHECK)
	$(Q)$(MAKE) --no-print-directory $(RUNNER_O)/writer-static $(RUNNER_O)/writer-dynamic runner-example && \
	  tests/check_board_run.sh $(CHECK)/board-runner.tap $(BOARD_RUN) $(BOARD_VM) \
	    $(RUNNER_O)/writer-static $(RUNNER_O)/writer-dynamic $(RUNNER_SYSROOT) $(RUNNER_O)/budget-example || \
	  echo "not ok - board-run's check could not run: see above" >>$(CHECK)/board-runner.tap

DOGFOOD_BASELINE := tests/baseline/board-bench.json
DOGFOOD_RERUNS ?= 20
# The kernels whose instructions are fixed by their code (not readcost and
# samplecost, whose syscall paths are the kernel's).
DOGFOOD_FILTER := ^(add_|load_|branch_|memcpy_|memset_|empty)
# The gate: this command, then BASE NEW; exit 0 no regression, 1 a regression.
DOGFOOD_COMPARE ?= $(O)/selfmon compare --metric instructions --limit instructions=+0%
DOGFOOD_RUN := $(CHECK)/dogfood

# The board's CLI, and the same with add_chain's loop one instruction longer
# (selfmon-inject): arch/<arch>/kernels.c, the one file that reads
# SELFMON_TEST_INJECT_ADD_CHAIN, compiled once more with it and linked with
# the tree's other objects, rather than a whole tree built again.
INJECT_KERNELS := $(O)/obj/inject/kernels.o
INJECT_CLI_OBJS = $(TOOL_OBJS) $(filter-out $(O)/obj/arch/$(SRCARCH)/kernels.o,$(CLI_OBJS)) $(INJECT_KERNELS)
$(INJECT_KERNELS): arch/$(SRCARCH)/kernels.c $(AUTOCONF) $(LIBPERF_H)
	$(quiet) CC "$< (-DSELFMON_TEST_INJECT_ADD_CHAIN)"
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DSELFMON_TEST_INJECT_ADD_CHAIN -MMD -MP -c $< -o $@
$(O)/selfmon-inject: $(INJECT_CLI_OBJS) $(O)/libselfmon.a $(UTIL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(INJECT_CLI_OBJS) $(O)/libselfmon.a $(UTIL_LIB) $(LIBS) -o $@

dogfood-build:
	+$(Q)[ -f $(ARM64_O)/.config ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) cli $(ARM64_O)/selfmon-inject

check-run-dogfood: cli
	$(Q)rm -rf $(DOGFOOD_RUN) && mkdir -p $(CHECK)
	$(Q){ $(MAKE) --no-print-directory dogfood-build && \
	  $(BOARD_RUN) --vm $(BOARD_VM) --out $(DOGFOOD_RUN) --log $(CHECK)/board-dogfood.log \
	    --with $(ARM64_O)/selfmon --with $(ARM64_O)/selfmon-inject \
	    tests/dogfood/board-bench.sh $(DOGFOOD_RERUNS) '$(DOGFOOD_FILTER)'; } || \
	  echo "  dogfood: the board run failed (log: $(CHECK)/board-dogfood.log)"
	$(Q)tests/dogfood/gate.sh $(CHECK)/board-dogfood.tap $(DOGFOOD_BASELINE) $(DOGFOOD_RUN) \
	  $(DOGFOOD_RERUNS) $(DOGFOOD_COMPARE) >/dev/null
	$(Q)grep -E '^(not )?ok' $(CHECK)/board-dogfood.tap

baseline: dogfood-build cli
	$(Q)rm -rf $(O)/baseline-run
	$(Q)$(BOARD_RUN) --vm $(BOARD_VM) --out $(O)/baseline-run --with $(ARM64_O)/selfmon \
	  tests/dogfood/board-bench.sh 1 '$(DOGFOOD_FILTER)'
	$(Q)mkdir -p $(dir $(DOGFOOD_BASELINE))
	@# What changed in instructions: the file's diff also shows the virtual time's jitter.
	$(Q)if [ -f $(DOGFOOD_BASELINE) ]; then $(DOGFOOD_COMPARE) $(DOGFOOD_BASELINE) $(O)/baseline-run/bench-01.json; fi || true
	$(Q)cp $(O)/baseline-run/bench-01.json $(DOGFOOD_BASELINE)
	@echo "  baseline $(DOGFOOD_BASELINE) renewed: commit it (the table above is what changed in instructions)"

check-run-variants: check-run-runner check-run-dogfood
CHECK_TAPS += $(CHECK)/board-runner.tap $(CHECK)/board-dogfood.tap
# ---- end of the runner block ----
