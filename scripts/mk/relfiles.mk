# SPDX-License-Identifier: MIT
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

# ---- install: any prefix, and the kernel UAPI headers of a musl build ----
# $(call shq,TEXT): TEXT as one shell word (single quotes, a quote as '\'').
shq = '$(subst ','\'',$(1))'
# The prefix as selfmon.pc holds it (a space and a quote escaped with '\' for
# pkg-config, which reads values as shell words), then as sed's replacement
# text ('\', '&' and the '|' delimiter escaped).
pc_sed_prefix = $(subst |,\|,$(subst &,\&,$(subst \,\\,$(subst ',\',$(subst $(space),\$(space),$(1))))))
empty :=
space := $(empty) $(empty)

# The public headers include <linux/perf_event.h>. glibc toolchains ship the
# kernel's UAPI headers; musl's do not, and the library was built against
# those of its LINUX_SRC (build-deps.sh: $(LIBPERF)/uapi). A musl install puts
# the ones the public headers use (the compiler's own list, -M) under
# include/selfmon/uapi, and selfmon.pc's Cflags name that folder.
ifeq ($(LIBC),musl)
PC_EXTRA_CFLAGS = -I$${includedir}/selfmon/uapi
install: install-uapi
endif
UAPI_SRC = $(LIBPERF)/uapi
# Not the test frameworks' headers: <selfmon/cmocka.h> includes <cmocka.h>,
# which the musl toolchain does not have, and <selfmon/kselftest.h> wants
# kselftest_harness.h first; the selfmon headers they include are read
# through the others.
# <selfmon/priv/*.h> are read through the headers that include them.
UAPI_USERS = $(filter-out %/cmocka.h %/kselftest.h %/priv/%,$(PUBLIC_HEADERS))
.PHONY: install-uapi
install-uapi:
	$(Q)$(CC) -M -Iinclude -Iarch/$(SRCARCH)/include $(addprefix -include ,$(UAPI_USERS)) \
	  -x c /dev/null | tr ' \\' '\n\n' | grep '^$(UAPI_SRC)/' | sort -u >$(O)/uapi-headers.list
	$(Q)test -s $(O)/uapi-headers.list || { echo "install-uapi: no header of $(UAPI_SRC) in the public headers' list" >&2; exit 1; }
	$(Q)while read -r h; do \
	  install -D -m 644 "$$h" $(call shq,$(DESTDIR)$(includedir)/selfmon/uapi)/"$${h#$(UAPI_SRC)/}" || exit 1; \
	done <$(O)/uapi-headers.list

# tests/check_install_paths.sh: the glibc and musl builds installed into a
# prefix with a space, '&' and a quote; a program built against each through
# pkg-config (the musl one needs the installed UAPI headers).
.PHONY: check-run-relfiles-install
check-run-variants: check-run-relfiles-install
CHECK_TAPS += $(CHECK)/host-install-paths.tap
check-run-relfiles-install:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_install_paths.sh $(CHECK)/host-install-paths.tap \
	  '$(MAKE) -s --no-print-directory DEPS=$(DEPS)' $(O) $(MUSL_O) tests/min/min.c || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-install-paths.tap
