# SPDX-License-Identifier: MIT
# selfmon: kernel-style build. `make help` lists the targets.
#   make [ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-] [O=dir] [V=1]
VERSION := 0.1.0

srctree := $(abspath .)

# ARCH names the target as the kernel does; the host's by default.
HOSTARCH := $(shell uname -m)
ARCH ?= $(HOSTARCH)
archof = $(or $(if $(filter x86_64 x86 amd64,$(1)),x86),$(if $(filter arm64 aarch64,$(1)),arm64),generic)
SRCARCH := $(call archof,$(ARCH))

# A cross build gets its own tree, so it never clobbers the host's; so does a
# musl build (LIBC=musl: build/<arch>-musl).
LIBC ?=
O ?= build$(if $(filter musl,$(LIBC)),/$(SRCARCH)-musl,$(if $(filter-out $(call archof,$(HOSTARCH)),$(SRCARCH)),/$(SRCARCH)))
override O := $(abspath $(O))
DEFCONFIG := $(if $(filter x86,$(SRCARCH)),x86_64,$(SRCARCH))_defconfig

CROSS_COMPILE ?=
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
AR := $(CROSS_COMPILE)ar
# The target triple keys the cache of third-party builds.
TRIPLE := $(shell $(CC) -dumpmachine 2>/dev/null)
LP_ARCH := $(if $(filter x86_64%,$(TRIPLE)),x86,$(if $(filter aarch64%,$(TRIPLE)),arm64))

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-8s %s\n'
endif

PYTHON := /usr/bin/python3
KCONFIGLIB := /usr/lib/python3/dist-packages
export SRCARCH SELFMON_VERSION := $(VERSION)
export KCONFIG_CONFIG := $(O)/.config
AUTOCONF := $(O)/include/generated/autoconf.h

DEPS ?= $(srctree)/build/deps
# The kernel source libperf, libapi and the kselftest headers come from: a
# tree or a tarball of one (docs/building.md, "LINUX_SRC"). Each source builds into a
# directory of its own, named by scripts/build-deps.sh --id.
LINUX_SRC ?= /usr/src/linux-source-6.1.tar.xz
override LINUX_SRC := $(abspath $(LINUX_SRC))
export LINUX_SRC
LINUX_DEPS := $(DEPS)/$(shell scripts/build-deps.sh --id '$(subst ','\'',$(LINUX_SRC))')
LIBPERF := $(LINUX_DEPS)/$(LP_ARCH)
KSELFTEST := $(LINUX_DEPS)/kselftest

-include $(KCONFIG_CONFIG)

include scripts/mk/libc.mk

CFLAGS_WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
OPT := $(if $(CONFIG_DEBUG),-O0 -g3 -DSELFMON_DEBUG,$(if $(CONFIG_OPTIMIZE_SIZE),-Os,-O2) -g)
# selfmon's own flags are SELFMON_CPPFLAGS, SELFMON_CFLAGS and
# SELFMON_LDFLAGS. CPPFLAGS, CFLAGS and LDFLAGS are the caller's (a distro's
# hardening, from the environment as dpkg-buildpackage and Yocto give them,
# or from the command line as Buildroot does): added after ours, so that
# they reach every object and link and win where they disagree (-O2 after
# -O0), as autotools orders them. EXTRA_CFLAGS comes last (the sanitizer
# variants of `make check`). Nothing here assigns the caller's variables: a
# command line would override the assignment, and an environment variable
# would be exported changed to the third-party builds.
CPPFLAGS ?=
CFLAGS ?=
LDFLAGS ?=
EXTRA_CFLAGS ?=
SELFMON_CPPFLAGS := -D_GNU_SOURCE -Iinclude -Iarch/$(SRCARCH)/include -I$(O)/include -I$(LIBPERF)/include \
	  -DSELFMON_VERSION='"$(VERSION)"' $(if $(CONFIG_SERIALIZE_READS),-DSELFMON_SERIALIZE_READS)
# One section per function and datum: a static link with --gc-sections
# (the minimal program, the CLI) keeps only what it reaches of the library.
SELFMON_CFLAGS := -std=c11 $(OPT) $(CFLAGS_WARN) -fno-strict-aliasing -ffunction-sections -fdata-sections \
	$(if $(CONFIG_UNWIND_TABLES),,-fno-asynchronous-unwind-tables -fno-unwind-tables)
# (scripts/mk/libc.mk, included above, may have added to it.)
SELFMON_LDFLAGS += $(if $(CONFIG_STATIC),-static)
# glibc's <features.h> ignores _FORTIFY_SOURCE without optimisation; older
# releases (2.31, Debian 11's, for one) say so with a #warning, which
# -Werror makes an error. A distro's -D_FORTIFY_SOURCE in a -O0 build
# (CONFIG_DEBUG with no -O of the caller's after its -O0; Yocto's CC holds
# flags too) is dropped, as glibc drops it, rather than break the build.
last_opt = $(lastword $(filter -O%,$(1)))
no_fortify = $(if $(filter -O0,$(call last_opt,$(1))),$(if $(findstring _FORTIFY_SOURCE,$(1)),-U_FORTIFY_SOURCE))
# What every compile and link of selfmon's code is given.
ALL_CFLAGS = $(SELFMON_CPPFLAGS) $(CPPFLAGS) $(SELFMON_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) \
	     $(call no_fortify,$(CC) $(SELFMON_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS))
ALL_LDFLAGS = $(SELFMON_LDFLAGS) $(LDFLAGS)
# libm for sqrt, erfc and the like: glibc ships libm.a; musl's libc.a holds
# it, and -lm finds its empty libm.a.
LIBS := $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a -lpthread -lm

# ---- objects, chosen by Kconfig as the kernel chooses them ----
# Each source directory names its .c files in its objs.mk (core/objs.mk
# says how), by kind: obj- the library, util- util/'s archive, cli- the
# CLI's archive, prog- the CLI's main; each kind's "-y" list is this
# configuration's. `obj-$(CONFIG_FOO) += foo.o` builds foo.c with FOO only,
# `obj-$(call off,CONFIG_FOO) += foo_none.o` (FOO's stubs) without it: a
# name whose option is off lands in the list "obj-", built by no one.
off = $(if $($(1)),,y)
OBJ_KINDS := obj util cli prog
OBJ_DIRS := core sample bench util tools arch/$(SRCARCH)
# Every arch's list, for the check below; this build reads its own.
OBJ_LISTS := $(addsuffix /objs.mk,$(filter-out arch/%,$(OBJ_DIRS)) $(patsubst %/,%,$(sort $(dir $(wildcard arch/*/*.c)))))
# $(call read_objs,DIR): include DIR/objs.mk; <kind>_OBJS_Y += its <kind>-y
# objects (DIR one of this build's); OBJS_NAMED += every name it lists, on or off.
define read_objs
$(foreach k,$(OBJ_KINDS),$(eval $(k)-y :=)$(eval $(k)- :=))
include $(1)/objs.mk
OBJS_NAMED += $$(addprefix $(1)/,$$(foreach k,$(OBJ_KINDS),$$($$(k)-y) $$($$(k)-)))
$(if $(filter $(1),$(OBJ_DIRS)),$(foreach k,$(OBJ_KINDS),$(k)_OBJS_Y += $$(addprefix $$(O)/obj/$(1)/,$$($(k)-y))
))
endef
OBJS_NAMED :=
$(foreach k,$(OBJ_KINDS),$(eval $(k)_OBJS_Y :=))
$(foreach l,$(OBJ_LISTS),$(eval $(call read_objs,$(patsubst %/objs.mk,%,$(l)))))
# No source can be left out by mistake: every .c of these directories is
# named in its directory's objs.mk (on or off), once, and every name there
# is a file. The message names what to add or remove where.
OBJS_SOURCES := $(sort $(foreach d,$(patsubst %/objs.mk,%,$(OBJ_LISTS)),$(wildcard $(d)/*.c)))
OBJS_UNLISTED := $(filter-out $(OBJS_NAMED:.o=.c),$(OBJS_SOURCES))
OBJS_MISSING := $(filter-out $(OBJS_SOURCES),$(OBJS_NAMED:.o=.c))
OBJS_TWICE := $(strip $(foreach n,$(sort $(OBJS_NAMED)),$(if $(word 2,$(filter $(n),$(OBJS_NAMED))),$(n:.o=.c))))
unlisted_msg = $(1) is in no object list: add $(notdir $(1:.c=.o)) to $(dir $(1))objs.mk;
missing_msg = $(dir $(1))objs.mk names $(notdir $(1:.c=.o)), and there is no $(1);
twice_msg = $(dir $(1))objs.mk names $(notdir $(1:.c=.o)) more than once;
ifneq ($(OBJS_UNLISTED)$(OBJS_MISSING)$(OBJS_TWICE),)
$(error $(foreach f,$(OBJS_UNLISTED),$(call unlisted_msg,$(f))) $(foreach f,$(OBJS_MISSING),$(call missing_msg,$(f))) \
$(foreach f,$(OBJS_TWICE),$(call twice_msg,$(f))) \
core/objs.mk says which list: obj-y the library, obj-$$(CONFIG_FOO) with FOO only, util-y, cli-y)
endif

LIB_OBJS := $(obj_OBJS_Y)
# util/: the bottom layer (sorting, quantiles, ...) that every layer may use,
# the library and the CLI alike. An internal archive, never installed: the
# library's relocatable object takes all of it, where objcopy makes its
# symbols local like every internal one; the CLI and the tests link the
# archive itself, after libselfmon.a. Not in obj-y and cli-y both: the
# tests link the raw library objects (libselfmon-internal.a) and the CLI's
# archive together, and would get each function twice. Not static inline in
# the headers: the qsort comparator needs one address, and what comes next
# (escaping, JSON) is no one-liner.
UTIL_OBJS := $(util_OBJS_Y)
UTIL_LIB := $(O)/libselfmon-util.a
# The CLI's own code (option parsing, writers, readcost, the built-in kernels)
# is not the library's: an internal archive, never installed, that the CLI and
# the tests link. It uses the public API only.
CLI_OBJS := $(cli_OBJS_Y)
CLI_LIB := $(O)/libselfmon-cli.a
TOOL_OBJS := $(prog_OBJS_Y)
# The raw library objects, every internal symbol global: for the unit tests,
# which call internal functions and --wrap libperf calls. Never installed.
INTERNAL_LIB := $(O)/libselfmon-internal.a
# The shared library (docs/building.md, "Shared or static"; docs/abi.md):
# the same objects, libperf and libapi linked in (both built -fPIC by
# scripts/build-deps.sh), and a version script from the same public list,
# so that it exports the documented API alone. ABI_MAJOR is the soname's
# number: bumped on an incompatible change, never otherwise. Not built in a
# static configuration (CONFIG_STATIC, musl), which has no dynamic linker,
# unless named (the board's glibc tree: check-run-shared-pair).
ABI_MAJOR := 0
SONAME := libselfmon.so.$(ABI_MAJOR)
SHLIB := $(O)/libselfmon.so.$(ABI_MAJOR).$(word 2,$(subst ., ,$(VERSION))).$(word 3,$(subst ., ,$(VERSION)))
SHLIB_LINKS := $(O)/$(SONAME) $(O)/libselfmon.so
PIC_LIB := $(O)/libselfmon_pic.a
# Unit tests link every arch's gates: all of them are portable C.
ALL_GATES := $(foreach a,x86 arm64 generic,$(O)/obj/arch/$(a)/gate.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/unit/%)
SELF_SRCS := $(wildcard tests/selftests/*_test.c tests/selftests/$(SRCARCH)/*_test.c)
SELF_BINS := $(SELF_SRCS:tests/selftests/%.c=$(O)/tests/selftests/%)

# Debian has no static cmocka: a static build makes its own (scripts/build-cmocka.sh).
CMOCKA_DIR := $(DEPS)/cmocka-$(TRIPLE)
ifdef CONFIG_STATIC
CMOCKA_LIBS := $(CMOCKA_DIR)/lib/libcmocka.a
CMOCKA_STAMP := $(CMOCKA_DIR)/.stamp
$(O)/obj/tests/unit/%.o: SELFMON_CFLAGS += -I$(CMOCKA_DIR)/include $(CMOCKA_CFLAGS)
else
CMOCKA_LIBS := -lcmocka
endif
# tests/unit/test_X.wrap lists functions test_X replaces (ld --wrap) to mock them.
wraps = $(foreach f,$(shell cat tests/unit/$(1).wrap 2>/dev/null),-Wl,--wrap=$(f))

.PHONY: all lib cli tests check deps-all run deps clean distclean help

all: lib cli tests

# Keep objects make sees as intermediate: relinks stay cheap.
.SECONDARY:

# What `make lib` builds and `make install` installs of it.
LIB_TARGETS := $(O)/libselfmon.a $(if $(or $(CONFIG_STATIC),$(filter musl,$(LIBC))),,$(SHLIB_LINKS) $(PIC_LIB))
lib: $(LIB_TARGETS) $(INTERNAL_LIB) $(UTIL_LIB)
cli: $(O)/selfmon
tests: $(UNIT_BINS) $(SELF_BINS)

# ---- third-party pieces, built once per target and kernel source (LINUX_SRC) ----
$(LIBPERF)/.stamp:
	$(Q)$(if $(LP_ARCH),,echo "no libperf build for target '$(TRIPLE)'" >&2; exit 1;) \
	  scripts/build-deps.sh $(LINUX_DEPS) $(LP_ARCH) $(CROSS_COMPILE)
$(KSELFTEST)/.stamp: $(LIBPERF)/.stamp
# What this libperf offers (scripts/check-libperf.sh), for core/libperf.h.
# Rewritten only when it changes, so that another LINUX_SRC recompiles
# everything and the same one nothing.
LIBPERF_H := $(O)/include/generated/libperf.h
$(LIBPERF_H): $(LIBPERF)/.stamp FORCE
	$(Q)mkdir -p $(dir $@)
	$(Q)cmp -s $(LIBPERF)/libperf-compat.h $@ || cp $(LIBPERF)/libperf-compat.h $@
.PHONY: FORCE
FORCE:
$(CMOCKA_DIR)/.stamp:
	$(Q)scripts/build-cmocka.sh $(DEPS) $(TRIPLE) $(CC) $(CMOCKA_CFLAGS)

# ---- compile ----
# Third-party stamps are order-only: built once, they never force a rebuild.
# Only the unit tests include cmocka: a static build of the library and the
# CLI alone (Buildroot's BR2_STATIC_LIBS) must not build a static cmocka.
$(UNIT_SRCS:%.c=$(O)/obj/%.o): | $(CMOCKA_STAMP)
# test_elf_plt links its ELF fixtures in (.incbin): a rebuilt fixture rebuilds it.
$(O)/obj/tests/unit/test_elf_plt.o: $(wildcard tests/fixtures/elf/plt-*)
$(O)/obj/%.o: %.c $(AUTOCONF) $(LIBPERF_H)
	$(quiet) CC $<
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The library's objects again, position independent, in $(O)/obj-pic: for
# libselfmon.so and libselfmon_pic.a, the archive a user links into a shared
# object. Not for libselfmon.a: there -fPIC costs the hot paths the
# relaxed sequences of a dynamic TLS model (on arm64 a cached marker pair
# 136 user instructions instead of 125, selfmon_set__read_all of one
# counter 54 instead of 48). No semantic interposition: a public function
# called inside the library is the library's own (as --dynamic-list binds
# it in libselfmon.so, below), so the compiler inlines it as without -fPIC.
# Initial-exec TLS for the library's own thread variables: the marker pair's
# read of its thread is then a load from the GOT and the thread pointer, not
# a TLS descriptor call that also costs the pair's functions a stack frame
# (on arm64 17 user instructions a pair). The library's thread data is kept
# to about 100 bytes, so that a dlopen() of libselfmon.so, or of a plugin with
# libselfmon_pic.a inside, finds room in the static TLS that glibc keeps
# free for such libraries (docs/markers.md, "Shared objects and plugins").
PIC_CFLAGS := -fPIC -fno-semantic-interposition -ftls-model=initial-exec -DSELFMON_PIC_OBJECT
pic_objs = $(patsubst $(O)/obj/%,$(O)/obj-pic/%,$(1))
# The library's own files register no object of theirs with the markers
# (<selfmon/priv/marker.h>): the library knows its own sections, and a
# constructor there would keep the markers' code in every static program
# that links the library, one that counts without markers too.
$(LIB_OBJS) $(call pic_objs,$(LIB_OBJS)): ALL_CFLAGS += -DSELFMON_PRIV_MARKER_NO_MODULE
# The markers' empty by-name pair (bench/marker.c) calls the by-name entries
# as a program does, through the library's PLT (they are in the dynamic list,
# below): with interposition a call to them in their own file is not bound to
# a local alias, and the stub a program's end runs between its two counter
# reads is in the pair the library subtracts.
$(O)/obj-pic/bench/marker.o: PIC_CFLAGS += -fsemantic-interposition
$(O)/obj-pic/%.o: %.c $(AUTOCONF) $(LIBPERF_H)
	$(quiet) CC '$< (PIC)'
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -MMD -MP -c $< -o $@

# The installed library is one relocatable object in which only the functions
# documented in the public headers stay global (docs/architecture.md, "Conventions"): the
# internal selfmon_<object>__<verb> names cannot clash with a user's or be
# called by one. scripts/symbols.py lists them; tests/check_symbols.sh checks.
# <selfmon/priv/*.h>: what the inline paths need, not API; their documented
# entries are exported all the same, as the inline code calls them.
PUBLIC_HEADERS := $(wildcard include/selfmon/*.h include/selfmon/priv/*.h) arch/$(SRCARCH)/include/selfmon/arch.h
OBJCOPY := $(CROSS_COMPILE)objcopy
NM := $(CROSS_COMPILE)nm
$(O)/public-symbols.txt: $(PUBLIC_HEADERS) scripts/symbols.py $(AUTOCONF)
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q)$(PYTHON) scripts/symbols.py keep $(PUBLIC_HEADERS) >$@.tmp && mv $@.tmp $@

# $(call one_object,OBJECTS,ARCHIVE): the archive of one relocatable object
# made of OBJECTS, only the public symbols global. --unique: ld -r would
# join the sections of the same name from different objects, and a
# --gc-sections link keeps or drops a section whole: two files' static
# functions of one name (-ffunction-sections names a section after its
# function), or a <selfmon/priv/read.h> inline copied into two, would come
# into a static program together though it calls one (docs/building.md, "Size").
# Global too, though no header declares them: core/heap.h's functions, which
# a musl libperf.a calls in place of malloc(3) and its kin (scripts/build-deps.sh).
HEAP_SYMBOLS := selfmon_heap__malloc selfmon_heap__calloc selfmon_heap__realloc selfmon_heap__free
define one_object
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)$(CC) -nostdlib -r -Wl,--unique -o $(2:.a=.o) $(1)
	$(Q)$(OBJCOPY) --keep-global-symbols=$(O)/public-symbols.txt \
	  $(foreach s,$(HEAP_SYMBOLS),--keep-global-symbol=$(s)) $(2:.a=.o)
	$(Q)rm -f $(2) && $(AR) rcs $(2) $(2:.a=.o) && rm -f $(2:.a=.o)
endef
$(O)/libselfmon.a: $(LIB_OBJS) $(UTIL_OBJS) $(O)/public-symbols.txt
	$(call one_object,$(LIB_OBJS) $(UTIL_OBJS),$(O)/obj/libselfmon.a)
	$(Q)mv $(O)/obj/libselfmon.a $@
$(PIC_LIB): $(call pic_objs,$(LIB_OBJS) $(UTIL_OBJS)) $(O)/public-symbols.txt
	$(call one_object,$(call pic_objs,$(LIB_OBJS) $(UTIL_OBJS)),$(O)/obj-pic/libselfmon_pic.a)
	$(Q)mv $(O)/obj-pic/libselfmon_pic.a $@

$(O)/libselfmon.map: $(O)/public-symbols.txt
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q){ echo 'SELFMON_$(ABI_MAJOR) {'; echo 'global:'; sed 's/.*/\t&;/' $<; \
	  printf 'local:\n\t*;\n};\n'; } >$@.tmp && mv $@.tmp $@

# --dynamic-list: every other public symbol's calls inside the library bind
# there, as -Bsymbolic would (no PLT hop, the costs the archive's); the calls
# a marker pair makes go through the library's own PLT, so that the empty
# pair it measures and subtracts runs the stub a program's pair runs between
# its two counter reads (arm64's fixed sequence: the end's call), and a
# region counts exactly with libselfmon.so too. -z now: those PLT entries
# are bound at load, not by the dynamic linker inside the first empty pair.
# -z nodelete: the library's thread keys have destructors of its own (a
# thread's markers, the owner of its sets), which a thread exiting after a
# dlclose() would call; the library stays loaded instead.
SHLIB_PLT := selfmon_priv_marker_begin_call selfmon_priv_marker_end_call \
	     selfmon_marker__begin_const selfmon_marker__end_const selfmon_marker__begin \
	     selfmon_marker__end
$(O)/libselfmon.dynlist: Makefile
	$(Q){ echo '{'; for s in $(SHLIB_PLT); do printf '\t%s;\n' $$s; done; echo '};'; } >$@
$(SHLIB): $(call pic_objs,$(LIB_OBJS) $(UTIL_OBJS)) $(O)/libselfmon.map $(O)/libselfmon.dynlist
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter-out -static,$(ALL_LDFLAGS)) -shared -Wl,-soname,$(SONAME) \
	  -Wl,--version-script=$(O)/libselfmon.map -Wl,--dynamic-list=$(O)/libselfmon.dynlist -Wl,-z,defs -Wl,-z,now \
	  -Wl,-z,nodelete $(call pic_objs,$(LIB_OBJS) $(UTIL_OBJS)) $(LIBS) -o $@

$(SHLIB_LINKS): $(SHLIB)
	$(Q)ln -sf $(notdir $<) $@

$(INTERNAL_LIB): $(LIB_OBJS)
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(CLI_LIB): $(CLI_OBJS)
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(UTIL_LIB): $(UTIL_OBJS)
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(O)/selfmon: $(TOOL_OBJS) $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(TOOL_OBJS) $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB) $(LIBS) -o $@

$(O)/tests/unit/%: $(O)/obj/tests/unit/%.o $(CLI_LIB) $(INTERNAL_LIB) $(UTIL_LIB) $(ALL_GATES) $(wildcard tests/unit/*.wrap) | $(CMOCKA_STAMP)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(call wraps,$*) $< \
	  $(filter-out $(O)/obj/arch/$(SRCARCH)/gate.o,$(ALL_GATES)) \
	  $(CLI_LIB) $(INTERNAL_LIB) $(UTIL_LIB) $(LIBS) $(CMOCKA_LIBS) -o $@

# The stubs of a build without CONFIG_GROUPS (core/group_none.c), on any
# build: linked ahead of the library's archive, they stand for group.c.
$(O)/tests/unit/test_group_none: $(O)/obj/core/group_none.o
$(O)/tests/unit/test_group_none: SELFMON_LDFLAGS += $(O)/obj/core/group_none.o
# ...and without CONFIG_PINNING (core/pin_none.c), in place of pin.c.
$(O)/tests/unit/test_pin_none: $(O)/obj/core/pin_none.o
$(O)/tests/unit/test_pin_none: SELFMON_LDFLAGS += $(O)/obj/core/pin_none.o
# ...and with CONFIG_SMALL_HEAP (core/heap_small.c), in place of heap.c.
$(O)/tests/unit/test_heap_small: $(O)/obj/core/heap_small.o
$(O)/tests/unit/test_heap_small: SELFMON_LDFLAGS += $(O)/obj/core/heap_small.o
# ...and without CONFIG_ERRNO_TEXT (core/errtext_names.c), in place of errtext.c.
$(O)/tests/unit/test_errtext_names: $(O)/obj/core/errtext_names.o
$(O)/tests/unit/test_errtext_names: SELFMON_LDFLAGS += $(O)/obj/core/errtext_names.o

# The harness compares literals with unsigned values by design; the 6.12
# line's TEST_F() sets a local between setjmp() and fork() (gcc's
# -Wclobbered, which clang does not have).
NO_CLOBBERED := $(shell $(CC) -Werror -Wno-clobbered -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-clobbered)
$(O)/obj/tests/selftests/%.o: SELFMON_CFLAGS += -I$(KSELFTEST) -Wno-unused-parameter -Wno-sign-compare $(NO_CLOBBERED)
# Integration tests link what a user links: the installed library (and the
# CLI's archive for its kernels).
$(O)/tests/selftests/%: $(O)/obj/tests/selftests/%.o $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $< $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB) $(LIBS) -o $@

-include $(shell find $(O)/obj $(O)/obj-pic -name '*.d' 2>/dev/null)

# ---- set-up, run, test ----
# `make run` needs the build set only (scripts/deps.sh: build, tests, board,
# lava); a cross or musl build adds its compilers.
DEPS_SH ?= scripts/deps.sh
deps:
	$(Q)$(DEPS_SH) build $(if $(filter arm64,$(SRCARCH)),$(if $(CROSS_COMPILE),arm64)) \
	  $(if $(filter musl,$(LIBC)),musl$(if $(filter arm64,$(SRCARCH)),-arm64))

# One line for the build (its log kept; V=1 shows every command), then
# scripts/run.sh: the probe, a short bench that fits a screen, what to try next.
RUN_LOG := $(O)/run-build.log
run: deps
	@printf '  %-8s %s\n' BUILD '$(O:$(srctree)/%=%)/libselfmon.a and $(O:$(srctree)/%=%)/selfmon$(if $(filter 1,$(V)),, (V=1 shows every command))'
	$(Q)mkdir -p $(O) && $(MAKE) $(if $(filter 1,$(V)),,-s) --no-print-directory lib cli $(if $(filter 1,$(V)),,\
	  >$(RUN_LOG) 2>&1 || { cat $(RUN_LOG); echo "make run: the build failed (above, and in $(RUN_LOG))" >&2; exit 1; })
	$(Q)scripts/run.sh $(O:$(srctree)/%=%)/selfmon

suites = $(wildcard $(1)/tests/unit/test_* $(1)/tests/selftests/*_test $(1)/tests/selftests/*/*_test)
CHECK := $(O)/check
# Each check-run-* is its own make, so the wildcard sees binaries just built.
# Each pipeline (scripts/mk/) adds the TAP files its check-run-* writes.
CHECK_TAPS =

# Everything CI runs: the pipelines' builds, then their runs; a failed board
# or LAVA part becomes a "not ok" and the summary still runs.
# The builds take CHECK_JOBS jobs at once (or make's own -j), one tree (or
# one group of check-variants' prerequisites) after another; the runs stay
# one at a time.
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CHECK_J = $(if $(findstring --jobserver,$(MAKEFLAGS)),,-j$(CHECK_JOBS))
check: deps-all
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) all
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) check-variants
	$(Q)$(MAKE) --no-print-directory check-run-host check-run-variants
	$(Q)$(MAKE) --no-print-directory $(CHECK_J) check-arm64-run || $(ARM64_FAILED)
	$(Q)$(MAKE) --no-print-directory check-lava-run || $(LAVA_FAILED)
	$(Q)tests/summary.sh $(CHECK_TAPS) $(CHECK)/arm64-*.tap $(CHECK)/lava.tap

deps-all:
	$(Q)$(DEPS_SH) build tests board lava deb

clean:
	$(Q)rm -rf $(O)/obj $(O)/obj-pic $(O)/tests $(O)/libselfmon*.a $(O)/libselfmon.so* $(O)/libselfmon.map $(O)/selfmon $(O)/clang $(O)/asan

distclean:
	$(Q)rm -rf $(O)

MK_FILES = $(filter scripts/mk/%.mk,$(MAKEFILE_LIST))
help:
	@echo 'Set-up and tests (fresh Debian 12):'
	@echo '  run            install what is missing, build, run selfmon probe and a short selfmon bench'
	@echo '  check          everything CI runs: every pipeline below, host and board'
	@echo 'Build:'
	@echo '  all            libselfmon.a, libselfmon.so.$(ABI_MAJOR), the selfmon CLI and the test binaries (default)'
	@echo 'Configuration (Kconfig):'
	@echo '  defconfig      configs/$(DEFCONFIG) for ARCH=$(ARCH)'
	@echo '  <board>_defconfig  one of: $(notdir $(wildcard configs/*_defconfig))'
	@echo '  menuconfig olddefconfig savedefconfig'
	@echo 'Pipelines (scripts/mk/*.mk):'
	@for f in $(MK_FILES); do sed -n 's/^## /  /p' $$f; done
	@echo 'Variables: ARCH= CROSS_COMPILE= O= (default build) LIBC=musl (static, build/<arch>-musl) V=1'
	@echo '           LINUX_SRC= (kernel tree or tarball for libperf)'

# ---- the pipelines, one .mk each (`make help` lists their targets) ----
# A new pipeline adds its own line here: include scripts/mk/<topic>.mk
include scripts/mk/kconfig.mk
include scripts/mk/host.mk
include scripts/mk/variants.mk
include scripts/mk/board.mk
include scripts/mk/lava.mk
include scripts/mk/lab.mk
include scripts/mk/reliability.mk
include scripts/mk/embedded.mk
include scripts/mk/install.mk
include scripts/mk/relfiles.mk
include scripts/mk/gate.mk
include scripts/mk/runner.mk
include scripts/mk/docs.mk
include scripts/mk/markers.mk
include scripts/mk/abi.mk
include scripts/mk/lint.mk
include scripts/mk/metrics.mk
include scripts/mk/cxx.mk
include scripts/mk/deb.mk
