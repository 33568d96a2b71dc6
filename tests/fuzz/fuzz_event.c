// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: event lists, split (selfmon_list__split) and each event
 * parsed (selfmon_event__parse_mods) against a fixture board's PMUs, then
 * re-expressed for each of its core PMUs (selfmon_event__for_pmu). The first
 * input byte picks the board. Nothing may crash, leak or read out of bounds,
 * and every failure leaves a message.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "../../core/event.h"
#include "../../core/list.h"

static const char *const boards[] = { "skylake", "qemu-biglittle", "alderlake", "m1", "x86-nopmu" };
#define NR_BOARDS (sizeof(boards) / sizeof(boards[0]))
static struct selfmon_pmus pmus[NR_BOARDS];

/* The fixtures sit in the source tree; make runs the harness from its root. */
static void load_boards(void)
{
	const char *dir = getenv("SELFMON_FIXTURES");
	static char roots[NR_BOARDS][512];

	for (size_t i = 0; i < NR_BOARDS; i++) {
		snprintf(roots[i], sizeof(roots[i]), "%s/%s", dir ? dir : "tests/fixtures/sysfs", boards[i]);
		if (selfmon_pmus__load(&pmus[i], roots[i]) || !pmus[i].nr) {
			fprintf(stderr, "fuzz_event: no PMUs in %s: run from the source tree "
				"or set SELFMON_FIXTURES\n", roots[i]);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int loaded;
	static struct selfmon_spec specs[16];
	const struct selfmon_pmus *p;
	struct selfmon_event ev;
	char *list;
	int nr;

	if (!loaded++)
		load_boards();
	if (!size)
		return 0;
	p = &pmus[data[0] % NR_BOARDS];
	list = malloc(size);
	if (!list)
		return 0;
	memcpy(list, data + 1, size - 1);
	list[size - 1] = '\0';
	nr = selfmon_list__split(list, specs, 16);
	if (nr < 0 && !*selfmon_errmsg())
		abort();
	for (int i = 0; i < nr; i++) {
		if (selfmon_event__parse_mods(specs[i].name, specs[i].mods, p, &ev)) {
			if (!*selfmon_errmsg())
				abort();
			continue;
		}
		for (int k = 0; k < p->nr; k++) {
			struct selfmon_event copy = ev;

			if (p->pmu[k].core)
				selfmon_event__for_pmu(&copy, p, &p->pmu[k]);
		}
	}
	free(list);
	return 0;
}
