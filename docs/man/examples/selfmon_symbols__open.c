// SPDX-License-Identifier: MIT
/* The function and file an address of this process belongs to. */
#include <stdint.h>
#include <stdio.h>
#include <selfmon/selfmon.h>
#include <selfmon/symbols.h>

int main(void)
{
	struct selfmon_symbols *sy = selfmon_symbols__open();
	struct selfmon_symbol sym;

	if (!sy) {
		fprintf(stderr, "%s\n", selfmon_errmsg());
		return 1;
	}
	if (selfmon_symbols__lookup(sy, (uint64_t)(uintptr_t)&main, &sym) == 0 && sym.name)
		printf("%s+%#llx in %s\n", sym.name, (unsigned long long)sym.offset,
		       sym.file ? sym.file : "?");
	selfmon_symbols__close(sy);
	return 0;
}
