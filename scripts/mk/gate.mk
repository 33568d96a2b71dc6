# SPDX-License-Identifier: MIT
# selfmon compare (the regression gate) in make check: end to end on the
# host, every output format read back by its consumer, and the gate's short
# form (self vs rerun: no alarm; a 50% slowdown: caught). Its unit tests
# (tests/unit/test_compare*.c) and fuzz harness (tests/fuzz/fuzz_json.c) are
# picked up by the existing wildcards. The long measurement of the gate's
# figures is `make gate-resolution` (minutes; not in make check).
## check-run-compare  selfmon compare end to end: every output read back, the gate's short form
## gate-resolution    the gate's figures on this host, the two sides run alternately: false alarms, smallest slowdown caught (minutes)
## gate-trials    the README's host CI step 200 times, the same build both sides, then the new side slowed by 50% (an hour or more)
## gate-board     the gate on the emulated board: 20 reruns at instructions=+0%, a 0.1% slowdown caught
.PHONY: check-run-compare gate-resolution gate-trials

check-run-compare: $(O)/selfmon
	$(Q)mkdir -p $(CHECK)
	$(Q)$(PYTHON) tests/check_compare.py $(O)/selfmon $(srctree) >$(CHECK)/host-compare.tap 2>&1 || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-compare.tap

check-run-host: check-run-compare
CHECK_TAPS += $(CHECK)/host-compare.tap

# The dashboards' payloads (scripts/dashboards) from a report and compare's
# JSON, each validated against the shape kept in tests/fixtures/dashboards.
## check-run-dashboards  SQUAD, KCIDB v5 and Bencher payloads from a report: shapes, medians, verdicts
.PHONY: check-run-dashboards
check-run-dashboards: $(O)/selfmon
	$(Q)mkdir -p $(CHECK)
	$(Q)$(PYTHON) tests/check_dashboards.py $(O)/selfmon $(srctree) >$(CHECK)/host-dashboards.tap 2>&1 || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-dashboards.tap

check-run-host: check-run-dashboards
CHECK_TAPS += $(CHECK)/host-dashboards.tap

# GATE_ROUNDS: runs a side, alternating (GATE_REPS / GATE_ROUNDS repetitions
# each); 1 is two sequential runs.
GATE_TRIES ?= 20
GATE_REPS ?= 15
GATE_ROUNDS ?= $(GATE_REPS)
gate-resolution: $(O)/selfmon
	$(Q)scripts/gate-resolution.sh $(O)/selfmon $(GATE_TRIES) $(GATE_REPS) $(GATE_ROUNDS)

# The README's host step as written, GATE_TRIALS times a mode: how often it
# raises a false alarm on this machine, and whether it ever calls a 50%
# slowdown "same" (docs/compare.md, "The README's step, 200 times").
GATE_TRIALS ?= 200
gate-trials: $(O)/selfmon
	$(Q)scripts/gate-trials.sh $(O)/selfmon quiet $(GATE_TRIALS); q=$$?; \
	  scripts/gate-trials.sh $(O)/selfmon slow $(GATE_TRIALS) && exit $$q

# The same gate on the emulated board (one vCPU, icount): reruns compared at
# instructions=+0%, and a 0.1% slowdown caught (about 2 minutes).
.PHONY: gate-board
gate-board:
	$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MAKE) $(ARM64_O)/selfmon
	$(Q)scripts/gate-board.sh $(ARM64_O)/selfmon $(GATE_TRIES)
