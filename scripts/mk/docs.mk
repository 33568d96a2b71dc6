# ---- docs: what the README and docs/ show is run as written ----
# Pulled in by the Makefile's last lines; hooks into `make check` through
# check-run-variants and CHECK_TAPS, as the other blocks do.

# The install commands of the README and docs/building.md (every indented
# `make ... install DESTDIR=$STAGING ...` line), run as written on trees whose
# libperf is not built yet: the cross one used to fail there, libperf's own
# install putting its build-local prefix under DESTDIR.
DOCS_INSTALL_O := $(CHECK)/install-docs
INSTALL_DOCS := README.md docs/building.md
.PHONY: check-run-install-docs
check-run-install-docs:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_install_docs.sh $(CHECK)/host-install-docs.tap $(DOCS_INSTALL_O) $(LINUX_DEPS) $(INSTALL_DOCS)
	$(Q)cat $(CHECK)/host-install-docs.tap
check-run-variants: check-run-install-docs
CHECK_TAPS += $(CHECK)/host-install-docs.tap

# `make run` as a newcomer reads it (tests/check_run.sh): one build line, the
# probe, a one-line-per-benchmark bench, what was dropped in one line, the
# next commands; a screen in all.
.PHONY: check-run-makerun
check-run-makerun:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_run.sh $(CHECK)/host-makerun.tap O=$(O)
	$(Q)cat $(CHECK)/host-makerun.tap
check-run-variants: check-run-makerun
CHECK_TAPS += $(CHECK)/host-makerun.tap
