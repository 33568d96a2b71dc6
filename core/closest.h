/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_CLOSEST_H
#define SELFMON_CORE_CLOSEST_H

#include <stddef.h>

/*
 * "Did you mean": the names closest to a name that was not found, by edit
 * distance (insertions, deletions, substitutions and swaps of two neighbours
 * each cost 1; case is ignored). Only names within a small distance of the
 * wanted one count (1 for names of up to 5 characters, 2 up to 8, else 3),
 * then names that contain it whole (e.g. "frontend" in "tma_frontend_bound"),
 * so that nothing close gives nothing. At most SELFMON_CLOSEST_MAX are kept,
 * nearest first, each once.
 */
#define SELFMON_CLOSEST_MAX 4
#define SELFMON_CLOSEST_NAME 96

struct selfmon_closest {
	char want[SELFMON_CLOSEST_NAME];
	int nr;
	int dist[SELFMON_CLOSEST_MAX];
	char name[SELFMON_CLOSEST_MAX][SELFMON_CLOSEST_NAME];
};

/* The edit distance of @a and @b (case-blind); a large number for names too long to compare. */
int selfmon_closest__distance(const char *a, const char *b);

/* Start looking for the names closest to @want. */
void selfmon_closest__init(struct selfmon_closest *c, const char *want);

/* Offer one candidate @name: kept when it is among the closest so far. */
void selfmon_closest__offer(struct selfmon_closest *c, const char *name);

/*
 * The names kept, quoted and comma-separated ("'ipc', 'cpi'"), into @buf.
 * Return: how many (0: nothing close; @buf is then "").
 */
int selfmon_closest__format(const struct selfmon_closest *c, char *buf, size_t size);

#endif
