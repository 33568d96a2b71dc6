# SPDX-License-Identifier: MIT
# ---- metrics: the kernel's pmu-events tables (Kconfig "Metrics") ----
# scripts/pmu-events.py compiles tools/perf/pmu-events/arch/<arch>/ of
# LINUX_SRC_EVENTS (a tree or a tarball; the newest Debian linux-source by
# default, whatever LINUX_SRC libperf comes from) into C tables for the cores
# Kconfig selects: $(O)/gen/pmu-events.c, part of the library. The unit tests
# of every metric use tables of all cores of both architectures, built
# beside it without descriptions ($(O)/gen/pmu-events-all-*.c).
comma := ,
space := $(empty) $(empty)
LINUX_SRC_EVENTS ?= /usr/src/linux-source-6.12.tar.xz
override LINUX_SRC_EVENTS := $(abspath $(LINUX_SRC_EVENTS))
# Build-local, like the default DEPS: a shared, prebuilt DEPS stays untouched.
PE_DEPS ?= $(srctree)/build/deps
PE_DIR := $(PE_DEPS)/pmu-events-$(shell scripts/build-deps.sh --id '$(subst ','\'',$(LINUX_SRC_EVENTS))')
PE_ARCH := $(if $(filter x86,$(SRCARCH)),x86,$(SRCARCH))
# Kconfig strings keep their quotes in .config.
unquote = $(subst ",,$(1))
PE_SELECT := $(if $(CONFIG_PMU_EVENTS_ALL),all,$(if $(CONFIG_PMU_EVENTS_VENDOR),vendor:$(call unquote,$(CONFIG_PMU_EVENTS_VENDOR_NAME)),$(if $(CONFIG_PMU_EVENTS_LIST),list:$(subst $(space),$(comma),$(strip $(call unquote,$(CONFIG_PMU_EVENTS_CORES)))),none)))
PE_GEN := $(O)/gen/pmu-events.c
PE_OBJ := $(O)/obj/gen/pmu-events.o
PE_ALL_OBJS := $(O)/obj/gen/pmu-events-all-arm64.o $(O)/obj/gen/pmu-events-all-x86.o

$(PE_DIR)/.stamp:
	$(Q)scripts/build-pmu-events.sh '$(LINUX_SRC_EVENTS)' $(PE_DIR)

# Rewritten only when the selection or the generator changes (.config holds more).
$(O)/gen/pmu-events.select: FORCE
	$(Q)mkdir -p $(dir $@)
	$(Q)echo '$(PE_ARCH) $(PE_SELECT) $(CONFIG_PMU_EVENTS_DESCRIPTIONS) $(PE_DIR)' | cmp -s - $@ || \
	  echo '$(PE_ARCH) $(PE_SELECT) $(CONFIG_PMU_EVENTS_DESCRIPTIONS) $(PE_DIR)' >$@

$(PE_GEN): $(O)/gen/pmu-events.select scripts/pmu-events.py $(PE_DIR)/.stamp
	$(quiet) GEN "$(@:$(srctree)/%=%) ($(PE_SELECT))"
	$(Q)$(PYTHON) scripts/pmu-events.py --arch $(PE_ARCH) --src $(PE_DIR)/$(PE_ARCH) --select '$(PE_SELECT)' \
	  $(if $(CONFIG_PMU_EVENTS_DESCRIPTIONS),,--no-desc) -o $@

$(O)/gen/pmu-events-all-%.c: scripts/pmu-events.py $(PE_DIR)/.stamp
	$(quiet) GEN $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(PYTHON) scripts/pmu-events.py --arch $* --src $(PE_DIR)/$* --select all --no-desc \
	  --symbol selfmon_pe__table_all_$* -o $@

$(O)/obj/gen/%.o: $(O)/gen/%.c core/pmu_events.h
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -Icore -c $< -o $@
$(O)/obj-pic/gen/%.o: $(O)/gen/%.c core/pmu_events.h
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -Icore -c $< -o $@

ifdef CONFIG_PMU_EVENTS
LIB_OBJS += $(PE_OBJ)
$(O)/libselfmon.a $(INTERNAL_LIB): $(PE_OBJ)
$(SHLIB) $(PIC_LIB): $(call pic_objs,$(PE_OBJ))
# The unit test of every metric of the tree, on tables of all cores.
$(O)/tests/unit/test_metric_all: $(PE_ALL_OBJS)
$(O)/tests/unit/test_metric_all: SELFMON_LDFLAGS += $(PE_ALL_OBJS)
endif
# ---- end of the metrics block ----

# `make size` also says what the pmu-events selection of each tree adds: the
# tables' object (text and data) and the cores it holds. The minimal program
# grows by about the tables when any core is selected (its event parser can
# reach them); with none it is unchanged.
.PHONY: size-metrics
size-metrics: size-build
	$(Q)for spec in $(SIZE_TREES); do \
	  label=$${spec%%:*}; rest=$${spec#*:}; cross=$${rest%%:*}; tree=$${rest#*:}; \
	  sel=$$(cut -d' ' -f2 $$tree/gen/pmu-events.select 2>/dev/null); \
	  obj=$$tree/obj/gen/pmu-events.o; \
	  if grep -q '^CONFIG_PMU_EVENTS=y' $$tree/.config 2>/dev/null && [ -f $$obj ]; then \
	    set -- $$($${cross}size $$obj | tail -n 1); \
	    printf '%-12s pmu-events %-40s text %8s data %6s\n' $$label "$$sel" $$1 $$2; \
	  else printf '%-12s pmu-events none (CONFIG_PMU_EVENTS_NONE or no tables for the arch)\n' $$label; fi; \
	done
size: size-metrics
