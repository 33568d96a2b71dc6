// SPDX-License-Identifier: MIT
/*
 * PLT entries named NAME@plt (sample/elf_plt.c), on programs a compiler
 * built: tests/fixtures/elf/plt.c calls getpid, strlen and abs through the
 * PLT, built by gen-plt-fixtures.sh with gcc -z lazy, clang -z now, gcc
 * with IBT (.plt.sec) and aarch64-linux-gnu-gcc, without and with BTI and
 * PAC (24-byte entries). The addresses below are
 * those objdump -d labels NAME@plt in each (the script prints them), and
 * perf 6.1 synthesizes from .rela.plt. The files are linked into this test
 * (.incbin), so it runs wherever it is copied; each parse reads a heap copy
 * of exactly the file's size, so the ASan build sees any overrun, and
 * broken copies of them (tables past their sections, relocations of other
 * types or symbols) must leave entries unnamed, never named wrong.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../sample/elf.h"

/* @sym: the bytes of tests/fixtures/elf/@file, to @sym##_end (make runs in the tree's root). */
#define FIXTURE(sym, file)                                                                         \
	__asm__(".pushsection .rodata\n.balign 16\n.globl " #sym "\n.hidden " #sym "\n" #sym       \
		":\n.incbin \"tests/fixtures/elf/" file "\"\n.globl " #sym "_end\n.hidden " #sym  \
		"_end\n" #sym "_end:\n.popsection");                                               \
	extern const uint8_t sym[], sym##_end[]

FIXTURE(fx_gcc_lazy, "plt-x86_64-gcc-lazy");
FIXTURE(fx_clang_now, "plt-x86_64-clang-now");
FIXTURE(fx_gcc_ibt, "plt-x86_64-gcc-ibt");
FIXTURE(fx_arm64, "plt-arm64-gcc");
FIXTURE(fx_arm64_pac, "plt-arm64-gcc-bti-pac");

struct entry {
	uint64_t addr;
	const char *name;
};

struct fixture {
	const char *file;
	const uint8_t *b, *end;
	uint64_t plt, header;		/* .plt's address; PLT0's size (unnamed) */
	struct entry e[8];		/* in .rela.plt order per section */
	uint64_t unnamed;		/* an address of another stub: .plt.got */
};

static const struct fixture fixtures[] = {
	{ "plt-x86_64-gcc-lazy", fx_gcc_lazy, fx_gcc_lazy_end, 0x1020, 16,
	  { { 0x1030, "abs@plt" }, { 0x1040, "getpid@plt" }, { 0x1050, "strlen@plt" } }, 0x1060 },
	{ "plt-x86_64-clang-now", fx_clang_now, fx_clang_now_end, 0x1020, 16,
	  { { 0x1030, "abs@plt" }, { 0x1040, "getpid@plt" }, { 0x1050, "strlen@plt" } }, 0x1060 },
	/* IBT: the calls go to .plt.sec; .plt's lazy-binding halves name the same functions. */
	{ "plt-x86_64-gcc-ibt", fx_gcc_ibt, fx_gcc_ibt_end, 0x1020, 16,
	  { { 0x1030, "abs@plt" }, { 0x1040, "getpid@plt" }, { 0x1050, "strlen@plt" },
	    { 0x1070, "abs@plt" }, { 0x1080, "getpid@plt" }, { 0x1090, "strlen@plt" } }, 0x1060 },
	{ "plt-arm64-gcc", fx_arm64, fx_arm64_end, 0x620, 32,
	  { { 0x640, "strlen@plt" }, { 0x650, "__libc_start_main@plt" },
	    { 0x660, "__cxa_finalize@plt" }, { 0x670, "abs@plt" }, { 0x680, "getpid@plt" },
	    { 0x690, "__gmon_start__@plt" }, { 0x6a0, "abort@plt" } }, 0x6b0 },
	/* BTI and PAC: 24-byte entries; the last byte checked (+15) is inside each. */
	{ "plt-arm64-gcc-bti-pac", fx_arm64_pac, fx_arm64_pac_end, 0x6b0, 32,
	  { { 0x6d0, "strlen@plt" }, { 0x6e8, "__libc_start_main@plt" },
	    { 0x700, "__cxa_finalize@plt" }, { 0x718, "abs@plt" }, { 0x730, "getpid@plt" },
	    { 0x748, "__gmon_start__@plt" }, { 0x760, "abort@plt" } }, 0x778 },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static size_t nr_entries(const struct fixture *fx)
{
	size_t n = 0;

	while (n < NR(fx->e) && fx->e[n].name)
		n++;
	return n;
}

/* A heap copy of @fx's file, to break and parse. */
static uint8_t *copy_of(const struct fixture *fx, size_t *len)
{
	uint8_t *b;

	*len = (size_t)(fx->end - fx->b);
	b = malloc(*len);
	assert_non_null(b);
	memcpy(b, fx->b, *len);
	return b;
}

static const char *plt_name(const struct selfmon_elf *elf, uint64_t vaddr)
{
	long k = selfmon_elf__lookup_plt(elf, vaddr);

	return k < 0 ? NULL : elf->plt_names + elf->plt[k].name;
}

/* Every byte of each entry of @fx has its name; PLT0 and the stub after them, none. */
static void expect_names(const struct fixture *fx, const struct selfmon_elf *elf)
{
	size_t n = nr_entries(fx);

	assert_int_equal(n, elf->nr_plt);
	for (size_t i = 0; i < n; i++) {
		const char *at = plt_name(elf, fx->e[i].addr), *last = plt_name(elf, fx->e[i].addr + 15);

		if (!at || strcmp(at, fx->e[i].name) || !last || strcmp(last, fx->e[i].name))
			fail_msg("%s: %#llx is '%s' (its last byte '%s'), objdump says '%s'", fx->file,
				 (unsigned long long)fx->e[i].addr, at ? at : "(none)",
				 last ? last : "(none)", fx->e[i].name);
	}
	for (uint64_t a = fx->plt; a < fx->plt + fx->header; a++)
		assert_null(plt_name(elf, a));
	assert_null(plt_name(elf, fx->unnamed));
}

static void each_plt_entry_is_named_after_the_symbol_of_its_jump_slot_relocation(void **state)
{
	(void)state;
	for (size_t f = 0; f < NR(fixtures); f++) {
		struct selfmon_elf elf;
		size_t len;
		uint8_t *b = copy_of(&fixtures[f], &len);

		assert_int_equal(0, selfmon_elf__parse(b, len, fixtures[f].file, &elf));
		free(b);
		expect_names(&fixtures[f], &elf);
		/* The program's own functions are still read from its symbol table. */
		assert_true(elf.nr > 0);
		selfmon_elf__fini(&elf);
	}
}

/* The header of section @name in @b (a fixture's copy), to break. */
static Elf64_Shdr *section_named(uint8_t *b, const char *name)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
	Elf64_Shdr *sh = (Elf64_Shdr *)(b + eh->e_shoff);
	const char *names = (const char *)b + sh[eh->e_shstrndx].sh_offset;

	for (int i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, name))
			return &sh[i];
	fail_msg("no section '%s'", name);
	return NULL;
}

static Elf64_Rela *relocation(uint8_t *b, int i)
{
	return (Elf64_Rela *)(b + section_named(b, ".rela.plt")->sh_offset) + i;
}

/* Parse @b and expect @n PLT names; every name given must be the fixture's, at its address. */
static void expect_parsed(const struct fixture *fx, const uint8_t *b, size_t len, size_t n)
{
	struct selfmon_elf elf;

	assert_int_equal(0, selfmon_elf__parse(b, len, fx->file, &elf));
	assert_int_equal(n, elf.nr_plt);
	for (size_t i = 0; i < elf.nr_plt; i++) {
		size_t k = 0;

		while (k < nr_entries(fx) && fx->e[k].addr != elf.plt[i].addr)
			k++;
		assert_true(k < nr_entries(fx));
		assert_string_equal(fx->e[k].name, elf.plt_names + elf.plt[i].name);
	}
	assert_true(elf.nr > 0);
	selfmon_elf__fini(&elf);
}

static void broken_plt_tables_leave_entries_unnamed_and_the_symbols_read(void **state)
{
	const struct fixture *fx = &fixtures[0];
	size_t len;
	uint8_t *b = copy_of(fx, &len);

	(void)state;
	relocation(b, 1)->r_info = ELF64_R_INFO(0xffffff, R_X86_64_JUMP_SLOT);	/* past .dynsym */
	relocation(b, 2)->r_info = ELF64_R_INFO(5, R_X86_64_IRELATIVE);		/* not a slot */
	expect_parsed(fx, b, len, 1);
	memcpy(b, fx->b, len);
	section_named(b, ".dynstr")->sh_size = 1;			/* names past .dynstr */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	section_named(b, ".rela.plt")->sh_link = 0;			/* no .dynsym */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	section_named(b, ".rela.plt")->sh_entsize = 16;
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	section_named(b, ".plt")->sh_size = 0x28;			/* PLT0 and one entry */
	expect_parsed(fx, b, len, 1);
	memcpy(b, fx->b, len);
	section_named(b, ".plt")->sh_size = 8;				/* not even PLT0 */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	section_named(b, ".plt")->sh_addr = UINT64_MAX - 0x20;		/* its end wraps */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	section_named(b, ".plt")->sh_type = SHT_NOBITS;			/* a debug file's */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	((Elf64_Ehdr *)b)->e_shstrndx = 0xfff0;				/* no section names */
	expect_parsed(fx, b, len, 0);
	memcpy(b, fx->b, len);
	((Elf64_Ehdr *)b)->e_machine = EM_RISCV;			/* a PLT of another layout */
	expect_parsed(fx, b, len, 0);
	free(b);
}

static void a_fixture_cut_short_anywhere_is_read_in_bounds(void **state)
{
	(void)state;
	for (size_t f = 0; f < NR(fixtures); f++) {
		size_t len, full;
		uint8_t *whole = copy_of(&fixtures[f], &full);

		free(whole);
		for (len = 0; len < full; len += 7) {
			struct selfmon_elf elf;
			uint8_t *b = malloc(len ? len : 1);
			int err;

			assert_non_null(b);
			memcpy(b, fixtures[f].b, len);
			err = selfmon_elf__parse(b, len, fixtures[f].file, &elf);
			free(b);
			assert_true(err == 0 || err == -ENOEXEC || err == -EBADMSG);
			for (size_t i = 0; !err && i < elf.nr_plt; i++)
				assert_true(elf.plt[i].name < elf.plt_names_len);
			selfmon_elf__fini(&elf);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_plt_entry_is_named_after_the_symbol_of_its_jump_slot_relocation),
		cmocka_unit_test(broken_plt_tables_leave_entries_unnamed_and_the_symbols_read),
		cmocka_unit_test(a_fixture_cut_short_anywhere_is_read_in_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
