/* SPDX-License-Identifier: MIT */
/*
 * The minimal selfmon program, whose static size `make size` reports and
 * `make check` holds to a budget (docs/building.md, "Size"): open one event, enable
 * it, read it twice inline through <selfmon/read.h>, print the difference.
 * It links the counting API only: no bench driver, no report writer, no CLI
 * (the link uses --gc-sections, and make check looks for their symbols).
 *
 *   min [N]   between the two reads, a loop of N + 1 rounds of exactly two
 *             instructions (arm64 subs/b.ne, x86_64 dec/jnz)
 *
 * Output: "instructions:u DELTA PATH", PATH "user" (rdpmc / mrs) or "read(2)"
 * with the reason. On the emulated board (-icount, one CPU) two runs differ
 * by exactly twice the difference of their N (tests/bundle/min_test).
 */
#include <stdio.h>
#include <limits.h>

#include <selfmon/selfmon.h>
#include <selfmon/read.h>

/* A fixed-count region: the same instructions in every build of this file. */
static inline void region(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
#elif defined(__x86_64__)
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
#else
	(void)n;
#endif
}

/*
 * Text by fputs(3), not printf(3): a static musl program that calls the
 * printf family links the C library's whole formatter, with its
 * floating-point conversions and the compiler's soft long double routines
 * (about 21 KB), and this program's size is what it is for. selfmon itself
 * calls none of it (docs/building.md, "Size").
 */
static void put_u64(uint64_t v, FILE *f)
{
	char d[24], *p = d + sizeof(d) - 1;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	fputs(p, f);
}

/*
 * N: decimal digits. strtoul(3), like printf(3), would bring the C
 * library's whole number scanner (about 2.5 KB) into this program.
 */
static int parse_rounds(const char *s, unsigned long *n)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (ULONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*n = v;
	return 0;
}

static void say_error(void)
{
	fputs("min: ", stderr);
	fputs(selfmon_errmsg(), stderr);
	fputc('\n', stderr);
}

/*
 * One count, inline. A page that refuses (-EAGAIN) gives way to read(2),
 * whose count is the same quantity; @why keeps the reason it gave.
 */
static inline int read_count(struct selfmon_set *set, const struct perf_event_mmap_page *pg,
			     uint64_t *value, const char **why)
{
	struct selfmon_count c;
	int err;

	if (pg && !selfmon_page__read_value(pg, value))
		return 0;
	err = selfmon_set__read_raw(set, 0, &c);
	*value = c.value;
	if (!err && !(c.flags & SELFMON_COUNT_USER))
		*why = selfmon_reason__str(c.reason);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long n = 0;
	const char *why = NULL;	/* set when a read took read(2) */
	uint64_t a = 0, b = 0;
	int rc = 1;

	if (argc > 1 && parse_rounds(argv[1], &n)) {
		fputs("min: N must be decimal digits, the rounds of the loop\n", stderr);
		return 2;
	}
	n++;
	struct selfmon_set *set = selfmon_set__open("instructions:u", NULL);
	if (!set) {
		say_error();
		return 1;
	}
	const struct perf_event_mmap_page *pg = selfmon_set__page(set, 0);
	if (selfmon_set__enable(set) || read_count(set, pg, &a, &why))
		goto out;
	region(n);
	if (read_count(set, pg, &b, &why))
		goto out;
	fputs("instructions:u ", stdout);
	put_u64(b - a, stdout);
	fputs(why ? " read(2): " : " user", stdout);
	fputs(why ? why : "", stdout);
	fputc('\n', stdout);
	rc = 0;
out:
	if (rc)
		say_error();
	selfmon_set__close(set);
	return rc;
}
