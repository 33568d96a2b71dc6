// SPDX-License-Identifier: MIT
/* The names closest to one not found (closest.h), for the errors that name them. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "closest.h"
#include "fmt.h"

#define FAR 1000

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;

	return m < c ? m : c;
}

/*
 * The optimal string alignment distance (Damerau-Levenshtein where no
 * substring is edited twice): one row per character of @a, three kept.
 */
int selfmon_closest__distance(const char *a, const char *b)
{
	int rows[3][SELFMON_CLOSEST_NAME + 1], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	size_t la = strlen(a), lb = strlen(b);

	if (la >= SELFMON_CLOSEST_NAME || lb >= SELFMON_CLOSEST_NAME)
		return FAR;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *t;

		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb));
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* How far a name may be from @want and still be offered: more for a longer name, 1 to 3. */
static int limit(const char *want)
{
	size_t n = strlen(want);

	return n <= 5 ? 1 : n <= 8 ? 2 : 3;
}

void selfmon_closest__init(struct selfmon_closest *c, const char *want)
{
	memset(c, 0, sizeof(*c));
	selfmon_fmt__print(c->want, sizeof(c->want), "%s", want);
}

void selfmon_closest__offer(struct selfmon_closest *c, const char *name)
{
	int d = selfmon_closest__distance(c->want, name), at;

	/* A name holding the wanted one whole ranks after every near one. */
	if (d > limit(c->want))
		d = strlen(c->want) >= 3 && strlen(name) < sizeof(c->name[0]) &&
				    strcasestr(name, c->want) ?
			    limit(c->want) + 1 :
			    FAR;
	if (d == FAR || !strcasecmp(name, c->want))
		return;
	for (int i = 0; i < c->nr; i++)
		if (!strcasecmp(c->name[i], name))
			return;
	for (at = c->nr; at > 0 && c->dist[at - 1] > d; at--)
		;
	if (at == SELFMON_CLOSEST_MAX)
		return;
	if (c->nr < SELFMON_CLOSEST_MAX)
		c->nr++;
	memmove(&c->dist[at + 1], &c->dist[at], sizeof(c->dist[0]) * (size_t)(c->nr - 1 - at));
	memmove(c->name[at + 1], c->name[at], sizeof(c->name[0]) * (size_t)(c->nr - 1 - at));
	c->dist[at] = d;
	selfmon_fmt__print(c->name[at], sizeof(c->name[at]), "%s", name);
}

int selfmon_closest__format(const struct selfmon_closest *c, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < c->nr && len < size; i++) {
		int n = selfmon_fmt__print(buf + len, size - len, "%s'%s'", i ? ", " : "", c->name[i]);

		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
	return c->nr;
}
