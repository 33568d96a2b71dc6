/* SPDX-License-Identifier: MIT */
/*
 * selfmon symbols: which function of this process an address (a sample's
 * IP) lies in. The executable mappings come from /proc/self/maps (proc(5)),
 * the names from each mapped file's ELF symbol table (.symtab, or .dynsym
 * where it was stripped). Files are read once, at open; ELFCLASS64
 * little-endian files are read, others are named in the lookup's error.
 */
#ifndef SELFMON_SYMBOLS_H
#define SELFMON_SYMBOLS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The process's executable mappings and their symbols. Opaque. */
struct selfmon_symbols;

/** What selfmon_symbols__lookup() found. The strings live as long as the object. */
struct selfmon_symbol {
	const char *name; /**< the function; NULL when none holds the address */
	uint64_t offset; /**< the address minus the function's start */
	const char *file; /**< the mapped file ("[vdso]"...); NULL outside every exec mapping */
	uint64_t file_addr; /**< the address as the file's symbols count it (st_value's terms) */
};

/**
 * selfmon_symbols__open() - read the calling process's executable mappings and symbols
 *
 * A file that cannot be read or parsed does not fail the open: its
 * addresses' lookups give the reason.
 * Return: the object, or NULL with errno set and selfmon_errmsg() saying why
 * (/proc/self/maps unreadable, no memory).
 */
struct selfmon_symbols *selfmon_symbols__open(void);

/**
 * selfmon_symbols__lookup() - the function that holds @addr
 * @sym: out: name, offset, file; cleared first
 * Return: 0 with @sym->name set; -ENOENT when no exec mapping, or no symbol
 * of its file, holds @addr (@sym->file says which file, if any); or the
 * error that reading that file gave (-ENOEXEC, -ENOTSUP, -EBADMSG, an
 * open(2) errno); -EINVAL for NULL arguments. Each error but -EINVAL leaves
 * a message naming the address and file in selfmon_errmsg().
 */
int selfmon_symbols__lookup(const struct selfmon_symbols *sy, uint64_t addr,
			    struct selfmon_symbol *sym);

/** selfmon_symbols__close() - free it all. NULL is fine. */
void selfmon_symbols__close(struct selfmon_symbols *sy);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_SYMBOLS_H */
