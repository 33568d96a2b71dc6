// SPDX-License-Identifier: MIT
/*
 * Event lists as perf writes them: "a,b" lone events, "{a,b}:mods" groups,
 * and "pmu/term,term/" whose commas belong to the event.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "error.h"
#include "list.h"

static const char *skip_blanks(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/*
 * The end of the item that starts at @p: the first comma outside a PMU's
 * slashes and outside braces, or the end of the string.
 */
static int item_end(const char *list, const char *p, const char **end)
{
	int slashes = 0, depth = 0;

	for (; *p; p++) {
		if (*p == '/')
			slashes++;
		else if (slashes % 2)
			continue;
		else if (*p == '{' && depth++)
			return selfmon__err(-SELFMON_ERRNO__SYNTAX,
					    "event list '%s': groups do not nest", list);
		else if (*p == '}' && !depth--)
			return selfmon__err(-SELFMON_ERRNO__SYNTAX,
					    "event list '%s': '}' without '{'", list);
		else if (*p == ',' && !depth)
			break;
	}
	if (slashes % 2)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "unbalanced '/' in event list '%s'",
				    list);
	if (depth)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event list '%s': '{' without '}'",
				    list);
	*end = p;
	return 0;
}

/* Copy @p[0..len), blanks trimmed, into @out of @size. */
static int copy_trimmed(const char *list, const char *p, size_t len, char *out, size_t size)
{
	while (len && isspace((unsigned char)*p))
		p++, len--;
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (!len)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "empty event in list '%s'", list);
	if (len >= size)
		return selfmon__err(-ENAMETOOLONG, "event '%.*s' too long", (int)len, p);
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

int selfmon_events__next(const char **cursor, char *item, size_t size)
{
	const char *p, *end;
	int err;

	if (!cursor || !*cursor || !item)
		return selfmon__err(-EINVAL, "selfmon_events__next: NULL argument");
	p = *cursor;
	if (!*skip_blanks(p))
		return 0;
	err = item_end(p, p, &end);
	if (!err)
		err = copy_trimmed(p, p, (size_t)(end - p), item, size);
	if (err)
		return err;
	*cursor = *end ? end + 1 : end;
	/* "a," ends in an empty event: a typo, not the end of the list. */
	if (*end && !*skip_blanks(*cursor))
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event list ends in ','");
	return 1;
}

/* The modifiers after a group's '}': ":mods" or nothing. D and e go to the leader. */
static int group_mods(const char *list, const char *from, const char *to,
		      struct selfmon_spec *leader_out, char *mods)
{
	char buf[SELFMON_EVENT_NAME_MAX];
	const char *after = buf;
	size_t n = 0;

	/* Only what lies between the '}' and the next item counts. */
	if ((size_t)(to - from) >= sizeof(buf))
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event list '%s': too much after a '}'",
				    list);
	memcpy(buf, from, (size_t)(to - from));
	buf[to - from] = '\0';
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	n = 0;
	after = skip_blanks(after);
	if (!*after)
		return 0;
	if (*after != ':' || !after[1])
		return selfmon__err(-SELFMON_ERRNO__SYNTAX,
				    "event list '%s': after a group's '}' "
				    "only ':modifiers' may follow, found '%s'",
				    list, after);
	for (after++; *after; after++) {
		if (*after == 'D' || *after == 'e') {
			bool *flag = *after == 'D' ? &leader_out->pinned : &leader_out->exclusive;

			if (*flag)
				break;
			*flag = true;
			continue;
		}
		if (n + 1 >= SELFMON_GROUP_MODS_MAX)
			break;
		mods[n++] = *after;
	}
	mods[n] = '\0';
	if (*after)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX,
				    "event list '%s': group modifiers '%s' "
				    "repeat one or are too many",
				    list, after);
	return 0;
}

struct splitter {
	const char *list;
	struct selfmon_spec *out;
	int max, n, groups;
};

static int add(struct splitter *s, const char *p, size_t len, int group, struct selfmon_spec **e)
{
	int err;

	if (s->n == s->max)
		return selfmon__err(-E2BIG, "more than %d events in '%s' (CONFIG_MAX_EVENTS)",
				    s->max, s->list);
	*e = &s->out[s->n];
	memset(*e, 0, sizeof(**e));
	(*e)->group = group;
	err = copy_trimmed(s->list, p, len, (*e)->name, sizeof((*e)->name));
	if (!err)
		s->n++;
	return err;
}

/* "{a,b,...}:mods" at @p..@end: its members, the first the leader. */
static int split_group(struct splitter *s, const char *p, const char *end)
{
	const char *close = end, *q, *member_end;
	struct selfmon_spec *leader, *e, spec = { 0 };
	int first = s->n, group = s->groups++, err;

	while (*--close != '}')
		;
	err = group_mods(s->list, close + 1, end, &spec, spec.mods);
	if (err)
		return err;
	if (!*skip_blanks(p + 1) || skip_blanks(p + 1) == close)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event list '%s': empty group '{}'",
				    s->list);
	for (q = p + 1;; q = member_end + 1) {
		for (member_end = q; member_end < close && *member_end != ','; member_end++) {
			if (*member_end == '/')
				member_end = strchr(member_end + 1, '/');
			if (!member_end || member_end >= close)
				return selfmon__err(-SELFMON_ERRNO__SYNTAX,
						    "event list '%s': unbalanced "
						    "'/' in a group",
						    s->list);
		}
		err = add(s, q, (size_t)(member_end - q), group, &e);
		if (err)
			return err;
		memcpy(e->mods, spec.mods, sizeof(e->mods));
		if (member_end == close)
			break;
	}
	leader = &s->out[first];
	leader->leader = true;
	leader->pinned = spec.pinned;
	leader->exclusive = spec.exclusive;
	return 0;
}

int selfmon_list__split(const char *list, struct selfmon_spec *out, int max)
{
	struct splitter s = { .list = list, .out = out, .max = max };
	const char *p = list, *end;
	struct selfmon_spec *e;
	int err;

	for (;;) {
		err = item_end(list, p, &end);
		if (err)
			return err;
		if (*skip_blanks(p) == '{')
			err = split_group(&s, skip_blanks(p), end);
		else
			err = add(&s, p, (size_t)(end - p), -1, &e);
		if (err)
			return err;
		if (!*end)
			return s.n;
		p = end + 1;
	}
}
