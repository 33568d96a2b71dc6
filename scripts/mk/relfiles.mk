# ---- files and signals: the bundle stopped by a signal, CDPATH ----
# tests/check_bundle_signals.sh kills the bundle's run_tests.sh (dash, and
# busybox ash where `busybox` is installed) with SIGTERM, SIGINT and SIGHUP
# mid-suite: the sysctl restored (a fake /proc/sys), the suite stopped, the
# signal's exit status, no file outside its private temporary directory.
.PHONY: check-run-relfiles
check-run-host: check-run-relfiles
CHECK_TAPS += $(CHECK)/host-bundle-signals.tap
check-run-relfiles:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_bundle_signals.sh $(CHECK)/host-bundle-signals.tap || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-bundle-signals.tap
