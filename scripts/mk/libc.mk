# SPDX-License-Identifier: MIT
# The C library: glibc, or musl (CONFIG_LIBC_MUSL, or LIBC=musl). Included by
# the Makefile before the compiler flags, which it changes.
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
SELFMON_LDFLAGS += -Wl,-z,norelro
endif
