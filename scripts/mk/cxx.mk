# SPDX-License-Identifier: MIT
# ---- C++: every public header compiles as C++, and links ----
# tests/check_cxx.sh: each header of include/selfmon/ alone and all of them
# together, compiled as C++11 to C++23 by g++ and clang++ for x86_64 and
# arm64 (-Wall -Wextra -Werror -pedantic; compile only), and, in a glibc
# host build, the program of every header linked against this build's
# library and cmocka. A compiler that is absent is a SKIP line
# (scripts/deps.sh's tests and arm64 sets install them).
## check-run-cxx  every public header compiled as C++11..23 (g++, clang++; x86_64, arm64), and linked
CXX_CHECK_LIBS = $(if $(and $(filter x86,$(SRCARCH)),$(filter glibc,$(LIBC)),$(if $(CONFIG_STATIC),,y)), \
		 $(O)/libselfmon.a $(LIBS) $(CMOCKA_LIBS))
.PHONY: check-run-cxx
check-run-cxx: $(if $(CXX_CHECK_LIBS),$(O)/libselfmon.a)
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_cxx.sh $(CHECK)/host-cxx.tap $(CXX_CHECK_LIBS)
check-run-host: check-run-cxx
CHECK_TAPS += $(CHECK)/host-cxx.tap
