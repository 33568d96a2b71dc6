/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_SAMPLE_ELF_H
#define SELFMON_SAMPLE_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The function symbols of one ELF image, read from a buffer that holds the
 * whole file: ELFCLASS64, little-endian (the System V gABI, "ELF Header",
 * "Sections", "Symbol Table", "Program Header"). Every offset, size and
 * count is checked against the buffer before it is used; the names are
 * copied, so the buffer may go once parsed.
 */
struct selfmon_elf_sym {
	uint64_t addr, size; /* st_value; st_size, or without one the rest of its section */
	uint32_t name; /* offset in selfmon_elf.names */
	uint32_t pref; /* among aliases at one address, the higher is named */
};

#define SELFMON_ELF_MAX_LOAD 16

struct selfmon_elf {
	struct selfmon_elf_sym *syms; /* FUNC / GNU_IFUNC defined, by address */
	size_t nr;
	char *names; /* the symbol table's string table, NUL-ended */
	size_t names_len;
	/* PT_LOAD segments: how a file offset becomes an address of the symbols. */
	struct {
		uint64_t offset, vaddr, filesz;
	} load[SELFMON_ELF_MAX_LOAD];
	int nr_load;
	int symtab; /* 1: .symtab; 0: .dynsym (stripped) or none */
	uint8_t build_id[64]; /* NT_GNU_BUILD_ID, to find a stripped file's debug file */
	uint32_t build_id_len; /* 0: none */
	/*
	 * PLT entries, one NAME@plt each (sample/elf_plt.c), by address. Kept
	 * apart from syms: a debug file's symbols replace those, and its
	 * .rela.plt and .plt are NOBITS, so these stay the mapped file's.
	 */
	struct selfmon_elf_sym *plt;
	size_t nr_plt;
	char *plt_names; /* "NAME@plt\0" strings */
	size_t plt_names_len;
};

/* Is [@off, @off + @size) inside a buffer of @len bytes? Overflow-safe. */
static inline int selfmon_elf__within(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

/*
 * Parse @len bytes at @buf (any alignment). @what names the image in
 * messages. Return: 0; -ENOEXEC (no ELF magic), -ENOTSUP (not ELFCLASS64
 * little-endian), -EBADMSG (a header, table or name out of bounds or
 * inconsistent; the message names the field), -ENOMEM. On error @elf holds
 * nothing to free.
 */
int selfmon_elf__parse(const void *buf, size_t len, const char *what, struct selfmon_elf *elf);

void selfmon_elf__fini(struct selfmon_elf *elf);

/* The address of file offset @off (a mapping's pgoff + distance). Return: 0 or -ENOENT. */
int selfmon_elf__vaddr(const struct selfmon_elf *elf, uint64_t off, uint64_t *vaddr);

/*
 * The function that holds @vaddr: the closest symbol at or below it whose
 * size covers it (a symbol without a size, an asm label, is taken to run to
 * the end of its section). Return: its index in @elf->syms, or -ENOENT.
 */
long selfmon_elf__lookup(const struct selfmon_elf *elf, uint64_t vaddr);

/* The PLT entry that holds @vaddr. Return: its index in @elf->plt, or -ENOENT. */
long selfmon_elf__lookup_plt(const struct selfmon_elf *elf, uint64_t vaddr);

/*
 * Name the PLT entries of the image at @b (@len bytes, its ELF header @eh
 * and @shnum section headers already checked to lie inside it) into
 * @elf->plt (sample/elf_plt.c). A PLT whose tables are missing, NOBITS (a
 * debug file) or do not add up is left unnamed. Return: 0 or -ENOMEM.
 */
int selfmon_elf__read_plt(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
			  const char *what, struct selfmon_elf *elf);

#endif
