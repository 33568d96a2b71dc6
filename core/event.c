// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <selfmon/selfmon.h>
#include "closest.h"
#include "error.h"
#include "event.h"
#include "event_table.h"
#include "number.h"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} generic[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
};

const char *const selfmon_event__standard[] = {
	"cycles",	    "instructions",	"branches",	  "branch-misses",
	"cache-references", "cache-misses",	"ref-cycles",	  "task-clock",
	"page-faults",	    "context-switches", "cpu-migrations", NULL,
};

/*
 * ":u" counts user space only, ":k" the kernel only, ":h" the hypervisor: the
 * levels not named are excluded, as perf does. What each excludes on arm64
 * (EL0, EL1/EL2 with or without VHE) is in the kernel's arm64 perf document,
 * "Perf Event Attributes". H and G select host and guest the same way.
 */
static int apply_modifiers(const char *mods, struct selfmon_event *ev)
{
	bool u = false, k = false, h = false, H = false, G = false, any = false, virt = false;
	bool D = false, e = false;
	const char *m;

	for (m = mods; *m; m++) {
		if (strchr(m + 1, *m))
			return selfmon__err(-SELFMON_ERRNO__SYNTAX,
					    "event '%s': modifier '%c' given twice", ev->name, *m);
		switch (*m) {
		case 'u':
			u = any = true;
			break;
		case 'k':
			k = any = true;
			break;
		case 'h':
			h = any = true;
			break;
		case 'H':
			H = virt = true;
			break;
		case 'G':
			G = virt = true;
			break;
		case 'D':
			D = true;
			break;
		case 'e':
			e = true;
			break;
		default:
			return selfmon__err(
				-SELFMON_ERRNO__SYNTAX,
				"event '%s': unknown modifier '%c' (known: u k h H G D e)",
				ev->name, *m);
		}
	}
	ev->levels_given = any;
	if (any) {
		ev->attr.exclude_user = !u;
		ev->attr.exclude_kernel = !k;
		ev->attr.exclude_hv = !h;
	}
	if (virt) {
		ev->attr.exclude_host = !H;
		ev->attr.exclude_guest = !G;
	}
	/* perf's spelling: D pins the event (or group) on the PMU, e asks for it alone. */
	ev->attr.pinned = D;
	ev->attr.exclusive = e;
	return 0;
}

/* The event's own modifiers @own followed by a group's @extra, checked as one string. */
static int apply_all_modifiers(const char *own, const char *extra, struct selfmon_event *ev)
{
	size_t a = strlen(own), b = strlen(extra);
	char all[32];

	if (a + b >= sizeof(all))
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event '%s': too many modifiers",
				    ev->name);
	memcpy(all, own, a);
	memcpy(all + a, extra, b);
	all[a + b] = '\0';
	return apply_modifiers(all, ev);
}

/*
 * A term's value as perf's event lexer reads it (tools/perf/util/
 * parse-events.l, num_dec and num_hex): decimal digits, or "0x" and hex
 * digits. So "010" is ten and "08" eight; a sign, a blank, "0X" or a value
 * wider than 64 bits is not a number.
 */
static int parse_u64(const char *s, uint64_t *v)
{
	unsigned int base = 10;
	uint64_t n;
	int err;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	err = selfmon_number__parse(&s, base, UINT64_MAX, &n);
	if (!err && *s)
		err = -EINVAL;
	if (!err)
		*v = n;
	return err;
}

/*
 * The bits each of config, config1 and config2 got from the terms so far: a
 * term that sets bits an earlier one set (the same term twice, config= and a
 * format term over it, or an alias's term given again) is a typo perf would
 * silently OR; here it is a syntax error naming the term.
 */
struct terms_used {
	uint64_t bits[3];
};

static int claim(struct terms_used *used, struct selfmon_event *ev, int field, uint64_t mask,
		 const char *term, int depth)
{
	if (used->bits[field] & mask)
		return selfmon__err(
			-SELFMON_ERRNO__SYNTAX, "event '%s': term '%s' %s: give each term once",
			ev->name, term,
			depth ? "of the alias sets bits an earlier term set" :
				"given twice, or sets bits an earlier term (or alias) set");
	used->bits[field] |= mask;
	return 0;
}

/* Apply one "term[=value]" of a PMU event; a bare term means term=1 or an alias. */
static int apply_term(const struct selfmon_pmus *pmus, struct selfmon_event *ev, char *term,
		      struct terms_used *used, int depth);

/* "a,,b". By hand: musl's strstr(3) is 1.3 KB of the smallest image. */
static bool has_double_comma(const char *s)
{
	for (; (s = strchr(s, ',')); s++)
		if (s[1] == ',')
			return true;
	return false;
}

static int apply_terms(const struct selfmon_pmus *pmus, struct selfmon_event *ev, char *terms,
		       struct terms_used *used, int depth)
{
	char *save = NULL, *t;
	size_t len = strlen(terms);
	int err;

	/* strtok_r would skip an empty term silently; a stray comma is a typo. */
	if (!len || terms[0] == ',' || terms[len - 1] == ',' || has_double_comma(terms))
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "event '%s': empty term in '%s'",
				    ev->name, terms);

	for (t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		err = apply_term(pmus, ev, t, used, depth);
		if (err)
			return err;
	}
	return 0;
}

static int apply_term(const struct selfmon_pmus *pmus, struct selfmon_event *ev, char *term,
		      struct terms_used *used, int depth)
{
	const struct selfmon_pmu *pmu = ev->pmu;
	const struct selfmon_format *fmt;
	char *eq = strchr(term, '='), alias[256];
	uint64_t val = 1;
	int err;

	while (isspace((unsigned char)*term))
		term++;
	if (eq) {
		*eq = '\0';
		err = parse_u64(eq + 1, &val);
		if (err == -ERANGE)
			return selfmon__err(-ERANGE,
					    "event '%s': value of '%s' is wider than 64 bits: '%s'",
					    ev->name, term, eq + 1);
		if (err)
			return selfmon__err(-SELFMON_ERRNO__SYNTAX,
					    "event '%s': value of '%s' is not a number: "
					    "'%s' (decimal, or hex after 0x)",
					    ev->name, term, eq + 1);
	}
	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2")) {
		int field = term[6] == '1' ? 1 : term[6] == '2' ? 2 : 0;
		uint64_t *f = field == 1 ? (uint64_t *)&ev->attr.config1 :
			      field == 2 ? (uint64_t *)&ev->attr.config2 :
					   (uint64_t *)&ev->attr.config;

		/* config= sets the whole field: nothing may have set any of it before. */
		err = claim(used, ev, field, UINT64_MAX, term, depth);
		if (!err)
			*f |= val;
		return err;
	}
	fmt = selfmon_pmu__format(pmu, term);
	if (fmt) {
		err = claim(used, ev, fmt->field, selfmon_format__mask(fmt), term, depth);
		if (err)
			return err;
		err = selfmon_format__apply(fmt, val, &ev->attr);
		if (err)
			return selfmon__err(
				err, "event '%s': value 0x%llx does not fit term '%s' (%d bits)",
				ev->name, (unsigned long long)val, term, fmt->nr_bits);
		return 0;
	}
	/* Not a format term: an alias from events/, which holds terms itself. */
	if (!eq && depth == 0 && selfmon_pmu__alias(pmus, pmu, term, alias, sizeof(alias)) >= 0)
		return apply_terms(pmus, ev, alias, used, depth + 1);
	return selfmon__err(-SELFMON_ERRNO__NOEVENT,
			    "event '%s': PMU '%s' has no event or format term '%s' "
			    "(see /sys/bus/event_source/devices/%s/events and format)",
			    ev->name, pmu->name, term, pmu->name);
}

static int parse_pmu_event(const char *spec, const char *extra, const struct selfmon_pmus *pmus,
			   struct selfmon_event *ev)
{
	char buf[SELFMON_EVENT_NAME_MAX];
	const char *slash = strchr(spec, '/'), *close;
	size_t len = (size_t)(slash - spec);
	struct terms_used used = { { 0 } };
	const char *mods;
	int err;

	close = strrchr(spec, '/');
	if (close == slash)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX,
				    "event '%s': a PMU event is 'pmu/terms/' (closing '/' missing)",
				    spec);
	if (len >= sizeof(buf))
		return selfmon__err(-ENAMETOOLONG, "event '%s': PMU name too long", spec);
	memcpy(buf, spec, len);
	buf[len] = '\0';
	ev->pmu = selfmon_pmus__find(pmus, buf);
	if (!ev->pmu)
		return selfmon__err(-SELFMON_ERRNO__NOEVENT,
				    "event '%s': no PMU '%s' in /sys/bus/event_source/devices",
				    spec, buf);
	ev->attr.type = ev->pmu->type;
	ev->hardware = ev->pmu->core;
	ev->pmu_named = true;

	len = (size_t)(close - slash - 1);
	memcpy(buf, slash + 1, len);
	buf[len] = '\0';
	if (!len)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX,
				    "event '%s': no terms between the slashes", spec);
	err = apply_terms(pmus, ev, buf, &used, 0);
	if (err)
		return err;
	mods = close + 1;
	if (*mods == ':')
		mods++;
	return apply_all_modifiers(mods, extra, ev);
}

/*
 * @name, or with @pmu @ev's own name for @pmu's core, in the pmu-events
 * tables (event_table.h: none without them), its encoding applied.
 * Return: 0, -ENOENT (not a table name) or -errno.
 */
static int table_event(struct selfmon_event *ev, const char *name,
		       const struct selfmon_pmus *pmus, const struct selfmon_pmu *pmu)
{
	struct terms_used used = { { 0 } };
	char terms[256];
	int err = selfmon_event_table__find(ev, name, pmus, pmu, terms, sizeof(terms));

	return err ? err : apply_terms(pmus, ev, terms, &used, 1);
}

/* @name is none of selfmon's: refuse it, naming the closest generic and table names. */
static int unknown_event(const char *name, const struct selfmon_pmus *pmus)
{
	struct selfmon_closest near;
	char list[SELFMON_CLOSEST_MAX * (SELFMON_CLOSEST_NAME + 4)];

	selfmon_closest__init(&near, name);
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		selfmon_closest__offer(&near, generic[i].name);
	selfmon_event_table__offer(pmus, &near);
	selfmon_closest__format(&near, list, sizeof(list));
	return selfmon__err(-SELFMON_ERRNO__NOEVENT,
			    "unknown event '%s'%s%s: use a generic name (cycles, instructions, "
			    "task-clock, ...), " SELFMON_EVENT_TABLE_HINT "rNNNN, or pmu/alias/",
			    name, *list ? "; close: " : "", list);
}

int selfmon_event__parse(const char *spec, const struct selfmon_pmus *pmus,
			 struct selfmon_event *ev)
{
	return selfmon_event__parse_mods(spec, "", pmus, ev);
}

int selfmon_event__parse_mods(const char *spec, const char *extra, const struct selfmon_pmus *pmus,
			      struct selfmon_event *ev)
{
	char name[SELFMON_EVENT_NAME_MAX], *colon;
	size_t i;
	int err;

	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	if (strlen(spec) >= sizeof(ev->name))
		return selfmon__err(-ENAMETOOLONG, "event '%.40s...': longer than %d characters",
				    spec, SELFMON_EVENT_NAME_MAX - 1);
	if (!*spec)
		return selfmon__err(-SELFMON_ERRNO__SYNTAX, "empty event name");
	strcpy(ev->name, spec);

	if (strchr(spec, '/'))
		return parse_pmu_event(spec, extra, pmus, ev);

	strcpy(name, spec);
	colon = strchr(name, ':');
	if (colon)
		*colon++ = '\0';

	if (name[0] == 'r' && name[1] &&
	    strspn(name + 1, "0123456789abcdefABCDEF") == strlen(name + 1)) {
		const char *hex = name + 1;
		uint64_t config;

		if (selfmon_number__parse(&hex, 16, UINT64_MAX, &config))
			return selfmon__err(-ERANGE, "event '%s': raw config wider than 64 bits",
					    spec);
		ev->attr.type = PERF_TYPE_RAW;
		ev->attr.config = config;
		ev->pmu = selfmon_pmus__default_core(pmus);
		ev->hardware = true;
		return apply_all_modifiers(colon ? colon : "", extra, ev);
	}
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		if (strcmp(name, generic[i].name))
			continue;
		ev->attr.type = generic[i].type;
		ev->attr.config = generic[i].config;
		ev->hardware = generic[i].type == PERF_TYPE_HARDWARE;
		if (ev->hardware)
			ev->pmu = selfmon_pmus__default_core(pmus);
		return apply_all_modifiers(colon ? colon : "", extra, ev);
	}
	err = table_event(ev, name, pmus, NULL);
	if (!err)
		return apply_all_modifiers(colon ? colon : "", extra, ev);
	if (err != -ENOENT)
		return err;
	return unknown_event(name, pmus);
}

/*
 * The kernel's generic map for PMUv3 (arch/arm64/kernel/perf_event.c,
 * armv8_pmuv3_perf_map) by the sysfs names the same events have; Apple's PMU
 * names its two 'cycles' and 'instructions'.
 */
static const char *const hw_aliases[][2] = {
	[PERF_COUNT_HW_CPU_CYCLES] = { "cpu_cycles", "cycles" },
	[PERF_COUNT_HW_INSTRUCTIONS] = { "inst_retired", "instructions" },
	[PERF_COUNT_HW_CACHE_REFERENCES] = { "l1d_cache" },
	[PERF_COUNT_HW_CACHE_MISSES] = { "l1d_cache_refill" },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = { "pc_write_retired" },
	[PERF_COUNT_HW_BRANCH_MISSES] = { "br_mis_pred" },
	[PERF_COUNT_HW_BUS_CYCLES] = { "bus_cycles" },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = { "stall_frontend" },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = { "stall_backend" },
};

static bool x86_pmu(const struct selfmon_pmu *pmu)
{
	return !strncmp(pmu->name, "cpu", 3) && (!pmu->name[3] || pmu->name[3] == '_');
}

int selfmon_event__apply_alias(struct selfmon_event *ev, const struct selfmon_pmus *pmus,
			       const struct selfmon_pmu *pmu, const char *alias)
{
	struct terms_used used = { { 0 } };
	char terms[256];

	if (selfmon_pmu__alias(pmus, pmu, alias, terms, sizeof(terms)) < 0)
		return -ENOENT;
	ev->pmu = pmu;
	ev->attr.type = pmu->type;
	ev->attr.config = ev->attr.config1 = ev->attr.config2 = 0;
	return apply_terms(pmus, ev, terms, &used, 1);
}

int selfmon_event__for_pmu(struct selfmon_event *ev, const struct selfmon_pmus *pmus,
			   const struct selfmon_pmu *pmu)
{
	uint64_t hw = ev->attr.config;

	if (!ev->hardware)
		return 0;
	/* A table name: a big.LITTLE cluster looks it up in its own core's tables. */
	if (selfmon_event_table__named(ev) && ev->pmu != pmu)
		return table_event(ev, NULL, pmus, pmu);
	/* Not by type: x86's cpu_core has type 4, which is also PERF_TYPE_RAW. */
	if (ev->pmu_named && ev->pmu != pmu)
		return selfmon__err(-EINVAL,
				    "event '%s' belongs to PMU '%s', but the thread counts on "
				    "'%s' CPUs: name an event of '%s'",
				    ev->name, ev->pmu->name, pmu->name, pmu->name);
	if (ev->attr.type == pmu->type) {
		ev->pmu = pmu;
		return 0;
	}
	if (ev->attr.type != PERF_TYPE_HARDWARE && ev->attr.type != PERF_TYPE_RAW)
		return selfmon__err(-EINVAL,
				    "event '%s' belongs to PMU '%s', but the thread counts on "
				    "'%s' CPUs: name an event of '%s'",
				    ev->name, ev->pmu ? ev->pmu->name : "?", pmu->name, pmu->name);
	ev->pmu = pmu;
	if (x86_pmu(pmu)) {
		/* Hybrid x86 takes the PMU in config[63:32] (uapi PERF_PMU_TYPE_SHIFT). */
		if (ev->attr.type == PERF_TYPE_HARDWARE && strcmp(pmu->name, "cpu"))
			ev->attr.config |= (uint64_t)pmu->type << PERF_PMU_TYPE_SHIFT;
		else if (ev->attr.type == PERF_TYPE_RAW)
			ev->attr.type = pmu->type;
		return 0;
	}
	if (ev->attr.type == PERF_TYPE_RAW) {
		ev->attr.type = pmu->type; /* a raw event keeps its number */
		return 0;
	}
	for (int i = 0; hw < sizeof(hw_aliases) / sizeof(hw_aliases[0]) && i < 2; i++) {
		int err = hw_aliases[hw][i] ?
				  selfmon_event__apply_alias(ev, pmus, pmu, hw_aliases[hw][i]) :
				  -ENOENT;

		if (err != -ENOENT)
			return err;
	}
	return selfmon__err(-ENOENT,
			    "event '%s': PMU '%s' does not offer it (no matching alias in "
			    "/sys/bus/event_source/devices/%s/events)",
			    ev->name, pmu->name, pmu->name);
}
