# SPDX-License-Identifier: MIT
# Board farms: LAVA (lava/).
## check-lava     LAVA jobs validated, emulated-board jobs run by lava-run (lava/)

.PHONY: check-lava check-lava-run

# check-lava: lava/jobs/*.yaml pass LAVA's strict schema; lava-run (LAVA's
# own dispatcher, no server) runs the emulated-board jobs on the arm64
# bundle, and negative jobs (a failing test, a hang, a panic); LAVA's
# per-test results must equal the bundle's TAP. TAP in $(CHECK)/lava.tap.
LAVA_O := $(srctree)/build/lava
LAVA_BUNDLE := $(ARM64_O)/selfmon-tests-arm64.tar.gz
LAVA_BOARDS ?= max,cortex-a72,biglittle
LAVA_NEGATIVE ?= fail,hang,panic
# Jobs at once: each QEMU (TCG, icount) keeps one core busy.
LAVA_PARALLEL ?= 2
LAVA_FAILED = echo "not ok - the LAVA part (deps, bundle or lava-run) failed: see above" >>$(CHECK)/lava.tap

check-lava-run:
	$(Q)mkdir -p $(CHECK) && rm -f $(CHECK)/lava.tap
	$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MAKE) tests-bundle
	$(Q)image=$$(scripts/vm/fetch-kernel.sh $(srctree)/build/vm) && \
	  $(PYTHON) lava/check.py --jobs $(LAVA_BOARDS) --negative $(LAVA_NEGATIVE) \
	  --parallel $(LAVA_PARALLEL) --kernel "$$image" $(srctree) $(LAVA_O) $(CHECK) $(LAVA_BUNDLE) $(srctree)/build/vm

check-lava:
	$(Q)scripts/deps.sh build tests board lava
	$(Q)$(MAKE) --no-print-directory check-lava-run || $(LAVA_FAILED)
	$(Q)tests/summary.sh $(CHECK)/lava.tap
