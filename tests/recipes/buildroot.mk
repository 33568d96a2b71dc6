# SPDX-License-Identifier: MIT
# Buildroot's side of a generic package, for tests/check_recipes.sh: the
# variables packaging/buildroot/package/selfmon/selfmon.mk uses, with the
# values an aarch64 glibc configuration gives them (package/Makefile.in's
# TARGET_CONFIGURE_OPTS, TARGET_MAKE_ENV, TARGET_CFLAGS; arch/arch.mk's
# KERNEL_ARCH; linux.mk's LINUX_DIR), then the BR2_EXTERNAL tree's
# external.mk, and a rule per step whose recipe is the package's
# <PKG>_<STEP>_CMDS, as pkg-generic.mk runs them (in a rule on the
# package's stamp file, so $(@D) is the package's build directory).
# Everything comes from the environment (a command-line variable would
# reach selfmon's make through MAKEFLAGS, which Buildroot's do not):
#   BR_EXTERNAL  the BR2_EXTERNAL tree      BR_WORK   output/ (build/, staging/, target/, host/)
#   BR_LINUX_DIR the kernel's source         BR_MAKE   what $(MAKE) runs (make -jN DEPS=...)
#   BR_STATIC    y: BR2_STATIC_LIBS          BR_CLI    y: BR2_PACKAGE_SELFMON_CLI
#   BR_TARGET_DIR  another target/ (a second install-target)
# Goals: build, install-staging, install-target.

BR2_EXTERNAL_SELFMON_PATH := $(BR_EXTERNAL)
BR2_aarch64 := y
BR2_TOOLCHAIN_HAS_THREADS := y
BR2_TOOLCHAIN_USES_GLIBC := y
BR2_LINUX_KERNEL := y
BR2_PACKAGE_SELFMON := y
ifeq ($(BR_STATIC),y)
BR2_STATIC_LIBS := y
else
BR2_SHARED_STATIC_LIBS := y
endif
ifeq ($(BR_CLI),y)
BR2_PACKAGE_SELFMON_CLI := y
endif

BASE_DIR := $(BR_WORK)
BUILD_DIR := $(BASE_DIR)/build
HOST_DIR := $(BASE_DIR)/host
STAGING_DIR := $(BASE_DIR)/staging
BR_TARGET_DIR ?=
TARGET_DIR := $(or $(BR_TARGET_DIR),$(BASE_DIR)/target)
LINUX_DIR := $(BR_LINUX_DIR)
KERNEL_ARCH := arm64
# Buildroot's own toolchain is $(HOST_DIR)/bin/aarch64-buildroot-linux-gnu-,
# a wrapper with its sysroot inside: Debian's cross gcc is the same kind.
TARGET_CROSS := aarch64-linux-gnu-
TARGET_AR = $(TARGET_CROSS)gcc-ar
TARGET_AS = $(TARGET_CROSS)as
TARGET_CC = $(TARGET_CROSS)gcc
TARGET_CPP = $(TARGET_CROSS)cpp
TARGET_CXX = $(TARGET_CROSS)g++
TARGET_LD = $(TARGET_CROSS)ld
TARGET_NM = $(TARGET_CROSS)gcc-nm
TARGET_RANLIB = $(TARGET_CROSS)gcc-ranlib
TARGET_READELF = $(TARGET_CROSS)readelf
TARGET_OBJCOPY = $(TARGET_CROSS)objcopy
TARGET_OBJDUMP = $(TARGET_CROSS)objdump
TARGET_STRIP = $(TARGET_CROSS)strip
TARGET_CPPFLAGS = -D_LARGEFILE_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64
TARGET_CFLAGS = $(TARGET_CPPFLAGS) -O2 -g0 -D_FORTIFY_SOURCE=1
TARGET_CXXFLAGS = $(TARGET_CFLAGS)
TARGET_LDFLAGS = -Wl,-z,relro
BR_PATH = "$(HOST_DIR)/bin:$(HOST_DIR)/sbin:$(PATH)"
PKG_CONFIG_HOST_BINARY = $(HOST_DIR)/bin/pkg-config

TARGET_CONFIGURE_OPTS = \
	PATH=$(BR_PATH) \
	AR="$(TARGET_AR)" AS="$(TARGET_AS)" LD="$(TARGET_LD)" NM="$(TARGET_NM)" \
	CC="$(TARGET_CC)" GCC="$(TARGET_CC)" CPP="$(TARGET_CPP)" CXX="$(TARGET_CXX)" \
	RANLIB="$(TARGET_RANLIB)" READELF="$(TARGET_READELF)" STRIP="$(TARGET_STRIP)" \
	OBJCOPY="$(TARGET_OBJCOPY)" OBJDUMP="$(TARGET_OBJDUMP)" \
	AR_FOR_BUILD="ar" AS_FOR_BUILD="as" CC_FOR_BUILD="gcc" LD_FOR_BUILD="ld" \
	CPPFLAGS_FOR_BUILD="" CFLAGS_FOR_BUILD="-O2" LDFLAGS_FOR_BUILD="" \
	DEFAULT_ASSEMBLER="$(TARGET_AS)" DEFAULT_LINKER="$(TARGET_LD)" \
	CPPFLAGS="$(TARGET_CPPFLAGS)" CFLAGS="$(TARGET_CFLAGS)" CXXFLAGS="$(TARGET_CXXFLAGS)" \
	LDFLAGS="$(TARGET_LDFLAGS)" PKG_CONFIG="$(PKG_CONFIG_HOST_BINARY)" STAGING_DIR="$(STAGING_DIR)"
TARGET_MAKE_ENV = PATH=$(BR_PATH)

MAKE = $(BR_MAKE)
qstrip = $(strip $(subst ",,$(1)))
# pkg-generic.mk's generic-package defines the steps' rules; here, below.
generic-package =

include $(BR2_EXTERNAL_SELFMON_PATH)/external.mk

SELFMON_DIR := $(BUILD_DIR)/selfmon-$(SELFMON_VERSION)
.PHONY: build install-staging install-target
build: $(SELFMON_DIR)/.stamp_built
install-staging: $(SELFMON_DIR)/.stamp_staging_installed
install-target: $(SELFMON_DIR)/.stamp_target_installed
.PHONY: $(SELFMON_DIR)/.stamp_built $(SELFMON_DIR)/.stamp_staging_installed $(SELFMON_DIR)/.stamp_target_installed
$(SELFMON_DIR)/.stamp_built:
	$(SELFMON_BUILD_CMDS)
$(SELFMON_DIR)/.stamp_staging_installed:
	$(SELFMON_INSTALL_STAGING_CMDS)
$(SELFMON_DIR)/.stamp_target_installed:
	$(SELFMON_INSTALL_TARGET_CMDS)
