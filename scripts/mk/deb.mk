# SPDX-License-Identifier: MIT
# ---- Debian packages (debian/, docs/packaging.md) ----
# tests/check_deb.sh builds them as a distro does (dpkg-buildpackage -b, and
# -a arm64 -Pcross,nocheck) in a copy of the tree under $(CHECK)/deb,
# runs lintian, installs them with dpkg --root, builds and runs a program
# through the installed selfmon.pc, and runs the arm64 package's CLI and a
# program linked through its selfmon.pc on the emulated board. Each build
# makes its own libperf from linux-source-6.1 (nothing shared with DEPS):
# about 3 minutes in all on two cores.
## check-deb      the Debian packages: built (amd64, arm64 cross), lintian, dpkg --root, an example, the board

.PHONY: check-deb check-run-deb
check-deb:
	$(Q)$(DEPS_SH) deb
	$(Q)$(MAKE) --no-print-directory check-run-deb
	$(Q)tests/summary.sh $(CHECK)/host-deb.tap

check-run-deb:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_deb.sh $(CHECK)/host-deb.tap $(CHECK)/deb tests/min/min.c $(BOARD_RUN) $(BOARD_VM) >/dev/null || \
	  echo "not ok - check-deb could not run: see above" >>$(CHECK)/host-deb.tap
	$(Q)grep -E '^(not )?ok|^# (check-deb|the board)' $(CHECK)/host-deb.tap

check-run-variants: check-run-deb
CHECK_TAPS += $(CHECK)/host-deb.tap
