# SPDX-License-Identifier: MIT
################################################################################
#
# selfmon
#
################################################################################

# The tree this BR2_EXTERNAL lives in (packaging/buildroot/../..), copied
# as a local package; SELFMON_OVERRIDE_SRCDIR in local.mk works as usual.
SELFMON_VERSION = 0.1.0
SELFMON_SITE = $(realpath $(BR2_EXTERNAL_SELFMON_PATH)/../..)
SELFMON_SITE_METHOD = local
SELFMON_LICENSE = MIT (library, headers), GPL-2.0-only (libperf, libapi, CLI), LGPL-2.1-only (libperf's zalloc)
SELFMON_LICENSE_FILES = LICENSE docs/licensing.md
SELFMON_INSTALL_STAGING = YES

# libperf, libapi and the kselftest headers come from the kernel this
# configuration builds (its extracted tree), or from the configured source.
ifeq ($(BR2_LINUX_KERNEL),y)
SELFMON_DEPENDENCIES += linux
SELFMON_LINUX_SRC = $(LINUX_DIR)
else
SELFMON_LINUX_SRC = $(call qstrip,$(BR2_PACKAGE_SELFMON_LINUX_SRC))
endif

# The toolchain and its flags on the command line ($(TARGET_CONFIGURE_OPTS):
# selfmon adds CFLAGS and LDFLAGS after its own, docs/building.md);
# ARCH as the kernel names it. A toolchain with static libraries only
# (BR2_STATIC_LIBS) links the CLI statically and makes no libselfmon.so.
SELFMON_MAKE_OPTS = \
	$(TARGET_CONFIGURE_OPTS) \
	ARCH=$(KERNEL_ARCH) \
	CROSS_COMPILE=$(TARGET_CROSS) \
	LINUX_SRC=$(SELFMON_LINUX_SRC) \
	O=$(@D)/build \
	prefix=/usr \
	$(if $(BR2_STATIC_LIBS),CONFIG_STATIC=y)

define SELFMON_BUILD_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(SELFMON_MAKE_OPTS) lib cli
endef

define SELFMON_INSTALL_STAGING_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(SELFMON_MAKE_OPTS) install DESTDIR=$(STAGING_DIR)
endef

# The target gets what `make install` installs (target-finalize drops the
# headers, archives, selfmon.pc and man pages); the CLI only if selected.
define SELFMON_INSTALL_TARGET_CMDS
	$(TARGET_MAKE_ENV) $(MAKE) -C $(@D) $(SELFMON_MAKE_OPTS) install DESTDIR=$(TARGET_DIR)
	$(if $(BR2_PACKAGE_SELFMON_CLI),,rm -f $(TARGET_DIR)/usr/bin/selfmon $(TARGET_DIR)/usr/share/man/man1/selfmon*.1)
endef

$(eval $(generic-package))
