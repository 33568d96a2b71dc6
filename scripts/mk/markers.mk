# SPDX-License-Identifier: MIT
# ---- markers: the example built against the installed library and run ----
# examples/markers.c is built as a user builds it (make install into a
# staging folder, pkg-config's flags) and run with markers on and off.
## check-run-markers  examples/markers.c built as a user builds it, run with markers on and off
MARKERS_STAGING := $(CHECK)/markers-staging
.PHONY: check-run-markers
check-run-markers:
	$(Q)mkdir -p $(CHECK)
	$(Q)rm -rf $(MARKERS_STAGING)
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(MARKERS_STAGING) prefix=/usr >/dev/null
	$(Q)tests/check_markers.sh $(CHECK)/host-markers.tap $(MARKERS_STAGING) examples/markers.c '$(CC)'

check-run-host: check-run-markers
CHECK_TAPS += $(CHECK)/host-markers.tap

# ---- markers in shared objects: plugins, libselfmon.so and the PIC archive ----
## check-run-plugin  a dlopen()ed plugin with markers, dlclose()d before exit; libselfmon.so vs the archive
.PHONY: check-run-plugin
check-run-plugin: check-run-markers
	$(Q)tests/check_plugin.sh $(CHECK)/host-plugin.tap $(MARKERS_STAGING) tests/plugin '$(CC)'

check-run-host: check-run-plugin
CHECK_TAPS += $(CHECK)/host-plugin.tap

# ---- the markers' fixed window on x86_64, single-stepped (no PMU needed) ----
## check-run-window  x86_64: each call-site shape, by gcc, clang, g++, clang++ at -O0..-Os, counts its region plus the empty pair
.PHONY: check-run-window
check-run-window: check-run-markers
	$(Q)tests/check_marker_window.sh $(CHECK)/host-window.tap $(MARKERS_STAGING) $(CHECK)/window >/dev/null || true
	$(Q)grep -E '^(not )?ok' $(CHECK)/host-window.tap

check-run-host: check-run-window
CHECK_TAPS += $(CHECK)/host-window.tap

# ---- marker_exact_test: one program, the call-site shapes of each build ----
# tests/selftests/arm64/marker_shapes.c compiled by gcc and clang at -O0,
# -O2, -O3 and -Os, each a table of its own (SHAPES_ID) whose regions carry
# the build's name (SHAPES_TAG), all linked into marker_exact_test. clang
# builds where it is installed and the tree is glibc's (clang finds the
# cross toolchain's headers and has no musl specs). gcc's -O2 and -O3 once
# more for link-time optimization (gcclto: -flto here and at the program's
# link, where gcc compiles them again, free to inline and clone across the
# table that names their functions).
ifeq ($(SRCARCH),arm64)
SHAPE_CCS := gcc $(if $(filter glibc,$(LIBC)),$(if $(shell command -v clang 2>/dev/null),clang))
SHAPE_OBJS := $(foreach c,$(SHAPE_CCS),$(foreach o,O0 O2 O3 Os,$(O)/obj/tests/selftests/arm64/shapes-$(c)-$(o).o)) \
	      $(foreach o,O2 O3,$(O)/obj/tests/selftests/arm64/shapes-gcclto-$(o).o)
shape_cc = $(if $(filter clang-% clanglto-%,$(1)),clang --target=$(TRIPLE)$(if $(filter clanglto-%,$(1)), -flto),$(CC)$(if $(filter gcclto-%,$(1)), -flto))
$(O)/obj/tests/selftests/arm64/shapes-%.o: tests/selftests/arm64/marker_shapes.c $(AUTOCONF) $(PUBLIC_HEADERS)
	$(quiet) CC '$< ($*)'
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call shape_cc,$*) -std=c11 -$(lastword $(subst -, ,$*)) $(CFLAGS_WARN) -Iinclude \
	  -Iarch/arm64/include -DSHAPES_ID=$(subst -,_,$*) -DSHAPES_TAG='"$*"' -c $< -o $@
# The scope shapes in C++ (marker_shapes_cxx.cpp, SELFMON_MARKER_REGION()):
# by g++ and clang++ where installed, in a glibc tree; no exceptions and no
# C++ library, so that the C test links them.
SHAPE_CXXS := $(if $(filter glibc,$(LIBC)),$(if $(shell command -v $(CROSS_COMPILE)g++ 2>/dev/null),gxx) \
	      $(if $(shell command -v clang++ 2>/dev/null),clangxx))
SHAPE_CXX_OBJS := $(foreach c,$(SHAPE_CXXS),$(foreach o,O0 O2 O3 Os,$(O)/obj/tests/selftests/arm64/shapes-$(c)-$(o).o))
shape_cxx = $(if $(filter clangxx-%,$(1)),clang++ --target=$(TRIPLE),$(CROSS_COMPILE)g++)
$(SHAPE_CXX_OBJS): $(O)/obj/tests/selftests/arm64/shapes-%.o: tests/selftests/arm64/marker_shapes_cxx.cpp \
		$(AUTOCONF) $(PUBLIC_HEADERS) include/selfmon/marker.hpp
	$(quiet) CXX '$< ($*)'
	$(Q)mkdir -p $(dir $@)
	$(Q)$(call shape_cxx,$*) -std=c++11 -$(lastword $(subst -, ,$*)) -fno-exceptions -fno-rtti \
	  $(filter-out -Wstrict-prototypes,$(CFLAGS_WARN)) -Iinclude -Iarch/arm64/include \
	  -DSHAPES_ID=$(subst -,_,$*) -DSHAPES_TAG='"$*"' -c $< -o $@
$(O)/tests/selftests/arm64/marker_exact_test: $(SHAPE_OBJS) $(SHAPE_CXX_OBJS)
$(O)/tests/selftests/arm64/marker_exact_test: SELFMON_LDFLAGS += $(SHAPE_OBJS) $(SHAPE_CXX_OBJS) -flto
# The same test over clang's shapes optimized at link time: clang -flto
# writes LLVM bitcode, which GNU ld cannot read, so they make a program of
# their own, marker_exact_lto_test, linked by clang with lld (-fuse-ld=lld),
# which compiles them at the link, free to inline and clone across the
# table as gcc's LTO is. Where clang and ld.lld are installed, in a glibc
# tree; the library and the test's own object are gcc's, as a user's are.
ifneq ($(and $(filter glibc,$(LIBC)),$(shell command -v clang 2>/dev/null),$(shell command -v ld.lld 2>/dev/null)),)
EXACT_LTO := $(O)/tests/selftests/arm64/marker_exact_lto_test
EXACT_LTO_OBJS := $(O)/obj/tests/selftests/arm64/marker_exact_lto_test.o \
		  $(foreach o,O2 O3,$(O)/obj/tests/selftests/arm64/shapes-clanglto-$(o).o)
tests: $(EXACT_LTO)
$(O)/obj/tests/selftests/arm64/marker_exact_lto_test.o: tests/selftests/arm64/marker_exact_test.c \
		$(AUTOCONF) $(LIBPERF_H) $(PUBLIC_HEADERS)
	$(quiet) CC '$< (lto)'
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -DEXACT_MIN_BUILDS=2 -MMD -MP -c $< -o $@
$(EXACT_LTO): $(EXACT_LTO_OBJS) $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)clang --target=$(TRIPLE) -fuse-ld=lld -flto $(ALL_CFLAGS) $(ALL_LDFLAGS) $(EXACT_LTO_OBJS) \
	  $(CLI_LIB) $(O)/libselfmon.a $(UTIL_LIB) $(LIBS) -o $@
endif
endif

# ---- the pair through libselfmon.so and inside a user's shared object, on the board ----
# The board's tree is static (CONFIG_STATIC); these are not:
# tests/selftests/arm64/marker_shared.c linked against libselfmon.so, and two
# shared objects of marker_so_pair.c that it dlopen()s: one against
# libselfmon.so (a plugin), one with libselfmon_pic.a inside (its own copy of
# the library, --exclude-libs so that it binds to that copy). Bound at load
# (-z now), and the program once more bound lazily (marker_shared_lazy,
# -z lazy): the pairs' calls are bound at load all the same (docs/markers.md).
# scripts/board-run runs them with the cross toolchain's libraries.
## check-run-shared-pair  the board: a cached pair through libselfmon.so, in a user's .so, with other PLTs: at most 120, exact
ifeq ($(SRCARCH),arm64)
SHPAIR_O := $(O)/shared-pair
SHPAIR_LDFLAGS = $(filter-out -static,$(ALL_LDFLAGS)) -Wl,-z,now
# Both objects hold a scope region built -O0 too (marker_so_o0.c), whose end
# calls the object's own copy of the arch's stub.
$(SHPAIR_O)/marker_so_o0.o: tests/selftests/arm64/marker_so_o0.c $(AUTOCONF) $(PUBLIC_HEADERS)
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -O0 -fPIC -c $< -o $@
$(SHPAIR_O)/marker_so_pair.so: tests/selftests/arm64/marker_so_pair.c $(SHPAIR_O)/marker_so_o0.o $(SHLIB_LINKS) \
			       $(PUBLIC_HEADERS)
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared $(SHPAIR_LDFLAGS) $< $(SHPAIR_O)/marker_so_o0.o -L$(O) -lselfmon -o $@
$(SHPAIR_O)/marker_so_pair_pic.so: tests/selftests/arm64/marker_so_pair.c $(SHPAIR_O)/marker_so_o0.o $(PIC_LIB) \
				   $(PUBLIC_HEADERS)
	$(quiet) CC $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -shared $(SHPAIR_LDFLAGS) -Wl,--exclude-libs,ALL $< $(SHPAIR_O)/marker_so_o0.o \
	  $(PIC_LIB) $(LIBS) -o $@
# marker_near.o: sites of SELFMON_MARKER_NEAR (one PC-relative load an end);
# marker_tiny.o: sites of the tiny code model, near without it;
# marker_o0.o: a scope region at -O0 (its end: the stub).
SHPAIR_OBJS := $(O)/obj/tests/selftests/arm64/marker_shared.o $(O)/obj/tests/selftests/arm64/marker_near.o \
	       $(O)/obj/tests/selftests/arm64/marker_tiny.o $(O)/obj/tests/selftests/arm64/marker_o0.o
$(O)/obj/tests/selftests/arm64/marker_tiny.o: SELFMON_CFLAGS += -mcmodel=tiny
$(O)/obj/tests/selftests/arm64/marker_o0.o $(O)/obj-bp/tests/selftests/arm64/marker_o0.o: SELFMON_CFLAGS += -O0
$(SHPAIR_O)/marker_shared: $(SHPAIR_OBJS) $(SHLIB_LINKS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SHPAIR_LDFLAGS) $(SHPAIR_OBJS) -L$(O) -lselfmon -ldl -lpthread -o $@
$(SHPAIR_O)/marker_shared_lazy: $(SHPAIR_OBJS) $(SHLIB_LINKS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(filter-out -static,$(ALL_LDFLAGS)) -Wl,-z,lazy $(SHPAIR_OBJS) -L$(O) -lselfmon -ldl -lpthread -o $@
# The same program where the linker makes PLT entries of another kind:
# its objects built with -mbranch-protection=standard and linked without
# PIE with BTI (-z force-bti: a bti c in each entry) and with PAC
# (-z pac-plt: an autia1716 in each), 5 instructions where a PIE's have 4.
# The pairs call through the GOT and never run an entry (arch.h). They run
# on the cortex-a72 board, which has neither BTI nor PAC and runs both
# instructions as hints: Debian's start files carry no BTI note and its
# glibc does not sign a PAC PLT's slots, so neither program starts where
# the CPU has them.
SHPAIR_BP_OBJS := $(SHPAIR_OBJS:$(O)/obj/%=$(O)/obj-bp/%)
$(O)/obj-bp/%.o: %.c $(AUTOCONF) $(PUBLIC_HEADERS)
	$(quiet) CC '$< (branch protection)'
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -mbranch-protection=standard -MMD -MP -c $< -o $@
$(O)/obj-bp/tests/selftests/arm64/marker_tiny.o: SELFMON_CFLAGS += -mcmodel=tiny
$(O)/obj-bp/tests/selftests/%.o: SELFMON_CFLAGS += -I$(KSELFTEST) -Wno-unused-parameter -Wno-sign-compare $(NO_CLOBBERED)
$(SHPAIR_O)/marker_shared_bti: SHPAIR_PLT := -Wl,-z,force-bti
$(SHPAIR_O)/marker_shared_pacplt: SHPAIR_PLT := -Wl,-z,pac-plt
$(SHPAIR_O)/marker_shared_bti $(SHPAIR_O)/marker_shared_pacplt: $(SHPAIR_BP_OBJS) $(SHLIB_LINKS)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@) && rm -f $@
	$(Q)$(CC) $(ALL_CFLAGS) $(filter-out -static,$(ALL_LDFLAGS)) -no-pie -Wl,-z,now \
	  $(SHPAIR_PLT) $(SHPAIR_BP_OBJS) -L$(O) -lselfmon -ldl -lpthread -o $@ 2>&1 | { grep -v 'BTI turned on by -z force-bti' >&2 || :; }; \
	  [ -f $@ ]
.PHONY: shared-pair-build
shared-pair-build: $(SHPAIR_O)/marker_shared $(SHPAIR_O)/marker_shared_lazy $(SHPAIR_O)/marker_so_pair.so \
		   $(SHPAIR_O)/marker_so_pair_pic.so $(SHPAIR_O)/marker_shared_bti $(SHPAIR_O)/marker_shared_pacplt
endif

.PHONY: check-run-shared-pair
check-run-shared-pair:
	$(Q)mkdir -p $(CHECK)
	+$(Q)[ -f $(ARM64_O)/.config ] || $(ARM64_MAKE) qemu_arm64_defconfig >/dev/null
	+$(Q)$(ARM64_MAKE) shared-pair-build && \
	  $(BOARD_RUN) --vm $(BOARD_VM) --sysroot $(RUNNER_SYSROOT) --out $(CHECK)/shared-pair \
	    --log $(CHECK)/board-shared-pair.log --with $(ARM64_O)/shared-pair/marker_shared \
	    --with $(ARM64_O)/shared-pair/marker_shared_lazy \
	    --with $(ARM64_O)/shared-pair/marker_so_pair.so --with $(ARM64_O)/shared-pair/marker_so_pair_pic.so \
	    --with $(ARM64_O)/$(SONAME) tests/selftests/arm64/marker_shared.sh >$(CHECK)/board-shared-pair.tap || \
	  echo "not ok - the shared pair's board run failed (log: $(CHECK)/board-shared-pair.log)" \
	    >>$(CHECK)/board-shared-pair.tap
	+$(Q)$(BOARD_RUN) --cpu cortex-a72 --vm $(BOARD_VM) --sysroot $(RUNNER_SYSROOT) --out $(CHECK)/shared-pair-plt \
	    --log $(CHECK)/board-shared-pair-plt.log --with $(ARM64_O)/shared-pair/marker_shared_bti \
	    --with $(ARM64_O)/shared-pair/marker_shared_pacplt \
	    --with $(ARM64_O)/shared-pair/marker_so_pair.so --with $(ARM64_O)/shared-pair/marker_so_pair_pic.so \
	    --with $(ARM64_O)/$(SONAME) tests/selftests/arm64/marker_shared.sh >$(CHECK)/board-shared-pair-plt.tap || \
	  echo "not ok - the shared pair's board run with BTI's and PAC's PLT failed (log: $(CHECK)/board-shared-pair-plt.log)" \
	    >>$(CHECK)/board-shared-pair-plt.tap
	$(Q)for k in 'bti:bti[[:space:]]c' 'pacplt:autia1716'; do \
	  f=$(ARM64_O)/shared-pair/marker_shared_$${k%%:*}; \
	  if aarch64-linux-gnu-objdump -d $$f | grep -A5 '@plt>:$$' | grep -Eq "$${k#*:}"; then \
	    echo "ok - $${f##*/}'s PLT entries are 5 instructions: they hold '$${k#*:}'"; \
	  else echo "not ok - $${f##*/}'s PLT entries hold no '$${k#*:}': it tests no other PLT"; fi; \
	done >>$(CHECK)/board-shared-pair-plt.tap
	$(Q)grep -E '^(not )?ok' $(CHECK)/board-shared-pair.tap $(CHECK)/board-shared-pair-plt.tap

check-run-variants: check-run-shared-pair
CHECK_TAPS += $(CHECK)/board-shared-pair.tap $(CHECK)/board-shared-pair-plt.tap
