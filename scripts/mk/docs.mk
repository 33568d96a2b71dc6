# SPDX-License-Identifier: MIT
# ---- docs: what the README and docs/ show is run as written ----
# Pulled in by the Makefile's last lines; hooks into `make check` through
# check-run-variants and CHECK_TAPS, as the other blocks do.
## man            the man pages into build/man (section 3 from the headers); make install installs them
## examples       examples/*.c built against this tree installed (pkg-config) into build/examples
## check-run-man check-run-examples check-run-install-docs check-run-makerun  what the docs show, run

# The install commands of the README and docs/building.md (every indented
# `make ... install DESTDIR=$STAGING ...` line), run as written on trees whose
# libperf is not built yet: the cross one used to fail there, libperf's own
# install putting its build-local prefix under DESTDIR.
DOCS_INSTALL_O := $(CHECK)/install-docs
INSTALL_DOCS := README.md docs/building.md
.PHONY: check-run-install-docs
check-run-install-docs:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_install_docs.sh $(CHECK)/host-install-docs.tap $(DOCS_INSTALL_O) $(LINUX_DEPS) $(INSTALL_DOCS)
	$(Q)cat $(CHECK)/host-install-docs.tap
check-run-variants: check-run-install-docs
CHECK_TAPS += $(CHECK)/host-install-docs.tap

# `make run` as a newcomer reads it (tests/check_run.sh): one build line, the
# probe, a one-line-per-benchmark bench, what was dropped in one line, the
# next commands; a screen in all.
.PHONY: check-run-makerun
check-run-makerun:
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_run.sh $(CHECK)/host-makerun.tap O=$(O)
	$(Q)cat $(CHECK)/host-makerun.tap
check-run-variants: check-run-makerun
CHECK_TAPS += $(CHECK)/host-makerun.tap

# ---- man pages ----
# Section 3 from the public headers' doc comments by the kernel's
# scripts/kernel-doc (scripts/mkman3.py: every public function gets a page,
# those without are listed in man3/missing.txt); sections 1 and 7 are
# docs/man/. Each macro a program writes has its page too, each struct a
# page's function takes or gives is described field by field there, and
# docs/man/examples/NAME.c (or one that calls NAME) is NAME(3)'s EXAMPLES.
# `make man` builds them into $(O)/man; `make install` installs them;
# check-run-man renders each with man --warnings, checks the macros,
# examples and option fields (tests/check_man.sh), and compiles and links
# every example as the pages show it (tests/check_man_examples.sh).
KERNEL_DOC := $(LINUX_DEPS)/src/scripts/kernel-doc
MAN_O := $(O)/man
MAN_HEADERS = $(wildcard include/selfmon/*.h include/selfmon/*.hpp)
MAN_PAGES = $(wildcard docs/man/*.1 docs/man/*.7)
MAN_EXAMPLES = $(wildcard docs/man/examples/*.c docs/man/examples/*.cpp)
datarootdir ?= $(prefix)/share
mandir ?= $(datarootdir)/man

$(KERNEL_DOC): | $(LIBPERF)/.stamp
	$(Q)scripts/build-deps.sh --kernel-doc $(LINUX_DEPS)

$(MAN_O)/.stamp: $(MAN_HEADERS) $(MAN_PAGES) $(MAN_EXAMPLES) scripts/mkman3.py $(KERNEL_DOC)
	$(quiet) MAN $(MAN_O:$(srctree)/%=%)
	$(Q)rm -rf $(MAN_O) && mkdir -p $(MAN_O)/man1 $(MAN_O)/man3 $(MAN_O)/man7
	$(Q)$(PYTHON) scripts/mkman3.py --examples=docs/man/examples $(KERNEL_DOC) $(MAN_O)/man3 $(VERSION) $(MAN_HEADERS) 2>$(MAN_O)/mkman3.log; \
	  rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 3 ] || { cat $(MAN_O)/mkman3.log >&2; exit 1; }
	$(Q)cp docs/man/*.1 $(MAN_O)/man1/ && cp docs/man/*.7 $(MAN_O)/man7/
	$(Q)touch $@

.PHONY: man install-man check-run-man
man: $(MAN_O)/.stamp

install: install-man
install-man: $(MAN_O)/.stamp
	$(Q)install -d $(call shq,$(DESTDIR)$(mandir)/man1) $(call shq,$(DESTDIR)$(mandir)/man3) $(call shq,$(DESTDIR)$(mandir)/man7)
	$(Q)install -m 644 $(MAN_O)/man1/*.1 $(call shq,$(DESTDIR)$(mandir)/man1/)
	$(Q)install -m 644 $(MAN_O)/man3/*.3 $(call shq,$(DESTDIR)$(mandir)/man3/)
	$(Q)install -m 644 $(MAN_O)/man7/*.7 $(call shq,$(DESTDIR)$(mandir)/man7/)

check-run-man: $(MAN_O)/.stamp $(O)/libselfmon.a $(KSELFTEST)/.stamp | $(CMOCKA_STAMP)
	$(Q)mkdir -p $(CHECK)
	$(Q)tests/check_man.sh $(CHECK)/host-man.tap $(MAN_O) $(O)/selfmon
	$(Q)cat $(CHECK)/host-man.tap
	$(Q)tests/check_man_examples.sh $(CHECK)/host-man-examples.tap $(MAN_O) docs/man/examples \
	  '$(CC)' '$(MAN_CXX)' '$(SELFMON_CPPFLAGS)' '$(ALL_LDFLAGS) $(O)/libselfmon.a $(LIBS)' \
	  '$(EXAMPLES_CMOCKA)' $(KSELFTEST)
	$(Q)cat $(CHECK)/host-man-examples.tap
# The examples' C++ compiler: CC's own (gcc -> g++, clang -> clang++).
MAN_CXX = $(patsubst %gcc,%g++,$(patsubst %clang,%clang++,$(firstword $(CC)))) $(wordlist 2,99,$(CC))
check-run-variants: check-run-man
CHECK_TAPS += $(CHECK)/host-man.tap $(CHECK)/host-man-examples.tap

# ---- examples/: the README's tour, as a user builds and runs it ----
# `make examples`: this tree installed into a staging folder, then each
# examples/*.c built by this tree's compiler (the cross or musl one too)
# against it through pkg-config (scripts/build-examples.sh) into
# $(O)/examples. The test bundle carries them (bin/examples_test runs them
# on the board); check-run-examples builds and runs them on the host and
# checks the README's quotes of them.
EXAMPLES_SRCS = $(wildcard examples/*.c examples/*.cpp)
EXAMPLES_O := $(O)/examples
EXAMPLES_STAGING := $(O)/examples-staging
.PHONY: examples check-run-examples
examples: $(EXAMPLES_O)/.stamp
# Rebuilt when an example, the library or the CLI changes (each bundle build
# of make check asks for them).
# A cmocka example (examples/budget_cmocka.c) links the cmocka the tests link:
# Debian's shared one, or the static one a static build makes.
EXAMPLES_CMOCKA = $(if $(CONFIG_STATIC),-I$(CMOCKA_DIR)/include $(CMOCKA_CFLAGS) $(CMOCKA_LIBS),-lcmocka)
$(EXAMPLES_O)/.stamp: $(EXAMPLES_SRCS) $(O)/libselfmon.a $(O)/selfmon scripts/build-examples.sh $(MAN_O)/.stamp \
		| $(CMOCKA_STAMP)
	$(Q)rm -rf $(EXAMPLES_STAGING) $(EXAMPLES_O)
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(EXAMPLES_STAGING) prefix=/usr >/dev/null
	$(Q)log=$$(CMOCKA='$(EXAMPLES_CMOCKA)' scripts/build-examples.sh $(EXAMPLES_STAGING) $(EXAMPLES_O) '$(CC)' '$(ALL_LDFLAGS)' $(EXAMPLES_SRCS)); \
	  rc=$$?; printf '%s\n' "$$log" | sed 's/^built /  EXAMPLE  /'; [ $$rc -eq 0 ] && touch $@
tests-bundle: examples

check-run-examples: | $(CMOCKA_STAMP)
	$(Q)mkdir -p $(CHECK)
	$(Q)rm -rf $(CHECK)/examples-staging
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(CHECK)/examples-staging prefix=/usr >/dev/null
	$(Q)CC='$(CC)' CMOCKA='$(EXAMPLES_CMOCKA)' tests/check_examples.sh $(CHECK)/host-examples.tap $(CHECK)/examples-staging $(CHECK)/examples README.md $(EXAMPLES_SRCS)
	$(Q)cat $(CHECK)/host-examples.tap
check-run-variants: check-run-examples
CHECK_TAPS += $(CHECK)/host-examples.tap
