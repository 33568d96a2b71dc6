// SPDX-License-Identifier: MIT
/*
 * The ELF symbol reader (sample/elf.c) on hand-made images: one good image
 * (an ELF header, one PT_LOAD, a .symtab and its .strtab) and every way of
 * breaking it: cut short anywhere, the wrong class or byte order, tables and
 * sections that point past the end, a string table without its NUL, links
 * to sections that do not exist. Each gives its named error; none reads
 * past the buffer (each image is copied to a heap block of exactly its size,
 * so the ASan build sees any overrun).
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

#include <selfmon/selfmon.h>
#include "../../sample/elf.h"

#define VBASE	0x400000ull
#define STRTAB	"\0alpha\0beta\0gamma\0zero\0data\0__alpha\0"
#define STR_OFF	(sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr))
#define SYM_OFF	((STR_OFF + sizeof(STRTAB) + 7) & ~7ul)
#define NSYM	6
#define SH_OFF	(SYM_OFF + NSYM * sizeof(Elf64_Sym))
#define NOTE_OFF (SH_OFF + 4 * sizeof(Elf64_Shdr))
#define NOTE_LEN (sizeof(Elf64_Nhdr) + 4 + 20)
#define LEN	(NOTE_OFF + NOTE_LEN)

struct image {
	uint8_t b[LEN];
};

static Elf64_Ehdr *eh(struct image *im) { return (Elf64_Ehdr *)im->b; }
static Elf64_Shdr *sh(struct image *im, int i) { return (Elf64_Shdr *)(im->b + SH_OFF) + i; }

static Elf64_Sym func(uint32_t name, uint64_t addr, uint64_t size, int type, uint16_t shndx)
{
	return (Elf64_Sym){ .st_name = name, .st_info = ELF64_ST_INFO(STB_GLOBAL, type),
			    .st_shndx = shndx, .st_value = addr, .st_size = size };
}

/*
 * In .text [0x401000, 0x401300): alpha [0x401000, +0x10), beta [0x401010,
 * +0x20), zero at 0x401200 without a size; gamma undefined, data an object.
 */
static void good(struct image *im)
{
	Elf64_Phdr ph[2] = {
		{ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0, .p_vaddr = VBASE,
		  .p_filesz = 0x3000, .p_memsz = 0x3000 },
		{ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = NOTE_OFF, .p_filesz = NOTE_LEN },
	};
	Elf64_Nhdr nh = { .n_namesz = 4, .n_descsz = 20, .n_type = NT_GNU_BUILD_ID };
	Elf64_Sym syms[NSYM] = {
		{ 0 },
		func(1, VBASE + 0x1000, 0x10, STT_FUNC, 3),
		func(7, VBASE + 0x1010, 0x20, STT_FUNC, 3),
		func(12, 0, 0, STT_FUNC, SHN_UNDEF),
		func(18, VBASE + 0x1200, 0, STT_FUNC, 3),
		func(23, VBASE + 0x2000, 8, STT_OBJECT, 3),
	};

	memset(im, 0, sizeof(*im));
	memcpy(im->b, ELFMAG, SELFMAG);
	im->b[EI_CLASS] = ELFCLASS64;
	im->b[EI_DATA] = ELFDATA2LSB;
	im->b[EI_VERSION] = EV_CURRENT;
	eh(im)->e_type = ET_DYN;
	eh(im)->e_machine = EM_X86_64;
	eh(im)->e_ehsize = sizeof(Elf64_Ehdr);
	eh(im)->e_phoff = sizeof(Elf64_Ehdr);
	eh(im)->e_phentsize = sizeof(Elf64_Phdr);
	eh(im)->e_phnum = 2;
	eh(im)->e_shoff = SH_OFF;
	eh(im)->e_shentsize = sizeof(Elf64_Shdr);
	eh(im)->e_shnum = 4;
	memcpy(im->b + sizeof(Elf64_Ehdr), ph, sizeof(ph));
	memcpy(im->b + NOTE_OFF, &nh, sizeof(nh));
	memcpy(im->b + NOTE_OFF + sizeof(nh), "GNU", 4);
	for (int i = 0; i < 20; i++)
		im->b[NOTE_OFF + sizeof(nh) + 4 + i] = (uint8_t)(0xa0 + i);
	memcpy(im->b + STR_OFF, STRTAB, sizeof(STRTAB));
	memcpy(im->b + SYM_OFF, syms, sizeof(syms));
	*sh(im, 1) = (Elf64_Shdr){ .sh_type = SHT_SYMTAB, .sh_offset = SYM_OFF, .sh_size = sizeof(syms),
				   .sh_link = 2, .sh_entsize = sizeof(Elf64_Sym) };
	*sh(im, 2) = (Elf64_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = STR_OFF, .sh_size = sizeof(STRTAB) };
	*sh(im, 3) = (Elf64_Shdr){ .sh_type = SHT_NOBITS, .sh_addr = VBASE + 0x1000, .sh_size = 0x300 };
}

/* Parse the first @len bytes of @im from a heap block of exactly @len bytes. */
static int parse(const struct image *im, size_t len, struct selfmon_elf *elf)
{
	uint8_t *copy = malloc(len ? len : 1);
	int err;

	assert_non_null(copy);
	memcpy(copy, im->b, len);
	err = selfmon_elf__parse(copy, len, "test.elf", elf);
	free(copy);
	return err;
}

static const char *name_at(const struct selfmon_elf *elf, uint64_t vaddr)
{
	long k = selfmon_elf__lookup(elf, vaddr);

	return k < 0 ? NULL : elf->names + elf->syms[k].name;
}

static void defined_functions_are_read_and_objects_and_undefined_ones_left_out(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(3, elf.nr);
	assert_int_equal(1, elf.symtab);
	assert_string_equal("alpha", elf.names + elf.syms[0].name);
	assert_string_equal("beta", elf.names + elf.syms[1].name);
	assert_string_equal("zero", elf.names + elf.syms[2].name);
	selfmon_elf__fini(&elf);
}

static void an_address_resolves_to_the_function_whose_size_covers_it(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_string_equal("alpha", name_at(&elf, VBASE + 0x1000));
	assert_string_equal("alpha", name_at(&elf, VBASE + 0x100f));
	assert_string_equal("beta", name_at(&elf, VBASE + 0x1010));
	assert_string_equal("beta", name_at(&elf, VBASE + 0x102f));
	/* Past beta's end and below zero: no function holds it. */
	assert_null(name_at(&elf, VBASE + 0x1030));
	assert_null(name_at(&elf, VBASE + 0xfff));
	/* A symbol without a size (an asm label) runs to its section's end, not beyond. */
	assert_string_equal("zero", name_at(&elf, VBASE + 0x1250));
	assert_string_equal("zero", name_at(&elf, VBASE + 0x12ff));
	assert_null(name_at(&elf, VBASE + 0x1300));
	selfmon_elf__fini(&elf);
}

static void a_file_offset_becomes_an_address_through_its_pt_load(void **state)
{
	struct image im;
	struct selfmon_elf elf;
	uint64_t v = 0;

	(void)state;
	good(&im);
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(0, selfmon_elf__vaddr(&elf, 0x1008, &v));
	assert_int_equal(VBASE + 0x1008, v);
	assert_int_equal(-ENOENT, selfmon_elf__vaddr(&elf, 0x3000, &v));
	selfmon_elf__fini(&elf);
}

static void an_image_cut_short_is_an_error_and_a_cut_note_only_loses_the_build_id(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	for (size_t len = 0; len < NOTE_OFF; len++) {
		int err = parse(&im, len, &elf);

		assert_true(err == -ENOEXEC || err == -EBADMSG);
		assert_null(elf.syms);
		if (len >= SELFMAG && len < sizeof(Elf64_Ehdr))
			assert_non_null(strstr(selfmon_errmsg(), "header is cut short"));
	}
	/* Only the build-id note is cut: the symbols stand, the build id is not guessed. */
	for (size_t len = NOTE_OFF; len < LEN; len++) {
		assert_int_equal(0, parse(&im, len, &elf));
		assert_int_equal(3, elf.nr);
		assert_int_equal(0, elf.build_id_len);
		selfmon_elf__fini(&elf);
	}
}

static void the_build_id_note_is_read_and_one_that_overruns_its_segment_is_not(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(20, elf.build_id_len);
	for (int i = 0; i < 20; i++)
		assert_int_equal(0xa0 + i, elf.build_id[i]);
	selfmon_elf__fini(&elf);
	((Elf64_Nhdr *)(im.b + NOTE_OFF))->n_descsz = 200;
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(0, elf.build_id_len);
	selfmon_elf__fini(&elf);
	good(&im);
	((Elf64_Nhdr *)(im.b + NOTE_OFF))->n_namesz = 0xfffffffe;	/* rounds past 2^32 */
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(0, elf.build_id_len);
	selfmon_elf__fini(&elf);
}

static void not_elf_another_class_or_byte_order_are_named(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	im.b[1] = 'X';
	assert_int_equal(-ENOEXEC, parse(&im, LEN, &elf));
	assert_non_null(strstr(selfmon_errmsg(), "'test.elf' is not an ELF file"));
	good(&im);
	im.b[EI_CLASS] = ELFCLASS32;
	assert_int_equal(-ENOTSUP, parse(&im, LEN, &elf));
	assert_non_null(strstr(selfmon_errmsg(), "only ELFCLASS64 little-endian"));
	good(&im);
	im.b[EI_DATA] = ELFDATA2MSB;
	assert_int_equal(-ENOTSUP, parse(&im, LEN, &elf));
}

/* Break @im with @fn; the parse must fail with -EBADMSG and a message holding @says. */
static void expect_bad(void (*fn)(struct image *), const char *says)
{
	struct image im;
	struct selfmon_elf elf;

	good(&im);
	fn(&im);
	assert_int_equal(-EBADMSG, parse(&im, LEN, &elf));
	if (!strstr(selfmon_errmsg(), says))
		fail_msg("'%s' does not say '%s'", selfmon_errmsg(), says);
	assert_null(elf.syms);
}

static void shoff_past_end(struct image *im) { eh(im)->e_shoff = LEN - 8; }
static void shoff_huge(struct image *im) { eh(im)->e_shoff = ~0ull - 8; }
static void shnum_extended_huge(struct image *im) { eh(im)->e_shnum = 0; sh(im, 0)->sh_size = ~0ull; }
static void phnum_past_end(struct image *im) { eh(im)->e_phnum = 0xffff; }
static void phentsize_odd(struct image *im) { eh(im)->e_phentsize = 8; }
static void symtab_past_end(struct image *im) { sh(im, 1)->sh_offset = LEN - 8; }
static void symtab_size_wraps(struct image *im) { sh(im, 1)->sh_size = ~0ull - SYM_OFF + 24; }
static void strtab_past_end(struct image *im) { sh(im, 2)->sh_size = LEN; }
static void strtab_no_nul(struct image *im) { sh(im, 2)->sh_size = 22; /* "zero" without its NUL */ }
static void name_past_strtab(struct image *im) { ((Elf64_Sym *)(im->b + SYM_OFF))[1].st_name = 4000; }
static void link_missing(struct image *im) { sh(im, 1)->sh_link = 7; }
static void link_not_strtab(struct image *im) { sh(im, 1)->sh_link = 1; }
static void entsize_wrong(struct image *im) { sh(im, 1)->sh_entsize = 16; }
static void symtab_ragged(struct image *im) { sh(im, 1)->sh_size -= 4; }

static void tables_and_names_out_of_bounds_are_named_errors(void **state)
{
	(void)state;
	expect_bad(shoff_past_end, "section headers");
	expect_bad(shoff_huge, "section headers");
	expect_bad(shnum_extended_huge, "section headers at");
	expect_bad(phnum_past_end, "program headers");
	expect_bad(phentsize_odd, "program headers");
	expect_bad(symtab_past_end, "section 1 (offset");
	expect_bad(symtab_size_wraps, "section 1 (offset");
	expect_bad(strtab_past_end, "section 2 (offset");
	expect_bad(strtab_no_nul, "has no NUL inside the");
	expect_bad(name_past_strtab, "symbol 1: its name at 4000");
	expect_bad(link_missing, "section 7 does not exist");
	expect_bad(link_not_strtab, "is not a string table");
	expect_bad(entsize_wrong, "want 24-byte entries");
	expect_bad(symtab_ragged, "want 24-byte entries");
}

/* Turn the object 'data' into an alias of alpha: @name, @bind. */
static void alias(struct image *im, uint32_t name, int bind)
{
	Elf64_Sym *s = (Elf64_Sym *)(im->b + SYM_OFF) + 5;

	*s = func(name, VBASE + 0x1000, 0x10, STT_FUNC, 3);
	s->st_info = ELF64_ST_INFO(bind, STT_FUNC);
}

static void aliases_get_the_global_name_with_fewer_underscores_then_the_longer(void **state)
{
	static const struct { uint32_t name; int bind; const char *named; } cases[] = {
		{ 28, STB_GLOBAL, "alpha" },	/* __alpha: more underscores */
		{ 28, STB_LOCAL, "alpha" },
		{ 23, STB_WEAK, "alpha" },	/* data: weak */
		{ 23, STB_GLOBAL, "alpha" },	/* data: shorter */
		{ 12, STB_GLOBAL, "gamma" },	/* gamma: as long, a later name */
	};
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		good(&im);
		alias(&im, cases[i].name, cases[i].bind);
		assert_int_equal(0, parse(&im, LEN, &elf));
		assert_string_equal(cases[i].named, name_at(&elf, VBASE + 0x1004));
		selfmon_elf__fini(&elf);
	}
}

static void a_symbol_without_a_size_or_a_section_holds_no_address(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	((Elf64_Sym *)(im.b + SYM_OFF))[4].st_shndx = SHN_ABS;
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_null(name_at(&elf, VBASE + 0x1200));
	assert_null(name_at(&elf, VBASE + 0x1250));
	selfmon_elf__fini(&elf);
}

static void an_image_without_a_symbol_table_has_no_functions(void **state)
{
	struct image im;
	struct selfmon_elf elf;

	(void)state;
	good(&im);
	sh(&im, 1)->sh_type = SHT_PROGBITS;
	assert_int_equal(0, parse(&im, LEN, &elf));
	assert_int_equal(0, elf.nr);
	assert_int_equal(-ENOENT, selfmon_elf__lookup(&elf, VBASE + 0x1000));
	selfmon_elf__fini(&elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defined_functions_are_read_and_objects_and_undefined_ones_left_out),
		cmocka_unit_test(an_address_resolves_to_the_function_whose_size_covers_it),
		cmocka_unit_test(a_file_offset_becomes_an_address_through_its_pt_load),
		cmocka_unit_test(an_image_cut_short_is_an_error_and_a_cut_note_only_loses_the_build_id),
		cmocka_unit_test(not_elf_another_class_or_byte_order_are_named),
		cmocka_unit_test(the_build_id_note_is_read_and_one_that_overruns_its_segment_is_not),
		cmocka_unit_test(tables_and_names_out_of_bounds_are_named_errors),
		cmocka_unit_test(aliases_get_the_global_name_with_fewer_underscores_then_the_longer),
		cmocka_unit_test(a_symbol_without_a_size_or_a_section_holds_no_address),
		cmocka_unit_test(an_image_without_a_symbol_table_has_no_functions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
