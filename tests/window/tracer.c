// SPDX-License-Identifier: MIT
/*
 * Single-steps the marker pairs of an x86_64 program (tests/window/shapes.c)
 * and prints, for each pair, the instructions its call site runs between
 * the library's two calls: from the instruction the begin's call returns
 * to, up to and including the end's call. The library's own part of the
 * window (what its begin runs after its counter read, and its end before
 * its read) is one function's, the same at every site; so a site's share
 * is what makes regions exact or not, and the library's own empty pairs
 * (mk_empty_cached, mk_empty_named and mk_empty_scope, run when a thread
 * opens its counters) are in the output to compare with.
 *
 * A breakpoint (int3) at each begin function's entry gives the return
 * address; a breakpoint there, when reached, starts the count: one
 * PTRACE_SINGLESTEP an instruction until an end function is entered at the
 * same depth (a begin entered on the way is a nested pair, stepped through
 * and counted). The symbols' addresses are nm's, moved by where the
 * program (a PIE) and, with --so, the library are mapped: the library's at
 * the program's main(), once the dynamic linker has loaded it.
 * Usage: tracer [--so LIBRARY-NM-N-OUTPUT LIBRARY-FILE-NAME] NM-N-OUTPUT PROGRAM
 * Output: one line a pair: FUNCTION FORM INSTRUCTIONS (FORM: cached, named,
 * buffer or scope).
 *
 * With --calls, each call of each FUNCTION instead, from its entry to its
 * return (what a pair costs with markers off, beside a function without):
 * Usage: tracer --calls FUNCTION[,FUNCTION...] [--so ...] NM-N-OUTPUT PROGRAM
 * Output: one line a call: FUNCTION INSTRUCTIONS.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SYMS 65536
#define MAX_ARMED 64

struct sym {
	unsigned long addr;
	int lib; /* 1: the library's (--so), 0: the program's */
	char name[96];
};

static struct sym syms[MAX_SYMS];
static int nr_syms;
/* The begin functions (breakpoints) and end functions: cached, then by name. */
/*
 * The pairs' forms: cached, a string literal by name, a name in a buffer
 * (or any pointer), and the scope form, whose begin is the cached one's
 * and whose end the library's scope end (no begin of its own: 0).
 */
enum { NR_FORMS = 4 };
static const char *const form_name[NR_FORMS] = { "cached", "named", "buffer", "scope" };
static unsigned long begin_fn[NR_FORMS], end_fn[NR_FORMS];
static unsigned char begin_orig[NR_FORMS];
/* Return addresses armed with a breakpoint, and their original words. */
static unsigned long armed[MAX_ARMED];
static unsigned char armed_orig[MAX_ARMED];
static int nr_armed;
static pid_t child;

static void die(const char *what)
{
	fprintf(stderr, "tracer: %s: %s\n", what, strerror(errno));
	if (child > 0)
		kill(child, SIGKILL);
	exit(2);
}

static int load_syms(const char *path, int lib)
{
	FILE *f = fopen(path, "r");
	char line[256], type, name[96];
	unsigned long a;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && nr_syms < MAX_SYMS) {
		if (sscanf(line, "%lx %c %95[^\n]", &a, &type, name) != 3 || !strchr("tTwW", type))
			continue;
		/* A C++ name as nm -C gives it: the name alone, without its parameters. */
		name[strcspn(name, "(")] = '\0';
		syms[nr_syms].addr = a;
		syms[nr_syms].lib = lib;
		snprintf(syms[nr_syms].name, sizeof(syms[nr_syms].name), "%s", name);
		nr_syms++;
	}
	fclose(f);
	return 0;
}

static unsigned long addr_of(const char *name)
{
	for (int i = 0; i < nr_syms; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	fprintf(stderr, "tracer: no symbol '%s' in the program\n", name);
	exit(2);
}

/* The function holding @pc: the last symbol at or below it (nm -n sorts them). */
static const char *fn_of(unsigned long pc)
{
	const char *best = "?";

	for (int i = 0; i < nr_syms && syms[i].addr <= pc; i++)
		best = syms[i].name;
	return best;
}

static long peek(unsigned long a)
{
	long w;

	errno = 0;
	w = ptrace(PTRACE_PEEKTEXT, child, (void *)a, NULL);
	if (errno)
		die("PTRACE_PEEKTEXT");
	return w;
}

static void poke(unsigned long a, long w)
{
	if (ptrace(PTRACE_POKETEXT, child, (void *)a, (void *)w))
		die("PTRACE_POKETEXT");
}

/*
 * The byte at @a set to @byte, the rest of its word as it is now: two
 * breakpoints may lie within one word, and putting one back must not undo
 * the other. Return: the byte it held.
 */
static unsigned char set_byte(unsigned long a, unsigned char byte)
{
	long w = peek(a);

	poke(a, (w & ~0xffL) | byte);
	return (unsigned char)(w & 0xff);
}

#define INT3 0xcc

static void begins_armed(int on)
{
	for (int f = 0; f < NR_FORMS; f++)
		if (begin_fn[f])
			set_byte(begin_fn[f], on ? INT3 : begin_orig[f]);
}

static void get_regs(struct user_regs_struct *r)
{
	if (ptrace(PTRACE_GETREGS, child, NULL, r))
		die("PTRACE_GETREGS");
}

static void set_pc(unsigned long pc)
{
	struct user_regs_struct r;

	get_regs(&r);
	r.rip = pc;
	if (ptrace(PTRACE_SETREGS, child, NULL, &r))
		die("PTRACE_SETREGS");
}

static void step(void)
{
	int st;

	if (ptrace(PTRACE_SINGLESTEP, child, NULL, NULL) || waitpid(child, &st, 0) != child)
		die("PTRACE_SINGLESTEP");
	if (!WIFSTOPPED(st)) {
		fprintf(stderr, "tracer: the program ended inside a window\n");
		exit(2);
	}
}

/* Count from the armed return address @pc to the entry of an end at depth 0. */
static void count_window(unsigned long pc)
{
	unsigned long n = 0;
	int depth = 0, form = -1;
	struct user_regs_struct r;

	begins_armed(0);
	for (;;) {
		get_regs(&r);
		for (int f = 0; f < NR_FORMS; f++) {
			if (begin_fn[f] && r.rip == begin_fn[f])
				depth++;
			if (r.rip == end_fn[f] && depth-- == 0)
				form = f;
		}
		if (form >= 0)
			break;
		step();
		n++;
	}
	begins_armed(1);
	printf("%s %s %lu\n", fn_of(pc), form_name[form], n);
}

static int armed_at(unsigned long pc)
{
	for (int i = 0; i < nr_armed; i++)
		if (armed[i] == pc)
			return i;
	return -1;
}

/* A begin's entry: arm its return address (the word at the top of the stack). */
static void on_begin(int f, const struct user_regs_struct *r)
{
	unsigned long ret = (unsigned long)peek(r->rsp);

	/* Over the entry's own instruction with its byte restored. */
	set_byte(begin_fn[f], begin_orig[f]);
	set_pc(begin_fn[f]);
	step();
	set_byte(begin_fn[f], INT3);
	if (armed_at(ret) >= 0)
		return;
	if (nr_armed == MAX_ARMED) {
		fprintf(stderr, "tracer: more than %d begins open at once\n", MAX_ARMED);
		exit(2);
	}
	armed[nr_armed] = ret;
	armed_orig[nr_armed] = set_byte(ret, INT3);
	nr_armed++;
}

static void on_return(int i)
{
	unsigned long pc = armed[i];

	set_byte(pc, armed_orig[i]);
	armed[i] = armed[--nr_armed];
	armed_orig[i] = armed_orig[nr_armed];
	set_pc(pc);
	count_window(pc);
}

static int trap(void)
{
	struct user_regs_struct r;
	unsigned long at;
	int i;

	get_regs(&r);
	at = r.rip - 1;
	for (int f = 0; f < NR_FORMS; f++) {
		if (begin_fn[f] && at == begin_fn[f]) {
			on_begin(f, &r);
			return 0;
		}
	}
	i = armed_at(at);
	if (i < 0)
		return -1;
	on_return(i);
	return 0;
}

/* --calls: the functions counted whole, and their original words. */
static unsigned long whole_fn[8];
static unsigned char whole_orig[8];
static int nr_whole;

/* Step one call of whole_fn[@f] (stopped at its breakpoint) to its return. */
static void count_call(int f)
{
	struct user_regs_struct r;
	unsigned long ret, sp, n = 0;

	get_regs(&r);
	sp = r.rsp;
	ret = (unsigned long)peek(sp);
	set_byte(whole_fn[f], whole_orig[f]);
	set_pc(whole_fn[f]);
	do {
		step();
		n++;
		get_regs(&r);
	} while (r.rip != ret || r.rsp <= sp);
	set_byte(whole_fn[f], INT3);
	printf("%s %lu\n", fn_of(whole_fn[f]), n);
}

static int trap_whole(void)
{
	struct user_regs_struct r;

	get_regs(&r);
	for (int f = 0; f < nr_whole; f++) {
		if (r.rip - 1 == whole_fn[f]) {
			count_call(f);
			return 0;
		}
	}
	return -1;
}

static void arm_whole(char *list)
{
	for (char *name = strtok(list, ","); name && nr_whole < 8; name = strtok(NULL, ",")) {
		whole_fn[nr_whole] = addr_of(name);
		whole_orig[nr_whole] = set_byte(whole_fn[nr_whole], INT3);
		nr_whole++;
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Move the symbols of @lib by @base, and sort them all by address again. */
static void relocate(int lib, unsigned long base)
{
	for (int i = 0; i < nr_syms; i++)
		if (syms[i].lib == lib)
			syms[i].addr += base;
	qsort(syms, (size_t)nr_syms, sizeof(syms[0]), by_addr);
}

/* The lowest address the child maps the file @path (or, with @suffix, any path ending so) at; 0: none. */
static unsigned long mapped_at(const char *path, int suffix)
{
	char maps[64], line[PATH_MAX + 128];
	unsigned long lo, best = 0;
	size_t n = strlen(path);
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)child);
	f = fopen(maps, "r");
	if (!f)
		die("/proc/PID/maps");
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		size_t len;

		line[strcspn(line, "\n")] = '\0';
		len = p ? strlen(p) : 0;
		if (!p || len < n || strcmp(p + (suffix ? len - n : 0), path))
			continue;
		if (sscanf(line, "%lx-", &lo) == 1 && (!best || lo < best))
			best = lo;
	}
	fclose(f);
	return best;
}

/* 1 when @prog is position independent (ET_DYN): its nm addresses are offsets from where it is mapped. */
static int is_pie(const char *prog)
{
	Elf64_Ehdr h;
	FILE *f = fopen(prog, "rb");
	int pie = f && fread(&h, sizeof(h), 1, f) == 1 && h.e_type == ET_DYN;

	if (f)
		fclose(f);
	return pie;
}

/* Run the child to @pc (a breakpoint there, taken away again), stopped with its pc at @pc. */
static void run_to(unsigned long pc)
{
	unsigned char orig = set_byte(pc, INT3);
	int st;

	if (ptrace(PTRACE_CONT, child, NULL, NULL))
		die("PTRACE_CONT");
	if (waitpid(child, &st, 0) != child || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
		die("the run to main()");
	set_byte(pc, orig);
	set_pc(pc);
}

/* Fork and exec @prog under ptrace, stopped at its exec. Return: 0, or 77 where ptrace is refused. */
static int start(const char *prog)
{
	int st;

	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(126);
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &st, 0) != child)
		die("waitpid");
	/* 77: a skip, for the script, where this machine refuses ptrace (a container's seccomp, Yama). */
	if (WIFEXITED(st) && WEXITSTATUS(st) == 126) {
		fprintf(stderr, "ptrace(PTRACE_TRACEME) is refused here: nothing to single-step\n");
		return 77;
	}
	if (!WIFSTOPPED(st))
		die("the program's exec");
	return 0;
}

/* Run the program to its end, each breakpoint handled by @on_trap. Return: its status, 0 or 1. */
static int run(int (*on_trap)(void))
{
	int st;

	for (;;) {
		if (ptrace(PTRACE_CONT, child, NULL, NULL))
			die("PTRACE_CONT");
		if (waitpid(child, &st, 0) != child)
			die("waitpid");
		if (WIFEXITED(st))
			return WEXITSTATUS(st) ? 1 : 0;
		if (WIFSIGNALED(st)) {
			fprintf(stderr, "tracer: the program died of signal %d\n", WTERMSIG(st));
			return 1;
		}
		if (WSTOPSIG(st) != SIGTRAP || on_trap()) {
			fprintf(stderr, "tracer: the program stopped by signal %d outside a breakpoint\n",
				WSTOPSIG(st));
			kill(child, SIGKILL);
			return 1;
		}
	}
}

int main(int argc, char **argv)
{
	const char *lib_nm = NULL, *lib_file = NULL;
	char prog[PATH_MAX];
	char *whole = NULL;
	int err;

	if (argc >= 5 && !strcmp(argv[1], "--calls")) {
		whole = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc >= 6 && !strcmp(argv[1], "--so")) {
		lib_nm = argv[2];
		lib_file = argv[3];
		argv += 3;
		argc -= 3;
	}
	if (argc != 3 || load_syms(argv[1], 0) || (lib_nm && load_syms(lib_nm, 1)) ||
	    !realpath(argv[2], prog)) {
		fprintf(stderr, "usage: tracer [--calls FUNCTION[,FUNCTION...]] [--so LIBRARY-NM "
				"LIBRARY-FILE-NAME] NM-N-OUTPUT PROGRAM\n");
		return 2;
	}
	err = start(prog);
	if (err)
		return err;
	if (is_pie(prog))
		relocate(0, mapped_at(prog, 0));
	if (lib_nm) {
		run_to(addr_of("main"));
		relocate(1, mapped_at(lib_file, 1));
	}
	begin_fn[0] = addr_of("selfmon_priv_marker_begin_call");
	end_fn[0] = addr_of("selfmon_priv_marker_end_call");
	begin_fn[1] = addr_of("selfmon_marker__begin_const");
	end_fn[1] = addr_of("selfmon_marker__end_const");
	begin_fn[2] = addr_of("selfmon_marker__begin");
	end_fn[2] = addr_of("selfmon_marker__end");
	end_fn[3] = addr_of("selfmon_priv_marker_scope_end_call");
	if (whole) {
		arm_whole(whole);
		return run(trap_whole);
	}
	for (int f = 0; f < NR_FORMS; f++)
		if (begin_fn[f])
			begin_orig[f] = set_byte(begin_fn[f], INT3);
	return run(trap);
}
