# SPDX-License-Identifier: MIT
# Install: the library, its headers, the CLI and selfmon.pc.
## install        DESTDIR= prefix= (or PREFIX=) : library, headers, CLI, selfmon.pc (a sysroot too)

.PHONY: install

# prefix= (as Buildroot and autotools spell it) or PREFIX=. A cross build
# installs into a sysroot's staging folder: DESTDIR=<staging> prefix=/usr;
# selfmon.pc then names /usr, which a cross pkg-config prefixes with
# PKG_CONFIG_SYSROOT_DIR.
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
DESTDIR ?=
libdir := $(prefix)/lib
includedir := $(prefix)/include
# Paths quoted with $(call shq,...): a prefix may hold spaces, '&' or quotes
# (scripts/mk/relfiles.mk; musl installs the kernel UAPI headers there too).
install: lib cli
	$(Q)install -d $(call shq,$(DESTDIR)$(libdir)/pkgconfig) $(call shq,$(DESTDIR)$(includedir)/selfmon) $(call shq,$(DESTDIR)$(prefix)/bin)
	$(Q)install -m 644 $(O)/libselfmon.a $(call shq,$(DESTDIR)$(libdir)/)
	$(Q)install -m 644 include/selfmon/*.h arch/$(SRCARCH)/include/selfmon/arch.h $(call shq,$(DESTDIR)$(includedir)/selfmon/)
	$(Q)install -m 755 $(O)/selfmon $(call shq,$(DESTDIR)$(prefix)/bin/)
	$(Q)install -m 644 $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a $(call shq,$(DESTDIR)$(libdir)/)
	$(Q)sed -e $(call shq,s|@PREFIX@|$(call pc_sed_prefix,$(prefix))|; s|@VERSION@|$(VERSION)|; s|@CFLAGS@|$(strip $(if $(CONFIG_SERIALIZE_READS),-DSELFMON_SERIALIZE_READS) $(PC_EXTRA_CFLAGS))|) \
	  scripts/selfmon.pc.in > $(call shq,$(DESTDIR)$(libdir)/pkgconfig/selfmon.pc)
	@echo $(call shq,  installed in $(DESTDIR)$(prefix))
