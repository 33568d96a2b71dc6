# SPDX-License-Identifier: MIT
# A real LAVA lab on this machine (scripts/lab/lab.sh): server, scheduler,
# PostgreSQL and a worker with QEMU devices, in a cached Debian 12 chroot.
## check-lab      selfmon's LAVA jobs through a real lab on 127.0.0.1: lavacli, REST API, lab-run, the gate
## lab-up lab-down  bring the lab up (URL and token in build/lab/lab.env) or stop it

.PHONY: check-lab check-lab-run lab-up lab-down

LAB_FAILED = echo "not ok - the lab part (deps, bundle or the lab) failed: see above" >>$(CHECK)/lab.tap

# The bundle (arm64) and the kernel the lava/ jobs boot; the host's
# selfmon for the gate (selfmon compare).
check-lab-run:
	$(Q)mkdir -p $(CHECK) && rm -f $(CHECK)/lab.tap
	$(Q)$(MAKE) --no-print-directory cli
	$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MAKE) tests-bundle
	$(Q)image=$$(scripts/vm/fetch-kernel.sh $(srctree)/build/vm) && \
	  tests/check_lab.sh $(CHECK) $(O)/selfmon $(LAVA_BUNDLE) $(srctree)/build/vm "$$image"

check-lab:
	$(Q)scripts/deps.sh build tests board lava lab
	$(Q)$(MAKE) --no-print-directory check-lab-run || $(LAB_FAILED)
	$(Q)tests/summary.sh $(CHECK)/lab.tap

lab-up:
	$(Q)scripts/deps.sh lab
	$(Q)scripts/lab/lab.sh start

lab-down:
	$(Q)scripts/lab/lab.sh stop
