# SPDX-License-Identifier: MIT
# Configuration: Kconfig through kconfiglib (Debian's python3-kconfiglib).

.PHONY: defconfig %_defconfig menuconfig olddefconfig savedefconfig

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
# One older than Kconfig lacks the options added since: it is brought up to
# date (olddefconfig: a new option at its default, the user's choices kept)
# before make reads it. Otherwise the object lists, read from the .config
# (obj-$(CONFIG_FOO)), would take a new option as off while autoconf.h,
# generated from Kconfig, has it at its default on: stubs linked beside
# code compiled for the real thing.
$(KCONFIG_CONFIG): Kconfig
	$(Q)if [ -f $@ ]; then \
	  echo "  OLDCONFIG $(@:$(srctree)/%=%) (Kconfig changed)"; \
	  cd $(srctree) && KCONFIG_CONFIG=$@ $(PYTHON) $(KCONFIGLIB)/olddefconfig.py Kconfig >/dev/null; \
	else \
	  echo "  DEFCONFIG $(DEFCONFIG)"; \
	  mkdir -p $(O) && cd $(srctree) && $(PYTHON) $(KCONFIGLIB)/defconfig.py --kconfig Kconfig configs/$(DEFCONFIG) >/dev/null; \
	fi
	$(Q)touch $@

$(AUTOCONF): $(KCONFIG_CONFIG) Kconfig
	@grep -q '^CONFIG_ARCH_$(if $(filter x86,$(SRCARCH)),X86_64,$(shell echo $(SRCARCH) | tr a-z A-Z))=y' $< || \
	  { echo "$<: made for another ARCH than '$(ARCH)': run 'make ARCH=$(ARCH) defconfig' or use O=" >&2; exit 1; }
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(KCONF)/genconfig.py --header-path $@ Kconfig >/dev/null
	$(Q)touch $@
