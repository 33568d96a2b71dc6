// SPDX-License-Identifier: MIT
/*
 * A small ELF symbol reader, selfmon's own rather than elfutils' libelf:
 * the sampler's summary must work on static musl boards, where one more
 * runtime library (libelf, and zlib/zstd/lzma with it) is a cross build to
 * carry and a size to pay for one table lookup. What it needs of the System
 * V gABI is small: the ELF header, the program headers (PT_LOAD, to turn a
 * mapping's file offset into an address) and one symbol table with its
 * string table. The file is untrusted (a mapped file may be anything, and
 * fuzz_elf feeds it garbage): every offset and count is checked against the
 * buffer, in 64-bit arithmetic that cannot wrap, before it is read.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf.h"
#include "../core/error.h"

#define bad(what, fmt, ...) selfmon__err(-EBADMSG, "ELF '%s': " fmt, (what), __VA_ARGS__)

/* A table of @nr entries of @entsize bytes at @off, inside @len: overflow-safe. */
static int table_within(uint64_t off, uint64_t nr, uint64_t entsize, size_t len)
{
	return entsize && nr <= (uint64_t)len / entsize &&
	       selfmon_elf__within(off, nr * entsize, len);
}

static int check_ident(const uint8_t *b, size_t len, const char *what)
{
	if (len < SELFMAG || memcmp(b, ELFMAG, SELFMAG))
		return selfmon__err(-ENOEXEC, "'%s' is not an ELF file (no \\x7fELF magic)", what);
	if (len < sizeof(Elf64_Ehdr))
		return bad(what, "the header is cut short: %zu bytes of %zu", len,
			   sizeof(Elf64_Ehdr));
	if (b[EI_CLASS] != ELFCLASS64 || b[EI_DATA] != ELFDATA2LSB ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return selfmon__err(-ENOTSUP,
				    "ELF '%s': class %u, data %u: only ELFCLASS64 "
				    "little-endian files are read, on little-endian machines",
				    what, b[EI_CLASS], b[EI_DATA]);
	return 0;
}

/*
 * The GNU build-id note (NT_GNU_BUILD_ID, name "GNU") of a PT_NOTE segment:
 * what names a stripped file's separate debug file. Notes are walked only
 * while each header, name and descriptor lies inside the segment.
 */
static void read_build_id(const uint8_t *b, const Elf64_Phdr *ph, struct selfmon_elf *elf)
{
	uint64_t off = 0;

	while (ph->p_filesz - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		uint64_t name, desc;

		memcpy(&nh, b + ph->p_offset + off, sizeof(nh));
		name = ((uint64_t)nh.n_namesz + 3) & ~3ull;
		desc = ((uint64_t)nh.n_descsz + 3) & ~3ull;
		if (name + desc > ph->p_filesz - off - sizeof(nh))
			return;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz &&
		    nh.n_descsz <= sizeof(elf->build_id) &&
		    !memcmp(b + ph->p_offset + off + sizeof(nh), "GNU", 4)) {
			memcpy(elf->build_id, b + ph->p_offset + off + sizeof(nh) + name,
			       nh.n_descsz);
			elf->build_id_len = nh.n_descsz;
			return;
		}
		off += sizeof(nh) + name + desc;
	}
}

static int read_loads(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, const char *what,
		      struct selfmon_elf *elf)
{
	if (!eh->e_phnum)
		return 0;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !table_within(eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr), len))
		return bad(what,
			   "program headers (e_phoff %llu, %u of %u bytes) lie outside its "
			   "%zu bytes",
			   (unsigned long long)eh->e_phoff, eh->e_phnum, eh->e_phentsize, len);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, b + eh->e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_NOTE && selfmon_elf__within(ph.p_offset, ph.p_filesz, len))
			read_build_id(b, &ph, elf);
		if (ph.p_type != PT_LOAD)
			continue;
		if (elf->nr_load == SELFMON_ELF_MAX_LOAD)
			return bad(what, "more than %d PT_LOAD segments", SELFMON_ELF_MAX_LOAD);
		elf->load[elf->nr_load].offset = ph.p_offset;
		elf->load[elf->nr_load].vaddr = ph.p_vaddr;
		elf->load[elf->nr_load].filesz = ph.p_filesz;
		elf->nr_load++;
	}
	return 0;
}

/* Section @i's header, checked to lie inside the file (its contents are checked by the caller). */
static int section(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum, uint64_t i,
		   Elf64_Shdr *sh, const char *what)
{
	if (i >= shnum)
		return bad(what, "section %llu does not exist (%llu sections)",
			   (unsigned long long)i, (unsigned long long)shnum);
	memcpy(sh, b + eh->e_shoff + i * sizeof(*sh), sizeof(*sh));
	if (sh->sh_type != SHT_NOBITS && !selfmon_elf__within(sh->sh_offset, sh->sh_size, len))
		return bad(what,
			   "section %llu (offset %llu, size %llu) runs past the file's %zu "
			   "bytes",
			   (unsigned long long)i, (unsigned long long)sh->sh_offset,
			   (unsigned long long)sh->sh_size, len);
	return 0;
}

/*
 * The section header table; e_shnum 0 with a table means the count is in
 * section 0's sh_size (gABI, "Sections", extended numbering).
 */
static int section_count(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, const char *what,
			 uint64_t *shnum)
{
	Elf64_Shdr sh0;

	*shnum = 0;
	if (!eh->e_shoff)
		return 0;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !table_within(eh->e_shoff, 1, sizeof(sh0), len))
		return bad(what,
			   "section headers (e_shoff %llu, %u bytes each) lie outside its %zu "
			   "bytes",
			   (unsigned long long)eh->e_shoff, eh->e_shentsize, len);
	memcpy(&sh0, b + eh->e_shoff, sizeof(sh0));
	*shnum = eh->e_shnum ? eh->e_shnum : sh0.sh_size;
	if (!table_within(eh->e_shoff, *shnum, sizeof(sh0), len))
		return bad(what, "%llu section headers at %llu run past its %zu bytes",
			   (unsigned long long)*shnum, (unsigned long long)eh->e_shoff, len);
	return 0;
}

/* .symtab if there is one, else .dynsym; sets *@found 0 when neither. */
static int find_symtab(const uint8_t *b, size_t len, const Elf64_Ehdr *eh, uint64_t shnum,
		       const char *what, Elf64_Shdr *sym, Elf64_Shdr *str, int *found)
{
	Elf64_Shdr sh;
	int err = 0;

	*found = 0;
	for (uint64_t i = 0; i < shnum && !err; i++) {
		err = section(b, len, eh, shnum, i, &sh, what);
		if (err || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    (*found == SHT_SYMTAB))
			continue;
		*sym = sh;
		*found = (int)sh.sh_type;
	}
	if (err || !*found)
		return err;
	if (sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_size % sizeof(Elf64_Sym))
		return bad(what,
			   "symbol table entries of %llu bytes, table of %llu: want %zu-byte "
			   "entries",
			   (unsigned long long)sym->sh_entsize, (unsigned long long)sym->sh_size,
			   sizeof(Elf64_Sym));
	err = section(b, len, eh, shnum, sym->sh_link, str, what);
	if (!err && (str->sh_type != SHT_STRTAB || !str->sh_size))
		err = bad(what, "the symbol table's sh_link %u is not a string table",
			  sym->sh_link);
	return err;
}

/*
 * Aliases at one address (memcpy and memmove's variants, a weak name and its
 * strong one) get one name, the one a reader knows: a global one before a
 * local one before a weak one, fewer leading underscores, then the longer.
 */
static uint32_t preference(const Elf64_Sym *s, const char *name)
{
	int bind = ELF64_ST_BIND(s->st_info);
	uint32_t under = (uint32_t)strspn(name, "_"), len = (uint32_t)strlen(name);

	return (uint32_t)(bind == STB_GLOBAL ? 2 :
			  bind == STB_WEAK   ? 0 :
					       1)
		       << 24 |
	       (255 - (under < 255 ? under : 255)) << 16 | (len < 0xffff ? len : 0xffff);
}

/* By address; at one address the larger, then the preferred, last: lookup walks down. */
static int by_addr(const void *a, const void *b)
{
	const struct selfmon_elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->pref != y->pref)
		return x->pref < y->pref ? -1 : 1;
	return (x->name > y->name) - (x->name < y->name);
}

/*
 * Where a symbol without a size ends: at the end of its section (an asm
 * label's code runs to the next symbol or the section's end, never into the
 * next section, such as .init's _init into .plt). 0: no section to bound it.
 */
static uint64_t sized(const uint8_t *b, const Elf64_Ehdr *eh, uint64_t shnum, const Elf64_Sym *s)
{
	Elf64_Shdr sh;

	if (s->st_size || s->st_shndx >= shnum || s->st_shndx >= SHN_LORESERVE)
		return s->st_size;
	memcpy(&sh, b + eh->e_shoff + (uint64_t)s->st_shndx * sizeof(sh), sizeof(sh));
	return s->st_value >= sh.sh_addr && s->st_value - sh.sh_addr < sh.sh_size ?
		       sh.sh_size - (s->st_value - sh.sh_addr) :
		       0;
}

static int read_syms(const uint8_t *b, const Elf64_Ehdr *eh, uint64_t shnum, const Elf64_Shdr *sym,
		     const Elf64_Shdr *str, const char *what, struct selfmon_elf *elf)
{
	uint64_t n = sym->sh_size / sizeof(Elf64_Sym);
	int err = -ENOMEM;

	elf->names_len = str->sh_size;
	elf->names = malloc(str->sh_size);
	elf->syms = calloc(n ? n : 1, sizeof(*elf->syms));
	if (!elf->names || !elf->syms) {
		err = selfmon__err(-ENOMEM, "ELF '%s': no memory for %llu symbols", what,
				   (unsigned long long)n);
		goto out;
	}
	memcpy(elf->names, b + str->sh_offset, str->sh_size);
	for (uint64_t i = 0; i < n; i++) {
		Elf64_Sym s;
		int type;

		memcpy(&s, b + sym->sh_offset + i * sizeof(s), sizeof(s));
		type = ELF64_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF ||
		    !s.st_name)
			continue;
		if (s.st_name >= str->sh_size ||
		    !memchr(elf->names + s.st_name, '\0', str->sh_size - s.st_name)) {
			err = bad(what,
				  "symbol %llu: its name at %u has no NUL inside the %llu-byte "
				  "string table",
				  (unsigned long long)i, s.st_name,
				  (unsigned long long)str->sh_size);
			goto out;
		}
		elf->syms[elf->nr++] =
			(struct selfmon_elf_sym){ s.st_value, sized(b, eh, shnum, &s), s.st_name,
						  preference(&s, elf->names + s.st_name) };
	}
	qsort(elf->syms, elf->nr, sizeof(*elf->syms), by_addr);
	err = 0;
out:
	return err;
}

int selfmon_elf__parse(const void *buf, size_t len, const char *what, struct selfmon_elf *elf)
{
	const uint8_t *b = buf;
	Elf64_Shdr sym = { 0 }, str = { 0 };
	Elf64_Ehdr eh;
	uint64_t shnum;
	int err, found = 0;

	if (!elf)
		return -EINVAL;
	memset(elf, 0, sizeof(*elf));
	if (!buf || !what)
		return selfmon__err(-EINVAL, "selfmon_elf__parse: a NULL argument");
	err = check_ident(b, len, what);
	if (err)
		goto out;
	memcpy(&eh, b, sizeof(eh));
	err = read_loads(b, len, &eh, what, elf);
	if (!err)
		err = section_count(b, len, &eh, what, &shnum);
	if (!err)
		err = find_symtab(b, len, &eh, shnum, what, &sym, &str, &found);
	if (!err && found)
		err = read_syms(b, &eh, shnum, &sym, &str, what, elf);
	if (!err)
		err = selfmon_elf__read_plt(b, len, &eh, shnum, what, elf);
	elf->symtab = found == SHT_SYMTAB;
out:
	if (err)
		selfmon_elf__fini(elf);
	return err;
}

void selfmon_elf__fini(struct selfmon_elf *elf)
{
	if (!elf)
		return;
	free(elf->syms);
	free(elf->names);
	free(elf->plt);
	free(elf->plt_names);
	memset(elf, 0, sizeof(*elf));
}

int selfmon_elf__vaddr(const struct selfmon_elf *elf, uint64_t off, uint64_t *vaddr)
{
	for (int i = 0; i < elf->nr_load; i++) {
		if (off >= elf->load[i].offset && off - elf->load[i].offset < elf->load[i].filesz) {
			*vaddr = off - elf->load[i].offset + elf->load[i].vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

/* How far below the closest symbol a covering one is looked for (nested or aliased). */
#define LOOKBACK 16

/* The entry of @v (@n, by address) that holds @vaddr, or -ENOENT. */
static long find(const struct selfmon_elf_sym *v, size_t n, uint64_t vaddr)
{
	size_t lo = 0, hi = n;

	/* The first symbol above @vaddr; the candidates are just below it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i > 0 && k < LOOKBACK; i--, k++) {
		if (vaddr - v[i - 1].addr < v[i - 1].size)
			return (long)(i - 1);
	}
	return -ENOENT;
}

long selfmon_elf__lookup(const struct selfmon_elf *elf, uint64_t vaddr)
{
	return find(elf->syms, elf->nr, vaddr);
}

long selfmon_elf__lookup_plt(const struct selfmon_elf *elf, uint64_t vaddr)
{
	return find(elf->plt, elf->nr_plt, vaddr);
}
