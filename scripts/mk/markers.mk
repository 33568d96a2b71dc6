# ---- markers: the example built against the installed library and run ----
# examples/markers.c is built as a user builds it (make install into a
# staging folder, pkg-config's flags) and run with markers on and off.
## check-run-markers  examples/markers.c built as a user builds it, run with markers on and off
MARKERS_STAGING := $(CHECK)/markers-staging
.PHONY: check-run-markers
check-run-markers:
	$(Q)mkdir -p $(CHECK)
	$(Q)rm -rf $(MARKERS_STAGING)
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(MARKERS_STAGING) prefix=/usr >/dev/null
	$(Q)tests/check_markers.sh $(CHECK)/host-markers.tap $(MARKERS_STAGING) examples/markers.c '$(CC)'

check-run-host: check-run-markers
CHECK_TAPS += $(CHECK)/host-markers.tap
