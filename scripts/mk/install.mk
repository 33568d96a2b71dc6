# SPDX-License-Identifier: MIT
# Install: the library, its headers, the CLI and selfmon.pc.
# libperf.a and libapi.a, selfmon's build of the kernel's tools/lib (GPL-2.0,
# docs/licensing.md), go to a directory of selfmon's own, $(libdir)/selfmon:
# they stay separate archives, so that what is MIT and what is GPL-2.0 can be
# told apart, and they never clash with a distro's libperf package's files.
## install        DESTDIR= prefix= (or PREFIX=) libdir= includedir= mandir= : libselfmon.a, .so and _pic.a, headers, CLI, selfmon.pc (a sysroot too)
## check-run-flags  a distro's install replayed (dpkg-buildflags, Buildroot, Yocto; host and arm64): its flags reach selfmon

.PHONY: install

# prefix= (as Buildroot and autotools spell it) or PREFIX=. A cross build
# installs into a sysroot's staging folder: DESTDIR=<staging> prefix=/usr;
# selfmon.pc then names /usr, which a cross pkg-config prefixes with
# PKG_CONFIG_SYSROOT_DIR.
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
DESTDIR ?=
# The GNU installation directories, with their defaults: a distro names its
# own (Debian's multiarch libdir=/usr/lib/aarch64-linux-gnu; Yocto exports
# them), and selfmon.pc follows, so that pkg-config's -L and -I are where the
# archives and headers went.
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
libdir ?= $(exec_prefix)/lib
includedir ?= $(prefix)/include
# Paths quoted with $(call shq,...): a prefix may hold spaces, '&' or quotes
# (scripts/mk/relfiles.mk; musl installs the kernel UAPI headers there too).
install: lib cli
	$(Q)install -d $(call shq,$(DESTDIR)$(libdir)/pkgconfig) $(call shq,$(DESTDIR)$(includedir)/selfmon) $(call shq,$(DESTDIR)$(bindir))
	$(Q)install -m 644 $(O)/libselfmon.a $(call shq,$(DESTDIR)$(libdir)/)
	$(Q)$(if $(filter $(SHLIB_LINKS),$(LIB_TARGETS)),install -m 644 $(PIC_LIB) $(call shq,$(DESTDIR)$(libdir)/) && \
	  install -m 755 $(SHLIB) $(call shq,$(DESTDIR)$(libdir)/) && \
	  ln -sf $(notdir $(SHLIB)) $(call shq,$(DESTDIR)$(libdir)/$(SONAME)) && \
	  ln -sf $(SONAME) $(call shq,$(DESTDIR)$(libdir)/libselfmon.so),:)
	$(Q)install -m 644 include/selfmon/*.h include/selfmon/*.hpp arch/$(SRCARCH)/include/selfmon/arch.h $(call shq,$(DESTDIR)$(includedir)/selfmon/)
	$(Q)install -d $(call shq,$(DESTDIR)$(includedir)/selfmon/priv)
	$(Q)install -m 644 include/selfmon/priv/*.h $(call shq,$(DESTDIR)$(includedir)/selfmon/priv/)
	$(Q)install -m 755 $(O)/selfmon $(call shq,$(DESTDIR)$(bindir)/)
	$(Q)install -d $(call shq,$(DESTDIR)$(libdir)/selfmon)
	$(Q)install -m 644 $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a $(call shq,$(DESTDIR)$(libdir)/selfmon/)
	$(Q)sed -e $(call shq,$(PC_SED)) scripts/selfmon.pc.in > $(call shq,$(DESTDIR)$(libdir)/pkgconfig/selfmon.pc)
	@echo $(call shq,  installed in $(DESTDIR)$(prefix))

# With libselfmon.so installed, `pkg-config --libs selfmon` gives the shared
# link (-lselfmon: libperf and libapi are inside it) and --static adds what
# the archive needs (Libs.private); a static-only install (musl,
# CONFIG_STATIC) gives the archive's whole link either way.
PC_SHARED = $(filter $(SHLIB_LINKS),$(LIB_TARGETS))
PC_DEPLIBS := -L$${privlibdir} -lperf -lapi -lpthread -lm
# selfmon.pc's directories: under the one above (exec_prefix under prefix,
# libdir under exec_prefix, includedir under prefix), relative to its
# variable, as pkg-config's --define-prefix expects; elsewhere, whole.
PC_SED = s|@PREFIX@|$(call pc_sed_prefix,$(prefix))|; \
	 s|@EXEC_PREFIX@|$(call pc_sed_prefix,$(call pc_dir,$(exec_prefix),$(prefix),prefix))|; \
	 s|@LIBDIR@|$(call pc_sed_prefix,$(call pc_dir,$(libdir),$(exec_prefix),exec_prefix))|; \
	 s|@INCLUDEDIR@|$(call pc_sed_prefix,$(call pc_dir,$(includedir),$(prefix),prefix))|; \
	 s|@LIBS@|$(if $(PC_SHARED),, $(PC_DEPLIBS))|; s|@LIBS_PRIVATE@|$(if $(PC_SHARED), $(PC_DEPLIBS))|; \
	 s|@VERSION@|$(VERSION)|; s|@CFLAGS@|$(strip $(if $(CONFIG_SERIALIZE_READS),-DSELFMON_SERIALIZE_READS) $(PC_EXTRA_CFLAGS))|
# $(call pc_dir,DIR,BASE,VAR): ${VAR} where DIR is BASE, ${VAR}/REST where
# it is BASE/REST, else DIR. make's word functions split at spaces: a
# prefix's spaces are hidden from them.
sp_hide = $(subst $(space),^_,$(1))
sp_show = $(subst ^_,$(space),$(1))
pc_dir = $(call sp_show,$(call pc_dir_,$(call sp_hide,$(1)),$(call sp_hide,$(2)),$(3)))
pc_dir_ = $(if $(filter $(2) $(2)/%,$(1)),$${$(3)}$(patsubst $(2)%,%,$(1)),$(1))

# tests/check_flags.sh: `make install` as dpkg-buildpackage, Buildroot and
# Yocto run it, for the host and arm64 (six lib+cli builds with the shared
# DEPS, in $(CHECK)/flags): the caller's CPPFLAGS, CFLAGS and LDFLAGS reach
# every compile and the CLI's link, the install is complete (Debian's
# multiarch libdir too) and a program links through its selfmon.pc; and
# the third-party build gets none of them.
.PHONY: check-run-flags
check-run-variants: check-run-flags
CHECK_TAPS += $(CHECK)/host-flags.tap
check-run-flags:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_flags.sh $(CHECK)/host-flags.tap $(CHECK)/flags \
	  '$(MAKE) --no-print-directory -j$(CHECK_JOBS) DEPS=$(DEPS) LINUX_SRC=$(call shq,$(LINUX_SRC))' \
	  $(LINUX_DEPS) tests/min/min.c || true
	$(Q)grep -E '^(not )?ok|^# the replays' $(CHECK)/host-flags.tap

# tests/check_recipes.sh: packaging/'s Buildroot package and Yocto recipe,
# their own make lines replayed for aarch64 with each tool's variables (two
# lib+cli builds with this tree's libperf, in $(CHECK)/recipes): the install
# trees per option, the package split, a program linked through selfmon.pc.
# Their DEPS holds $(LINUX_DEPS) alone (its arm64 libperf built there on
# the way, as check-run-flags does).
## check-run-recipes  the Buildroot package and Yocto recipe of packaging/, replayed for arm64
.PHONY: check-run-recipes
check-run-variants: check-run-recipes
CHECK_TAPS += $(CHECK)/host-recipes.tap
check-run-recipes:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_recipes.sh $(CHECK)/host-recipes.tap $(CHECK)/recipes $(call shq,$(LINUX_SRC)) $(LINUX_DEPS) \
	  tests/min/min.c $(CHECK_JOBS) || true
	$(Q)grep -E '^(not )?ok|^# the replays' $(CHECK)/host-recipes.tap
