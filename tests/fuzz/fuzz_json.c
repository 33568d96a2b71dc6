// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the strict JSON reader (util/json.c) and
 * selfmon compare's report loader on top of it. Any bytes: no crash, no
 * read past the input (ASan), no leak. A document that parses is printed
 * back as JSON; that text must parse, and from there printing is a fixed
 * point (the first print may round a number to 9 digits, nothing after). The loader then takes the tree as a report
 * or refuses it with a message.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/report.h>
#include "../../util/json.c"
#include "../../util/text.h"
#include "../../tools/compare_load.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void print(FILE *f, const struct util_json *v)
{
	switch (v->type) {
	case UTIL_JSON_NULL: fputs("null", f); break;
	case UTIL_JSON_FALSE: fputs("false", f); break;
	case UTIL_JSON_TRUE: fputs("true", f); break;
	case UTIL_JSON_NUMBER: util_json_number(f, v->num); break;
	case UTIL_JSON_STRING: util_json_string(f, v->str); break;
	default:
		fputc(v->type == UTIL_JSON_ARRAY ? '[' : '{', f);
		for (int i = 0; i < v->nr; i++) {
			if (i)
				fputc(',', f);
			if (v->type == UTIL_JSON_OBJECT) {
				util_json_string(f, v->kid[i].key);
				fputc(':', f);
			}
			print(f, &v->kid[i]);
		}
		fputc(v->type == UTIL_JSON_ARRAY ? ']' : '}', f);
	}
}

static char *printed(const struct util_json *v, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f)
		abort();
	print(f, v);
	fclose(f);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct util_json v, again;
	struct cli_report r;
	char err[256], *one, *two;
	size_t n1, n2;

	/* An exact-size copy: a read past the input's end is a heap overflow ASan reports. */
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (util_json_parse(buf, size, &v, err, sizeof(err))) {
		if (strncmp(err, "line ", 5) && strcmp(err, "out of memory"))
			abort();
		free(buf);
		return 0;
	}
	one = printed(&v, &n1);
	if (util_json_parse(one, n1, &again, err, sizeof(err))) {
		fprintf(stderr, "printed text does not parse: %s\n%s\n", err, one);
		abort();
	}
	two = printed(&again, &n2);
	util_json_free(&again);
	free(one);
	if (util_json_parse(two, n2, &again, err, sizeof(err)))
		abort();
	one = printed(&again, &n1);
	if (n1 != n2 || memcmp(one, two, n1)) {
		fprintf(stderr, "printing is not a fixed point:\n%s\n%s\n", two, one);
		abort();
	}
	memset(&r, 0, sizeof(r));
	/* A benchmark loaded is measured, or counts what failed or was skipped; every value is finite. */
	if (!load_tree(&r, &v, err, sizeof(err)))
		for (int i = 0; i < r.nr_b; i++) {
			if (!r.b[i].nr_m && !r.b[i].nr_errors && !r.b[i].nr_skipped)
				abort();
			for (int k = 0; k < r.b[i].nr_m; k++)
				for (int j = 0; j < r.b[i].m[k].n; j++)
					if (!(r.b[i].m[k].v[j] >= -MAX_VALUE && r.b[i].m[k].v[j] <= MAX_VALUE))
						abort();
		}
	cli_report_free(&r);
	util_json_free(&again);
	util_json_free(&v);
	free(one);
	free(two);
	free(buf);
	return 0;
}
