# SPDX-License-Identifier: MIT
# Reliability: fuzzing and the ThreadSanitizer build. `check` reaches it
# through the prerequisites added to check-variants and check-run-variants,
# and CHECK_TAPS below.
## fuzz           FUZZ_S=60 : fuzz each tests/fuzz harness (libFuzzer, ASan+UBSan) for FUZZ_S seconds

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
$(O)/tests/fuzz/%: $(O)/obj/tests/fuzz/%.o $(INTERNAL_LIB) $(UTIL_LIB)
	$(quiet) LD $(@:$(srctree)/%=%)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -fsanitize=fuzzer $< $(INTERNAL_LIB) $(UTIL_LIB) $(LIBS) -o $@

fuzz-build:
	$(Q)$(MAKE) --no-print-directory O=$(FUZZ_O) CC=clang fuzz-bins \
	  EXTRA_CFLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' LDFLAGS='$(FUZZ_SAN)'

fuzz: fuzz-build
	$(Q)tests/fuzz/run.sh $(FUZZ_S) $(FUZZ_O)/work $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_O)/tests/fuzz/%)

# libperf's own make must not see ours (O=, CC=) through MAKEFLAGS, nor the
# caller's flags (scripts/build-deps.sh says why).
$(TSAN_LIBPERF)/.stamp: | $(LIBPERF)/.stamp
	$(quiet) LIBPERF "$(LP_ARCH), -fsanitize=thread"
	$(Q)rm -rf $(TSAN_LIBPERF) && mkdir -p $(TSAN_LIBPERF)/obj
	$(Q)env -u CFLAGS -u CPPFLAGS -u LDFLAGS MAKEFLAGS= MAKEOVERRIDES= make -s -C $(LINUX_DEPS)/src/tools/lib/perf ARCH=$(LP_ARCH) CC=clang \
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
