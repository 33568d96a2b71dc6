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
# tree or a tarball of one (README, "Building"). Each source builds into a
# directory of its own, named by scripts/build-deps.sh --id.
LINUX_SRC ?= /usr/src/linux-source-6.1.tar.xz
override LINUX_SRC := $(abspath $(LINUX_SRC))
export LINUX_SRC
LINUX_DEPS := $(DEPS)/$(shell scripts/build-deps.sh --id '$(subst ','\'',$(LINUX_SRC))')
LIBPERF := $(LINUX_DEPS)/$(LP_ARCH)
KSELFTEST := $(LINUX_DEPS)/kselftest

-include $(KCONFIG_CONFIG)

# ---- the C library: glibc, or musl (CONFIG_LIBC_MUSL, or LIBC=musl) ----
# musl builds use the toolchain's gcc with musl's specs file, statically.
# The specs pass -nostdinc: the kernel's UAPI headers (linux/, asm/,
# asm-generic/) come from $(LIBPERF)/uapi, which scripts/build-deps.sh fills
# from the target toolchain's headers. libperf and libapi get their own musl
# build there (build/deps/<src-id>/<arch>-musl); cmocka its own triple.
ifeq ($(LIBC),)
LIBC := $(if $(CONFIG_LIBC_MUSL),musl,glibc)
endif
ifneq ($(filter-out glibc musl,$(LIBC)),)
$(error LIBC='$(LIBC)': use LIBC=glibc or LIBC=musl)
endif
# A .config made for the other C library: only the configuration targets may run.
ifneq ($(wildcard $(KCONFIG_CONFIG)),)
ifneq ($(LIBC),$(if $(CONFIG_LIBC_MUSL),musl,glibc))
ifeq ($(filter %config,$(MAKECMDGOALS)),)
$(error $(KCONFIG_CONFIG) is for $(if $(CONFIG_LIBC_MUSL),musl,glibc), not LIBC=$(LIBC): run 'make LIBC=$(LIBC) defconfig', or use another O=)
endif
endif
endif
export SELFMON_LIBC := $(LIBC)
ifeq ($(LIBC),musl)
TRIPLE := $(patsubst %-gnu,%-musl,$(shell $(CROSS_COMPILE)gcc -dumpmachine 2>/dev/null))
MUSL_SPECS := /usr/lib/$(TRIPLE)/musl-gcc.specs
LIBPERF := $(LINUX_DEPS)/$(LP_ARCH)-musl
ifneq ($(origin CC),command line)
CC := $(CROSS_COMPILE)gcc -specs $(MUSL_SPECS) -isystem $(LIBPERF)/uapi
endif
# cmocka.h guesses uintptr_t's width from glibc's __WORDSIZE, and guesses
# wrong on arm64 musl (a conflicting typedef): musl's <stdint.h> has it.
CMOCKA_CFLAGS := -D_UINTPTR_T
# No PT_GNU_RELRO: musl's static start-up never applies it (only its dynamic
# linker does), and on arm64 its 64 KiB page alignment pads every static
# program by up to 64 KiB (the minimal program: 194 KiB with it, 133 without).
LDFLAGS += -Wl,-z,norelro
endif

CFLAGS_WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
OPT := $(if $(CONFIG_DEBUG),-O0 -g3 -DSELFMON_DEBUG,-O2 -g)
EXTRA_CFLAGS ?=
# One section per function and datum: a static link with --gc-sections
# (the minimal program, the CLI) keeps only what it reaches of the library.
CFLAGS := -std=c11 -D_GNU_SOURCE $(OPT) $(CFLAGS_WARN) -fno-strict-aliasing -ffunction-sections -fdata-sections \
	  -Iinclude -Iarch/$(SRCARCH)/include -I$(O)/include -I$(LIBPERF)/include \
	  -DSELFMON_VERSION='"$(VERSION)"' \
	  $(if $(CONFIG_SERIALIZE_READS),-DSELFMON_SERIALIZE_READS) $(EXTRA_CFLAGS)
LDFLAGS ?=
LDFLAGS += $(if $(CONFIG_STATIC),-static)
LIBS := $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a -lpthread

LIB_SRCS := $(wildcard core/*.c bench/*.c) $(addprefix arch/$(SRCARCH)/,gate.c host.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/obj/%.o)
# The CLI's own code (option parsing, writers, readcost, the built-in kernels)
# is not the library's: an internal archive, never installed, that the CLI and
# the tests link. It uses the public API only.
CLI_SRCS := $(filter-out tools/selfmon.c,$(wildcard tools/*.c)) arch/$(SRCARCH)/kernels.c
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/obj/%.o)
CLI_LIB := $(O)/libselfmon-cli.a
TOOL_OBJS := $(O)/obj/tools/selfmon.o
# The raw library objects, every internal symbol global: for the unit tests,
# which call internal functions and --wrap libperf calls. Never installed.
INTERNAL_LIB := $(O)/libselfmon-internal.a
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
$(O)/obj/tests/unit/%.o: CFLAGS += -I$(CMOCKA_DIR)/include $(CMOCKA_CFLAGS)
else
CMOCKA_LIBS := -lcmocka
endif
# tests/unit/test_X.wrap lists functions test_X replaces (ld --wrap) to mock them.
wraps = $(foreach f,$(shell cat tests/unit/$(1).wrap 2>/dev/null),-Wl,--wrap=$(f))

.PHONY: all lib cli tests check check-host check-variants check-run-host check-run-variants check-arm64 check-arm64-run check-lava check-lava-run tests-bundle bundle-copy deps-all run deps \
	defconfig %_defconfig menuconfig olddefconfig savedefconfig install clean distclean help

all: lib cli tests

# Keep objects make sees as intermediate: relinks stay cheap.
.SECONDARY:

lib: $(O)/libselfmon.a $(INTERNAL_LIB)
cli: $(O)/selfmon
tests: $(UNIT_BINS) $(SELF_BINS)

# ---- configuration (kconfiglib, Debian's python3-kconfiglib) ----
KCONF = $(Q)mkdir -p $(O) && cd $(srctree) && $(PYTHON) $(KCONFIGLIB)

defconfig: $(DEFCONFIG)

%_defconfig: configs/%_defconfig | $(KCONFIGLIB)/defconfig.py
	$(KCONF)/defconfig.py --kconfig Kconfig $<

menuconfig olddefconfig:
	$(KCONF)/$@.py Kconfig

savedefconfig:
	$(KCONF)/savedefconfig.py --kconfig Kconfig --out $(O)/defconfig
	@echo "  wrote $(O)/defconfig"

# Kconfig needs kconfiglib, and make remakes the .config it includes before
# it runs any goal (`make run`'s deps included): on a fresh machine the
# build set is installed here first, so the first line is not an error.
$(KCONFIGLIB)/defconfig.py:
	$(Q)$(DEPS_SH) build
$(KCONFIG_CONFIG) menuconfig olddefconfig savedefconfig: | $(KCONFIGLIB)/defconfig.py

# A tree with no .config gets the arch's defconfig, so plain `make` works.
$(KCONFIG_CONFIG):
	$(quiet) DEFCONFIG $(DEFCONFIG)
	$(KCONF)/defconfig.py --kconfig Kconfig configs/$(DEFCONFIG) >/dev/null

$(AUTOCONF): $(KCONFIG_CONFIG) Kconfig
	@grep -q '^CONFIG_ARCH_$(if $(filter x86,$(SRCARCH)),X86_64,$(shell echo $(SRCARCH) | tr a-z A-Z))=y' $< || \
	  { echo "$<: made for another ARCH than '$(ARCH)': run 'make ARCH=$(ARCH) defconfig' or use O=" >&2; exit 1; }
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(KCONF)/genconfig.py --header-path $@ Kconfig >/dev/null
	$(Q)touch $@

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
$(O)/obj/%.o: %.c $(AUTOCONF) $(LIBPERF_H) | $(CMOCKA_STAMP)
	$(quiet) CC $<
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# The installed library is one relocatable object in which only the functions
# documented in the public headers stay global (README, "Hacking"): the
# internal selfmon_<object>__<verb> names cannot clash with a user's or be
# called by one. scripts/symbols.py lists them; tests/check_symbols.sh checks.
PUBLIC_HEADERS := $(wildcard include/selfmon/*.h) arch/$(SRCARCH)/include/selfmon/arch.h
OBJCOPY := $(CROSS_COMPILE)objcopy
NM := $(CROSS_COMPILE)nm
$(O)/public-symbols.txt: $(PUBLIC_HEADERS) scripts/symbols.py $(AUTOCONF)
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q)$(PYTHON) scripts/symbols.py keep $(PUBLIC_HEADERS) >$@.tmp && mv $@.tmp $@

$(O)/libselfmon.a: $(LIB_OBJS) $(O)/public-symbols.txt
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)$(CC) -nostdlib -r -o $(O)/obj/libselfmon.o $(LIB_OBJS)
	$(Q)$(OBJCOPY) --keep-global-symbols=$(O)/public-symbols.txt $(O)/obj/libselfmon.o
	$(Q)rm -f $@ && $(AR) rcs $@ $(O)/obj/libselfmon.o

$(INTERNAL_LIB): $(LIB_OBJS)
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(CLI_LIB): $(CLI_OBJS)
	$(quiet) AR $(@:$(srctree)/%=%)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(O)/selfmon: $(TOOL_OBJS) $(CLI_LIB) $(O)/libselfmon.a
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(TOOL_OBJS) $(CLI_LIB) $(O)/libselfmon.a $(LIBS) -o $@

$(O)/tests/unit/%: $(O)/obj/tests/unit/%.o $(CLI_LIB) $(INTERNAL_LIB) $(ALL_GATES) $(wildcard tests/unit/*.wrap) | $(CMOCKA_STAMP)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $(call wraps,$*) $< \
	  $(filter-out $(O)/obj/arch/$(SRCARCH)/gate.o,$(ALL_GATES)) \
	  $(CLI_LIB) $(INTERNAL_LIB) $(LIBS) $(CMOCKA_LIBS) -o $@

# The harness compares literals with unsigned values by design; the 6.12
# line's TEST_F() sets a local between setjmp() and fork() (gcc's
# -Wclobbered, which clang does not have).
NO_CLOBBERED := $(shell $(CC) -Werror -Wno-clobbered -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-clobbered)
$(O)/obj/tests/selftests/%.o: CFLAGS += -I$(KSELFTEST) -Wno-unused-parameter -Wno-sign-compare $(NO_CLOBBERED)
# Integration tests link what a user links: the installed library (and the
# CLI's archive for its kernels).
$(O)/tests/selftests/%: $(O)/obj/tests/selftests/%.o $(CLI_LIB) $(O)/libselfmon.a
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) $< $(CLI_LIB) $(O)/libselfmon.a $(LIBS) -o $@

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)

# ---- set-up, run, test ----
# `make run` needs the build set only (scripts/deps.sh: build, tests, board,
# lava); a cross or musl build adds its compilers.
DEPS_SH ?= scripts/deps.sh
deps:
	$(Q)$(DEPS_SH) build $(if $(filter arm64,$(SRCARCH)),$(if $(CROSS_COMPILE),arm64)) \
	  $(if $(filter musl,$(LIBC)),musl$(if $(filter arm64,$(SRCARCH)),-arm64))

# probe exits 1 when this machine has no user-space reads: an answer, not a failure.
# Then a short bench of the built-in kernels (readcost included).
run: deps
	$(Q)$(MAKE) -s --no-print-directory lib cli
	$(Q)$(O)/selfmon probe; rc=$$?; [ $$rc -le 1 ]
	$(Q)echo
	$(Q)$(O)/selfmon bench --repetitions 5

suites = $(wildcard $(1)/tests/unit/test_* $(1)/tests/selftests/*_test $(1)/tests/selftests/*/*_test)
CHECK := $(O)/check
# Each check-run-* is its own make, so the wildcard sees binaries just built.
CHECK_TAPS = $(CHECK)/host-gcc.tap $(CHECK)/host-symbols.tap $(CHECK)/host-clang.tap $(CHECK)/host-asan.tap $(CHECK)/host-generic.tap \
	     $(CHECK)/host-unpriv.tap $(CHECK)/host-soak.tap

check-host: all
	$(Q)$(MAKE) --no-print-directory check-run-host
	$(Q)tests/summary.sh $(CHECK)/host-gcc.tap $(CHECK)/host-symbols.tap $(CHECK)/host-unpriv.tap \
	  $(CHECK)/host-soak.tap $(CHECK)/host-linuxsrc.tap

check-run-host:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/run_suites.sh $(CHECK)/host-gcc.tap $(call suites,$(O))
	$(Q)tests/check_symbols.sh $(O)/libselfmon.a $(INTERNAL_LIB) $(NM) $(CC) $(PUBLIC_HEADERS) \
	  >$(CHECK)/host-symbols.tap || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-symbols.tap
	$(Q)scripts/check-unpriv.sh $(CHECK)/host-unpriv.tap $(O)/selfmon $(O)/tests/selftests/unpriv_test
	$(Q)SELFMON_SOAK_CYCLES=100000 SELFMON_SOAK_SECONDS=180 \
	  tests/run_suites.sh $(CHECK)/host-soak.tap $(O)/tests/selftests/resources_test

check-run-variants:
	$(Q)tests/run_suites.sh $(CHECK)/host-clang.tap $(call suites,$(O)/clang)
	$(Q)tests/run_suites.sh $(CHECK)/host-asan.tap $(call suites,$(O)/asan)
	$(Q)tests/run_suites.sh $(CHECK)/host-generic.tap $(wildcard $(O)/generic/tests/selftests/*_test)

# The same tests built by clang, and with ASan+UBSan; and the generic arch
# (no user-space read), whose kernel tests show every read taking read(2).
# Its unit tests compile but are written for builds with user reads.
check-variants:
	$(Q)$(MAKE) --no-print-directory O=$(O)/generic ARCH=generic all
	$(Q)$(MAKE) --no-print-directory O=$(O)/clang CC=clang all
	$(Q)$(MAKE) --no-print-directory O=$(O)/asan CC=gcc all \
	  EXTRA_CFLAGS='-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer' \
	  LDFLAGS='-fsanitize=address,undefined,float-cast-overflow'

# ---- the test bundle: what a board (or the emulated one) runs ----
BUNDLE := $(O)/bundle
tests-bundle: all
	$(Q)$(MAKE) --no-print-directory bundle-copy
	$(Q)tar -czf $(O)/selfmon-tests-$(SRCARCH).tar.gz -C $(O) bundle
	@echo "  bundle   $(BUNDLE) and $(O)/selfmon-tests-$(SRCARCH).tar.gz: run ./run_tests.sh as root"
	$(if $(CONFIG_STATIC),,@echo "  note: not CONFIG_STATIC: the board needs libcmocka.so.0")

bundle-copy:
	$(Q)rm -rf $(BUNDLE) && mkdir -p $(BUNDLE)/bin
	$(Q)cp $(call suites,$(O)) $(BUNDLE)/bin/
	$(Q)cp tests/bundle/run_tests.sh tests/run_suites.sh tests/summary.sh $(BUNDLE)/
	$(Q)cp $(O)/selfmon $(BUNDLE)/
	$(Q)cp $(MIN) $(BUNDLE)/ && cp tests/bundle/min_test $(BUNDLE)/bin/
	$(Q)cp -R tests/fixtures/sysfs $(BUNDLE)/fixtures
	$(Q)mkdir -p $(BUNDLE)/lava && cp lava/selfmon-lava.sh $(BUNDLE)/lava/

# ---- the emulated arm64 board (scripts/vm): real kernel, real mrs ----
ARM64_O := $(srctree)/build/arm64-vm
ARM64_MAKE := $(MAKE) --no-print-directory ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- O=$(ARM64_O)
check-arm64-run:
	$(Q)mkdir -p $(CHECK) && rm -f $(CHECK)/arm64-*
	$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MAKE) tests-bundle
	$(Q)$(ARM64_612_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_612_MAKE) tests-bundle
	$(Q)scripts/vm/check.sh $(ARM64_O)/bundle $(CHECK) $(srctree)/build/vm $(ARM64_612_O)/bundle

# The second kernel line (issue 11): Debian's 6.12 arm64 kernel boots the
# bundle built against libperf from linux-source-6.12, in a tree of its own.
LINUX_SRC_612 := /usr/src/linux-source-6.12.tar.xz
ARM64_612_O := $(srctree)/build/arm64-vm-612
ARM64_612_MAKE := $(ARM64_MAKE) O=$(ARM64_612_O) LINUX_SRC=$(LINUX_SRC_612)

# The summary still runs after a failure: the failure becomes a "not ok".
ARM64_FAILED = echo "not ok - the arm64 part (build, bundle or VM) failed: see above" >>$(CHECK)/arm64-failed.tap

check-arm64:
	$(Q)scripts/deps.sh build tests board
	$(Q)$(MAKE) --no-print-directory check-arm64-run || $(ARM64_FAILED)
	$(Q)tests/summary.sh $(CHECK)/arm64-*.tap

check: deps-all
	$(Q)$(MAKE) --no-print-directory all check-variants
	$(Q)$(MAKE) --no-print-directory check-run-host check-run-variants
	$(Q)$(MAKE) --no-print-directory check-arm64-run || $(ARM64_FAILED)
	$(Q)$(MAKE) --no-print-directory check-lava-run || $(LAVA_FAILED)
	$(Q)tests/summary.sh $(CHECK_TAPS) $(CHECK)/arm64-*.tap $(CHECK)/lava.tap

deps-all:
	$(Q)$(DEPS_SH) build tests board lava

# ---- board farms: LAVA (lava/) ----
# check-lava: lava/jobs/*.yaml pass LAVA's strict schema; lava-run (LAVA's
# own dispatcher, no server) runs the emulated-board jobs on the arm64
# bundle, and negative jobs (a failing test, a hang, a panic); LAVA's
# per-test results must equal the bundle's TAP. TAP in $(CHECK)/lava.tap.
LAVA_O := $(srctree)/build/lava
LAVA_BUNDLE := $(ARM64_O)/selfmon-tests-arm64.tar.gz
LAVA_BOARDS ?= max,cortex-a72,biglittle
LAVA_NEGATIVE ?= fail,hang,panic
# Jobs at once: each QEMU (TCG, icount) keeps one core busy.
LAVA_PARALLEL ?= 2
LAVA_FAILED = echo "not ok - the LAVA part (deps, bundle or lava-run) failed: see above" >>$(CHECK)/lava.tap

check-lava-run:
	$(Q)mkdir -p $(CHECK) && rm -f $(CHECK)/lava.tap
	$(Q)$(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MAKE) tests-bundle
	$(Q)image=$$(scripts/vm/fetch-kernel.sh $(srctree)/build/vm) && \
	  $(PYTHON) lava/check.py --jobs $(LAVA_BOARDS) --negative $(LAVA_NEGATIVE) \
	  --parallel $(LAVA_PARALLEL) --kernel "$$image" $(srctree) $(LAVA_O) $(CHECK) $(LAVA_BUNDLE) $(srctree)/build/vm

check-lava:
	$(Q)scripts/deps.sh build tests board lava
	$(Q)$(MAKE) --no-print-directory check-lava-run || $(LAVA_FAILED)
	$(Q)tests/summary.sh $(CHECK)/lava.tap

# ---- reliability (issue 12): fuzzing and the ThreadSanitizer build ----
# Kept in one block: `check` reaches it through the prerequisites added to
# check-variants and check-run-variants, and CHECK_TAPS below.
#
# libFuzzer harnesses: tests/fuzz/fuzz_<name>.c (LLVMFuzzerTestOneInput), seed
# corpus in tests/fuzz/corpus/<name>/. clang with ASan+UBSan, in $(O)/fuzz
# (libFuzzer comes with Debian's libclang-rt-14-dev). `make fuzz [FUZZ_S=60]`
# fuzzes each for FUZZ_S seconds; `make check` replays each seed corpus once.
FUZZ_S ?= 60
FUZZ_O := $(O)/fuzz
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS = $(FUZZ_SRCS:tests/fuzz/%.c=$(O)/tests/fuzz/%)
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# The thread tests built with -fsanitize=thread, libperf included: a race
# inside libperf (its lazily built static maps) is seen only if it is built so.
TSAN_O := $(O)/tsan
TSAN_LIBPERF := $(TSAN_O)/deps/$(notdir $(LINUX_DEPS))
TSAN_SUITES := threads_test set_test

.PHONY: fuzz fuzz-build fuzz-bins tsan-build check-run-reliability clean-reliability

fuzz-bins: $(FUZZ_BINS)
	@:

# The harnesses fuzz internal parsers (event lists, formats, CPU lists): they
# link the raw objects, whose internals stay global.
$(O)/tests/fuzz/%: $(O)/obj/tests/fuzz/%.o $(INTERNAL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer $< $(INTERNAL_LIB) $(LIBS) -o $@

fuzz-build:
	$(Q)$(MAKE) --no-print-directory O=$(FUZZ_O) CC=clang fuzz-bins \
	  EXTRA_CFLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' LDFLAGS='$(FUZZ_SAN)'

fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(FUZZ_S) $(FUZZ_O)/work $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_O)/tests/fuzz/%)

# libperf's own make must not see ours (O=, CC=) through MAKEFLAGS.
$(TSAN_LIBPERF)/.stamp: | $(LIBPERF)/.stamp
	$(quiet) LIBPERF "$(LP_ARCH), -fsanitize=thread"
	$(Q)rm -rf $(TSAN_LIBPERF) && mkdir -p $(TSAN_LIBPERF)/obj
	$(Q)MAKEFLAGS= MAKEOVERRIDES= make -s -C $(LINUX_DEPS)/src/tools/lib/perf ARCH=$(LP_ARCH) CC=clang \
	  EXTRA_CFLAGS='-O1 -g -fPIC -fsanitize=thread' O=$(TSAN_LIBPERF)/obj/ prefix=$(TSAN_LIBPERF) \
	  libdir=$(TSAN_LIBPERF)/lib install_lib install_headers >$(TSAN_LIBPERF)/build.log 2>&1 || \
	  { cat $(TSAN_LIBPERF)/build.log >&2; exit 1; }
	$(Q)cp $(TSAN_LIBPERF)/obj/libapi.a $(TSAN_LIBPERF)/lib/ && rm -f $(TSAN_LIBPERF)/lib/libperf.so*
	$(Q)cp $(LIBPERF)/libperf-compat.h $(TSAN_LIBPERF)/
	$(Q)touch $@

tsan-build: $(TSAN_LIBPERF)/.stamp
	$(Q)$(MAKE) --no-print-directory O=$(TSAN_O) CC=clang LIBPERF=$(TSAN_LIBPERF) \
	  EXTRA_CFLAGS='-fsanitize=thread' LDFLAGS='-fsanitize=thread' \
	  $(TSAN_SUITES:%=$(TSAN_O)/tests/selftests/%)

# A race makes the test's process exit non-zero: the harness reports it "not ok".
check-run-reliability:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/fuzz/replay.sh $(CHECK)/host-fuzz.tap $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_O)/tests/fuzz/%)
	$(Q)TSAN_OPTIONS='halt_on_error=1 exitcode=66' \
	  tests/run_suites.sh $(CHECK)/host-tsan.tap $(TSAN_SUITES:%=$(TSAN_O)/tests/selftests/%)

check-variants: fuzz-build tsan-build
check-run-variants: check-run-reliability
CHECK_TAPS += $(CHECK)/host-fuzz.tap $(CHECK)/host-tsan.tap

clean: clean-reliability
clean-reliability:
	$(Q)rm -rf $(FUZZ_O) $(TSAN_O)
# ---- end of the reliability block ----

# ---- embedded builds (issue 11): musl, size, the minimal program, cross install ----
# The minimal program (tests/min/min.c): one event read inline, linked
# statically with --gc-sections, so it keeps only the counting API it reaches
# of libselfmon.a (-ffunction-sections above). min.nogc is the same link
# without --gc-sections: what the cut saves, and the proof that the symbol
# check of scripts/size.sh can fail. Not in `all`: a sanitizer build cannot
# link statically.
MIN := $(O)/tests/min
MIN_LINK = $(CC) $(CFLAGS) $(LDFLAGS) -static $< $(O)/libselfmon.a $(LIBS)

.PHONY: min size size-build check-run-musl check-run-size check-run-install check-run-fresh

min: $(MIN) $(MIN).nogc

MIN_DEPS := $(O)/obj/tests/min/min.o $(O)/libselfmon.a $(filter %.a,$(LIBS))
$(filter %.a,$(LIBS)): | $(LIBPERF)/.stamp
$(MIN): $(MIN_DEPS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(MIN_LINK) -Wl,--gc-sections -Wl,-Map=$@.map -o $@

$(MIN).nogc: $(MIN_DEPS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)$(MIN_LINK) -o $@

# The musl trees of `make check`: the host's suites (host-musl.tap) and the
# emulated board's musl boot (scripts/vm/check.sh's max-musl).
MUSL_O := $(O)/musl
ARM64_MUSL_O := $(srctree)/build/arm64-vm-musl
ARM64_MUSL_MAKE := $(MAKE) --no-print-directory ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- LIBC=musl O=$(ARM64_MUSL_O)

# `make size`: the four builds, each static where it is a board's (the arm64
# trees are the emulated board's, CONFIG_STATIC); the host glibc CLI is as
# `make` links it. The budget: the minimal static musl arm64 program.
SIZE_BUDGET_KIB ?= 200
SIZE_TREES = x86_64-glibc::$(O) x86_64-musl::$(MUSL_O) \
	     arm64-glibc:aarch64-linux-gnu-:$(ARM64_O) arm64-musl:aarch64-linux-gnu-:$(ARM64_MUSL_O)

.PHONY: size-objs
size-objs: lib cli min
	@:

size-build:
	$(Q)$(MAKE) --no-print-directory size-objs
	$(Q)$(MAKE) --no-print-directory O=$(MUSL_O) LIBC=musl size-objs
	+$(Q)[ -f $(ARM64_O)/.config ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) size-objs
	+$(Q)[ -f $(ARM64_MUSL_O)/.config ] || $(ARM64_MUSL_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MUSL_MAKE) size-objs

size: size-build
	$(Q)scripts/size.sh $(SIZE_BUDGET_KIB) $(SIZE_TREES)

check-run-size:
	$(Q)mkdir -p $(CHECK)
	$(Q)TAP=$(CHECK)/host-size.tap scripts/size.sh $(SIZE_BUDGET_KIB) $(SIZE_TREES)
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-size.tap

check-run-musl:
	$(Q)tests/run_suites.sh $(CHECK)/host-musl.tap $(call suites,$(MUSL_O))

# A cross build installed into a sysroot's staging folder, as Buildroot does,
# and a program linked against it with a cross pkg-config's flags.
INSTALL_STAGING := $(CHECK)/staging
check-run-install:
	$(Q)rm -rf $(INSTALL_STAGING)
	$(Q)$(ARM64_MAKE) install DESTDIR=$(INSTALL_STAGING) prefix=/usr >/dev/null
	$(Q)tests/check_install.sh $(CHECK)/host-install.tap $(INSTALL_STAGING) aarch64-linux-gnu- tests/min/min.c

# The board's musl bundle: check-arm64-run builds it first and hands it to
# scripts/vm/check.sh, which boots it once more (max-musl).
.PHONY: embedded-build arm64-musl-bundle
embedded-build: size-build
	$(Q)$(MAKE) -s --no-print-directory O=$(MUSL_O) LIBC=musl all

arm64-musl-bundle:
	$(Q)$(ARM64_MUSL_MAKE) qemu_arm64_defconfig >/dev/null
	$(Q)$(ARM64_MUSL_MAKE) tests-bundle

check-arm64-run: arm64-musl-bundle
check-arm64-run: export SELFMON_MUSL_BUNDLE := $(ARM64_MUSL_O)/bundle
tests-bundle: min
# A fresh machine's first make run, simulated (no kconfiglib yet).
check-run-fresh:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_fresh.sh $(CHECK)/host-fresh.tap $(KCONFIGLIB)
	$(Q)cat $(CHECK)/host-fresh.tap

check-variants: embedded-build
check-run-variants: check-run-musl check-run-size check-run-install check-run-fresh
CHECK_TAPS += $(CHECK)/host-musl.tap $(CHECK)/host-size.tap $(CHECK)/host-install.tap $(CHECK)/host-fresh.tap
# ---- end of the embedded block ----

# ---- LINUX_SRC (issue 11): sources refused by name, libperf checked ----
# tests/check_linux_src.sh: build-deps.sh on sources that will not do, the
# deps directory per source, check-libperf.sh on libperfs that lack what
# selfmon calls, and the arm64 cross build's headers. TAP in host-linuxsrc.tap.
.PHONY: check-run-linux-src
check-run-linux-src:
	$(Q)mkdir -p $(CHECK)
	$(Q){ $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null && \
	  $(ARM64_MAKE) $(ARM64_O)/include/generated/autoconf.h $(ARM64_O)/include/generated/libperf.h; } || \
	  echo "  (no arm64 cross build here: its header check skips)"
	$(Q)tests/check_linux_src.sh $(LIBPERF) $(O) $(ARM64_O) $(LINUX_DEPS)/arm64 >$(CHECK)/host-linuxsrc.tap 2>&1 || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-linuxsrc.tap
check-run-host: check-run-linux-src
CHECK_TAPS += $(CHECK)/host-linuxsrc.tap
# ---- end of the LINUX_SRC block ----

# ---- install ----
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

clean:
	$(Q)rm -rf $(O)/obj $(O)/tests $(O)/libselfmon*.a $(O)/selfmon $(O)/clang $(O)/asan

distclean:
	$(Q)rm -rf $(O)

help:
	@echo 'Set-up and tests (fresh Debian 12):'
	@echo '  run            install what is missing, build, run selfmon probe and a short selfmon bench'
	@echo '  check          everything CI runs: host tests (gcc, clang, ASan+UBSan)'
	@echo '  fuzz           FUZZ_S=60 : fuzz each tests/fuzz harness (libFuzzer, ASan+UBSan) for FUZZ_S seconds'
	@echo '  check-lava     LAVA jobs validated, emulated-board jobs run by lava-run (lava/)'
	@echo 'Build:'
	@echo '  all            libselfmon.a, the selfmon CLI and the test binaries (default)'
	@echo '  install        DESTDIR= prefix= (or PREFIX=) : library, headers, CLI, selfmon.pc (a sysroot too)'
	@echo '  size           text/data/bss and stripped size: library, CLI, minimal program (glibc, musl; x86_64, arm64)'
	@echo 'Configuration (Kconfig):'
	@echo '  defconfig      configs/$(DEFCONFIG) for ARCH=$(ARCH)'
	@echo '  <board>_defconfig  one of: $(notdir $(wildcard configs/*_defconfig))'
	@echo '  menuconfig olddefconfig savedefconfig'
	@echo 'Variables: ARCH= CROSS_COMPILE= O= (default build) LIBC=musl (static, build/<arch>-musl) V=1'
	@echo '           LINUX_SRC= (kernel tree or tarball for libperf)'
include scripts/mk/metrics.mk
