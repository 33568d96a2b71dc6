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
install: lib cli
	$(Q)install -d $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(includedir)/selfmon $(DESTDIR)$(prefix)/bin
	$(Q)install -m 644 $(O)/libselfmon.a $(DESTDIR)$(libdir)/
	$(Q)install -m 644 include/selfmon/*.h arch/$(SRCARCH)/include/selfmon/arch.h $(DESTDIR)$(includedir)/selfmon/
	$(Q)install -m 755 $(O)/selfmon $(DESTDIR)$(prefix)/bin/
	$(Q)install -m 644 $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a $(DESTDIR)$(libdir)/
	$(Q)sed -e 's|@PREFIX@|$(prefix)|; s|@VERSION@|$(VERSION)|; s|@CFLAGS@|$(if $(CONFIG_SERIALIZE_READS),-DSELFMON_SERIALIZE_READS)|' \
	  scripts/selfmon.pc.in > $(DESTDIR)$(libdir)/pkgconfig/selfmon.pc
	@echo "  installed in $(DESTDIR)$(prefix)"
