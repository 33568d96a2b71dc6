// SPDX-License-Identifier: MIT
/*
 * selfmon_metrics__split() of <selfmon/metric.h>: in every build, with the
 * pmu-events tables or without (the rest of the API: metric_api.c, or its
 * stubs in metric_none.c), a list tells its metrics from its events.
 */
#include <errno.h>
#include <stdio.h>

#include <selfmon/metric.h>
#include "error.h"
#include "fmt.h"

/* Appends @item to the comma-separated @out. */
static int append(char *out, size_t size, size_t *len, const char *item)
{
	int n = selfmon_fmt__print(out + *len, size - *len, "%s%s", *len ? "," : "", item);

	if (n < 0 || (size_t)n >= size - *len)
		return selfmon__err(-ENAMETOOLONG, "event list: no room for '%s'", item);
	*len += (size_t)n;
	return 0;
}

int selfmon_metrics__split(const char *list, char *events, size_t events_size, char *names,
			   size_t names_size)
{
	char item[SELFMON_EVENT_NAME_MAX];
	const char *cursor = list;
	size_t el = 0, nl = 0;
	int err;

	if (!events_size || !names_size)
		return -ENAMETOOLONG;
	events[0] = names[0] = '\0';
	while ((err = selfmon_events__next(&cursor, item, sizeof(item))) > 0) {
		err = item[0] == '@' ? append(names, names_size, &nl, item + 1) :
				       append(events, events_size, &el, item);
		if (err)
			return err;
	}
	return err;
}
