// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the ELF symbol reader (sample/elf.c) on any bytes, as a
 * mapped file may hold. The input is copied to a heap block of exactly its
 * size, so that ASan sees any read past it. A parse that succeeds must give
 * symbols and PLT entries whose names end inside their string tables, sorted
 * by address; a lookup of any address must land on one at or below it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sample/elf.h"

static void check(const struct selfmon_elf *elf, const uint8_t *data, size_t size)
{
	uint64_t probe = 0, v;

	for (size_t i = 0; i < elf->nr; i++) {
		const struct selfmon_elf_sym *s = &elf->syms[i];

		if (s->name >= elf->names_len || !memchr(elf->names + s->name, '\0', elf->names_len - s->name))
			abort();
		if (i && elf->syms[i - 1].addr > s->addr)
			abort();
	}
	for (size_t i = 0; i < elf->nr_plt; i++) {
		const struct selfmon_elf_sym *s = &elf->plt[i];

		if (s->name >= elf->plt_names_len ||
		    !memchr(elf->plt_names + s->name, '\0', elf->plt_names_len - s->name))
			abort();
		if (i && elf->plt[i - 1].addr > s->addr)
			abort();
	}
	memcpy(&probe, data, size < 8 ? size : 8);
	for (int k = 0; k < 4; k++, probe = probe * 6364136223846793005ull + 1442695040888963407ull) {
		long idx = selfmon_elf__lookup(elf, probe), plt = selfmon_elf__lookup_plt(elf, probe);

		if (plt >= (long)elf->nr_plt || (plt >= 0 && elf->plt[plt].addr > probe))
			abort();

		if (idx >= (long)elf->nr || (idx >= 0 && elf->syms[idx].addr > probe))
			abort();
		if (!selfmon_elf__vaddr(elf, probe, &v) && !elf->nr_load)
			abort();
	}
	if (elf->nr) {
		long idx = selfmon_elf__lookup(elf, elf->syms[0].addr);

		if (idx < 0 && elf->syms[0].size)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct selfmon_elf elf;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!selfmon_elf__parse(copy, size, "fuzz", &elf))
		check(&elf, data, size);
	selfmon_elf__fini(&elf);
	free(copy);
	return 0;
}
