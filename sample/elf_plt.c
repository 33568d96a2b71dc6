// SPDX-License-Identifier: MIT
/*
 * Names for the PLT entries of an image, NAME@plt, as perf synthesizes them:
 * no symbol table covers a PLT stub, yet a sample lands in one whenever a
 * hot loop calls a library function. Entry i of the PLT jumps through the
 * GOT slot of relocation i of .rela.plt (its R_*_JUMP_SLOT names the
 * function, in .dynsym), laid out by the psABI supplements:
 *
 * - x86-64 ("Procedure Linkage Table"): .plt is a 16-byte header entry
 *   (PLT0, which pushes the link map and jumps to the resolver), then one
 *   16-byte entry per relocation. With IBT (the CET extension of the same
 *   supplement, "-z ibtplt") calls go to .plt.sec, 16-byte entries and no
 *   header, entry i for relocation i; .plt keeps its lazy-binding halves,
 *   which name the same functions.
 * - AArch64 (the AArch64 ELF ABI, "Procedure Linkage Table", and GNU ld's
 *   layout): .plt is a 32-byte header, then one 16-byte entry per relocation;
 *   24-byte entries where ld signs return addresses in them (BTI and PAC,
 *   "-z pac-plt"), told apart by the section's size, which is then exactly
 *   the header and 24 bytes a relocation.
 *
 * The file is untrusted: every section, table entry and name is checked to
 * lie inside the buffer before it is read. A PLT whose tables do not add up
 * is left unnamed rather than named wrong; only a lack of memory is an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "../core/error.h"

#define PLT_ENTRY 16ull
#define PLT_ENTRY_PAC 24ull

/* What the relocation and symbol tables of one image give: checked, in bounds. */
struct plt_tables {
	const uint8_t *b;
	Elf64_Shdr rela, dynsym, dynstr;
	uint32_t jump_slot; /* R_X86_64_JUMP_SLOT or R_AARCH64_JUMP_SLOT */
	uint64_t header, entry; /* .plt's PLT0 and entry sizes (.plt.sec: 0, PLT_ENTRY) */
};

/* Section @i's header; the table of @shnum headers was checked to lie in the file. */
static Elf64_Shdr shdr(const uint8_t *b, const Elf64_Ehdr *eh, uint64_t i)
{
	Elf64_Shdr sh;

	memcpy(&sh, b + eh->e_shoff + i * sizeof(sh), sizeof(sh));
	return sh;
}

/* Section @i, if it exists, is of @type and its contents lie inside the file. */
static int section_is(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
		      uint64_t i, uint32_t type, Elf64_Shdr *sh)
{
	if (!i || i >= shnum)
		return 0;
	*sh = shdr(b, eh, i);
	return sh->sh_type == type && selfmon_elf__within(sh->sh_offset, sh->sh_size, len);
}

/* Whether the NUL-ended string at @off of string table @str lies inside it. */
static const char *str_at(const uint8_t *b, const Elf64_Shdr *str, uint64_t off)
{
	const char *s = (const char *)b + str->sh_offset + off;

	return off < str->sh_size && memchr(s, '\0', str->sh_size - off) ? s : NULL;
}

/* The name of section @sh, "" where the section name table does not hold it. */
static const char *section_name(const uint8_t *b, const Elf64_Shdr *shstr, const Elf64_Shdr *sh)
{
	const char *s = shstr ? str_at(b, shstr, sh->sh_name) : NULL;

	return s ? s : "";
}

/*
 * The section name table: e_shstrndx, or section 0's sh_link where it is
 * SHN_XINDEX (gABI, "Sections", extended numbering).
 */
static int find_shstrtab(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
			 Elf64_Shdr *shstr)
{
	uint64_t i = eh->e_shstrndx;

	if (i == SHN_XINDEX)
		i = shdr(b, eh, 0).sh_link;
	return section_is(b, len, eh, shnum, i, SHT_STRTAB, shstr);
}

/* .rela.plt, its .dynsym and their .dynstr, each of the right type and shape. */
static int find_tables(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
		       const Elf64_Shdr *shstr, struct plt_tables *t)
{
	uint64_t i;

	for (i = 1; i < shnum; i++) {
		t->rela = shdr(b, eh, i);
		if (!strcmp(section_name(b, shstr, &t->rela), ".rela.plt"))
			break;
	}
	return i < shnum && section_is(b, len, eh, shnum, i, SHT_RELA, &t->rela) &&
	       t->rela.sh_entsize == sizeof(Elf64_Rela) && !(t->rela.sh_size % sizeof(Elf64_Rela)) &&
	       section_is(b, len, eh, shnum, t->rela.sh_link, SHT_DYNSYM, &t->dynsym) &&
	       t->dynsym.sh_entsize == sizeof(Elf64_Sym) &&
	       section_is(b, len, eh, shnum, t->dynsym.sh_link, SHT_STRTAB, &t->dynstr);
}

/* The function relocation @i of .rela.plt jumps to, or NULL (another type, no name). */
static const char *slot_name(const struct plt_tables *t, uint64_t i)
{
	Elf64_Rela r;
	Elf64_Sym s;
	uint64_t k;

	memcpy(&r, t->b + t->rela.sh_offset + i * sizeof(r), sizeof(r));
	k = ELF64_R_SYM(r.r_info);
	if (ELF64_R_TYPE(r.r_info) != t->jump_slot || !k ||
	    k >= t->dynsym.sh_size / sizeof(Elf64_Sym))
		return NULL;
	memcpy(&s, t->b + t->dynsym.sh_offset + k * sizeof(s), sizeof(s));
	if (!s.st_name)
		return NULL;
	return str_at(t->b, &t->dynstr, s.st_name);
}

/* How many entries of @entry bytes after @header bytes @plt holds, of @nr relocations. */
static uint64_t entries(const Elf64_Shdr *plt, uint64_t header, uint64_t entry, uint64_t nr)
{
	uint64_t fit;

	if (plt->sh_size < header || plt->sh_addr > UINT64_MAX - plt->sh_size)
		return 0;
	fit = (plt->sh_size - header) / entry;
	return fit < nr ? fit : nr;
}

/* Append the entries of @plt (@n of them after @header bytes) to @elf->plt, naming each. */
static void add_entries(const struct plt_tables *t, const Elf64_Shdr *plt, uint64_t header,
			uint64_t entry, uint64_t n, struct selfmon_elf *elf)
{
	for (uint64_t i = 0; i < n; i++) {
		const char *name = slot_name(t, i);
		size_t l;

		if (!name || !*name)
			continue;
		l = strlen(name);
		memcpy(elf->plt_names + elf->plt_names_len, name, l);
		memcpy(elf->plt_names + elf->plt_names_len + l, "@plt", 5);
		elf->plt[elf->nr_plt++] = (struct selfmon_elf_sym){
			plt->sh_addr + header + i * entry, entry,
			(uint32_t)elf->plt_names_len, 0 };
		elf->plt_names_len += l + 5;
	}
}

/* The bytes the names of the first @n entries take, "@plt" and NUL included. */
static uint64_t names_size(const struct plt_tables *t, uint64_t n)
{
	uint64_t size = 0;

	for (uint64_t i = 0; i < n; i++) {
		const char *name = slot_name(t, i);

		size += name ? strlen(name) + 5 : 0;
	}
	return size;
}

static int by_addr(const void *a, const void *b)
{
	const struct selfmon_elf_sym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* .plt (after its @header) and, on x86-64, .plt.sec: one entry per relocation each. */
static int name_entries(const struct plt_tables *t, const Elf64_Shdr *plt,
			const Elf64_Shdr *sec, const char *what, struct selfmon_elf *elf)
{
	uint64_t nr = t->rela.sh_size / sizeof(Elf64_Rela);
	uint64_t n_plt = plt ? entries(plt, t->header, t->entry, nr) : 0;
	uint64_t n_sec = sec ? entries(sec, 0, PLT_ENTRY, nr) : 0;
	uint64_t n = n_plt > n_sec ? n_plt : n_sec, size = names_size(t, n), all = n_plt + n_sec;
	int err = 0;

	/* Names are found by 32-bit offsets: a larger set is no linker's, left unnamed. */
	if (!all || 2 * size >= UINT32_MAX)
		goto out;
	elf->plt = calloc(all, sizeof(*elf->plt));
	elf->plt_names = malloc(2 * size + 1);
	if (!elf->plt || !elf->plt_names) {
		err = selfmon__err(-ENOMEM, "ELF '%s': no memory for %llu PLT entries", what,
				   (unsigned long long)all);
		goto out;
	}
	if (plt)
		add_entries(t, plt, t->header, t->entry, n_plt, elf);
	if (sec)
		add_entries(t, sec, 0, PLT_ENTRY, n_sec, elf);
	qsort(elf->plt, elf->nr_plt, sizeof(*elf->plt), by_addr);
out:
	return err;
}

int selfmon_elf__read_plt(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
			  const char *what, struct selfmon_elf *elf)
{
	struct plt_tables t = { .b = b };
	Elf64_Shdr shstr, sh, plt = { 0 }, sec = { 0 };
	int have_plt = 0, have_sec = 0;

	t.entry = PLT_ENTRY;
	if (eh->e_machine == EM_X86_64) {
		t.header = PLT_ENTRY;
		t.jump_slot = R_X86_64_JUMP_SLOT;
	} else if (eh->e_machine == EM_AARCH64) {
		t.header = 2 * PLT_ENTRY;
		t.jump_slot = R_AARCH64_JUMP_SLOT;
	} else {
		return 0;
	}
	if (!find_shstrtab(b, len, eh, shnum, &shstr) ||
	    !find_tables(b, len, eh, shnum, &shstr, &t))
		return 0;
	for (uint64_t i = 1; i < shnum; i++) {
		const char *name;

		sh = shdr(b, eh, i);
		if (sh.sh_type != SHT_PROGBITS)
			continue;
		name = section_name(b, &shstr, &sh);
		if (!strcmp(name, ".plt") && !have_plt++)
			plt = sh;
		else if (!strcmp(name, ".plt.sec") && eh->e_machine == EM_X86_64 && !have_sec++)
			sec = sh;
	}
	if (eh->e_machine == EM_AARCH64 && have_plt &&
	    plt.sh_size == t.header + t.rela.sh_size / sizeof(Elf64_Rela) * PLT_ENTRY_PAC)
		t.entry = PLT_ENTRY_PAC;
	return name_entries(&t, have_plt ? &plt : NULL, have_sec ? &sec : NULL, what, elf);
}
