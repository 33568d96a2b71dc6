/* SPDX-License-Identifier: MIT */
/*
 * NOT API. What the inline marker pair of <selfmon/marker.h> reads, writes
 * and calls, in a header only so that a pair costs no call. Include
 * <selfmon/marker.h>, never this file: every name here (selfmon_priv_*,
 * SELFMON_PRIV_*) may change, or go, with SELFMON_ABI_LAYOUT or with any
 * release, and a program that names one is on its own (docs/abi.md). The
 * exported entries below are exported only because the inline code that
 * the macros put in a program calls them.
 */
#ifndef SELFMON_PRIV_MARKER_H
#define SELFMON_PRIV_MARKER_H

#ifndef SELFMON_MARKER_H
#error "<selfmon/priv/marker.h> is not API: include <selfmon/marker.h>"
#endif

#include <stdint.h>
#include <selfmon/read.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What the inline path below reads and writes, in the header only so that a
 * pair costs no call: not an interface. A program neither reads nor writes
 * these structs, and their layout changes with the library (the inline code
 * is rebuilt with it). The library owns them: they are per thread, so the
 * inline path needs no lock.
 */

/*
 * A region in one thread: 512 bytes, so that a slot's address is one shift
 * of its index. Each figure is an array by event, so that the inline pair
 * loads and stores the two events' figures with one instruction each.
 */
struct selfmon_priv_marker_slot {
	long depth; /* open begins (the library adds a flag for a begin that could not read) */
	uint64_t calls[2]; /* pairs, by the form of their end: cached, by name */
	uint64_t fallbacks; /* ends that read by read(2) although pages exist */
	uint64_t enabled, running; /* summed over timed pairs (multiplexed counters) */
	uint64_t begin_enabled, begin_running;
	uint64_t begin[SELFMON_MARKER_EVENTS]; /* the open pair's begin reads */
	/* The raw differences: their sum, min and max per call. */
	uint64_t sum[SELFMON_MARKER_EVENTS], min[SELFMON_MARKER_EVENTS], max[SELFMON_MARKER_EVENTS];
	uint64_t reserved_[24];
};

/* A thread's markers as the inline path sees them. */
struct selfmon_priv_marker_thread {
	/* Slots the inline path may use: 0 sends every call to the library. The first word in every layout. */
	unsigned long nr_slots;
	struct selfmon_priv_marker_slot *slot;
	long nr; /* events, each read through its page */
	/* The events' pages; with one event, pg[1] is pg[0]; with none, pages that refuse. */
	const struct perf_event_mmap_page *pg[SELFMON_MARKER_EVENTS];
};

/*
 * The inline pair's name for the thread variable below, whose symbol is
 * that of SELFMON_ABI_LAYOUT (1): selfmon_priv_marker_self_1.
 */
#define selfmon_priv_marker_self selfmon_priv_marker_self_1
#if SELFMON_ABI_LAYOUT != 1
#error "SELFMON_ABI_LAYOUT changed: rename selfmon_priv_marker_self_1 after it (docs/abi.md)"
#endif

/**
 * selfmon_priv_marker_self_1 - this thread's markers, for the inline path only
 *
 * Never NULL: until the thread's first begin, and in a thread that reads
 * its counters the long way, it points to markers with no slots, which
 * send every call to the library. A thread variable, not a function: the
 * inline pair reads it with no call. No TLS model is given: the compiler's
 * default (dynamic in a shared object) is the one that works in a plugin
 * that dlopen() loads with libselfmon.so (docs/markers.md, "Shared objects
 * and plugins").
 */
extern __thread struct selfmon_priv_marker_thread *selfmon_priv_marker_self_1;

/**
 * selfmon_priv_marker_live - 0 once the process has its markers off, else
 * 1 (on, or not yet decided), for the by-name calls only
 *
 * Where the arch's by-name sequences test it before their calls
 * (SELFMON_ARCH_MARKER_NAMED: x86_64), a pair with markers off costs that
 * test at each end and no call. The library writes it; a program never does.
 */
extern unsigned char selfmon_priv_marker_live;

#if defined(SELFMON_ARCH_MARKER_NAMED) && !defined(__cplusplus)
/*
 * A string literal, as the fixed sequence needs it (a symbol's address): a
 * constant of type char[N]. NULL, a pointer and a buffer (a char array that
 * is no constant) take the call.
 */
#define SELFMON_PRIV_MARKER_LITERAL(name) \
	(__builtin_constant_p(name) &&  \
	 __builtin_types_compatible_p(__typeof__(name), char[sizeof(name)]))
#elif defined(SELFMON_ARCH_MARKER_NAMED) && (defined(__clang__) || __GNUC__ >= 10)
/*
 * The same test in C++, which has neither __builtin_types_compatible_p nor
 * __builtin_choose_expr: a string literal is an lvalue of type const
 * char[N] whose address is a constant. The macro that uses it makes it a
 * static constexpr bool, so that both compilers settle it while parsing
 * (clang leaves a __builtin_constant_p of a pointer to the optimizer
 * otherwise, and the asm's operand would not be a constant at -O0), and -O0
 * stores nothing. __is_same: g++ 10, clang.
 */
#define SELFMON_PRIV_MARKER_LITERAL(name) \
	(__is_same(decltype((name)), const char(&)[sizeof(name)]) && __builtin_constant_p(name))
#endif

/* What selfmon_priv_marker_prepare() gives the inline begin: two registers, nothing to keep across the call. */
struct selfmon_priv_marker_ready {
	struct selfmon_priv_marker_thread *t; /* NULL: nothing left to do */
	unsigned long id; /* the region's slot */
};

/**
 * selfmon_priv_marker_prepare() - the inline begin's way into the library, not
 * for programs: resolve a site, open this thread's counters, make room
 * for the region
 * @marker: the region or site
 * @layout: the caller's SELFMON_ABI_LAYOUT
 * Return: this thread's markers and the region's slot, for the inline
 * begin to read; a NULL thread when there is nothing left to do (markers
 * off, or a begin the library did itself: a thread that reads the long
 * way, a nested begin, a caller built against another layout).
 */
struct selfmon_priv_marker_ready selfmon_priv_marker_prepare(struct selfmon_marker *marker, int layout)
	__attribute__((cold));

/**
 * selfmon_priv_marker_finish() - the inline end's way into the library, not for
 * programs: every end the inline path does not finish itself
 * @marker: the region or site
 * @v0: the end's inline read of the first event, when @read
 * @v1: of the second event, when @read
 * @read: 1 when @v0 and @v1 are the inline reads; 0: the library reads
 * @form: 0 for the cached form, 1 by name
 *
 * The reads come in registers, not through memory: a caller whose other
 * paths need no stack may reach this by a tail call.
 */
void selfmon_priv_marker_finish(struct selfmon_marker *marker, uint64_t v0, uint64_t v1, int read,
			    int form) __attribute__((cold));

/*
 * The inline pair, for a thread of one or two events (the default's two;
 * one event is read twice): a thread of more takes the library's path.
 * A begin reads the counters last; an end reads them first: the code
 * between the two reads is the same in every pair, and in the empty pair
 * the library measures and subtracts. Every case but the plain one (a site
 * not yet resolved, a thread not yet open or reading the long way, nesting,
 * a refused read, a multiplexed counter) goes to the library, which does
 * what the inline path would and more. The events are unrolled: no loop,
 * and the end's reads stay in registers. The library sends a thread here
 * only when its pages passed selfmon_page__read_value32()'s test at open.
 */
static inline __attribute__((always_inline)) void
selfmon_priv_marker_begin_with(struct selfmon_marker *m, void (*const first)(struct selfmon_marker *))
{
	struct selfmon_priv_marker_thread *t = selfmon_priv_marker_self;
	unsigned long id = (unsigned long)((const struct selfmon_marker_site *)m)->id;
	unsigned long nr = t->nr_slots;
	struct selfmon_priv_marker_slot *s = t->slot;
	const struct perf_event_mmap_page *pg0, *pg1;
	uint64_t v0, v1;

	/* nr_slots and slot read together (one ldp on arm64), as in selfmon_priv_marker_add_pg(). */
	if (__builtin_expect(id >= nr, 0)) {
		struct selfmon_priv_marker_ready r;

		/* @first: the library's, a tail call (no frame for the plain path); NULL: prepare, go on inline. */
		if (first) {
			first(m);
			return;
		}
		r = selfmon_priv_marker_prepare(m, SELFMON_ABI_LAYOUT);

		if (!r.t)
			return;
		t = r.t;
		id = r.id;
		s = t->slot;
	}
	s += id;
	__asm__("" : "+r"(s)); /* its words by offsets from one register */
	if (__builtin_expect(s->depth != 0, 0)) {
		selfmon_marker__begin_at(m);
		return;
	}
	/* Both pages before the reads, whose asm clobbers memory: one ldp on arm64, not a load after each read. */
	pg0 = t->pg[0];
	pg1 = t->pg[1];
	s->depth = 1;
	if (__builtin_expect(selfmon_page__read_value32(pg0, &v0) ||
				     selfmon_page__read_value32(pg1, &v1),
			     0)) {
		s->depth = 0;
		selfmon_marker__begin_at(m);
		return;
	}
	s->begin[0] = v0;
	s->begin[1] = v1;
}

/* The cached form's begin: a site's first use continues inline once the library has prepared it. */
static inline __attribute__((always_inline)) void
selfmon_priv_marker_begin_inline(struct selfmon_marker *m)
{
	selfmon_priv_marker_begin_with(m, (void (*)(struct selfmon_marker *))0);
}

/*
 * Add the pair ending with @v0, @v1 to region @m of this thread, or leave it
 * to the library. @pg0 is t->pg[0], kept by a caller that read it already:
 * the reads' asm clobbers memory, so t->pg[0] would be loaded again.
 */
static inline __attribute__((always_inline)) void
selfmon_priv_marker_add_pg(struct selfmon_priv_marker_thread *t, const struct perf_event_mmap_page *pg0,
			struct selfmon_marker *m, uint64_t v0, uint64_t v1, int form)
{
	unsigned long id = (unsigned long)((const struct selfmon_marker_site *)m)->id;
	unsigned long nr = t->nr_slots;
	struct selfmon_priv_marker_slot *s = t->slot;
	uint64_t d0, d1, calls;
	long depth;

	/*
	 * The words the plain path needs are read in adjacent pairs (nr_slots
	 * and slot, depth and calls[form]: one ldp each on arm64) and depth
	 * and calls are written back together. A multiplexed leader is read
	 * with its times from now on: the library's.
	 */
	if (__builtin_expect(id >= nr, 0))
		goto finish;
	s += id;
	/* The slot's address in a register: its words are then addressed by offsets, which pair. */
	__asm__("" : "+r"(s));
	depth = s->depth;
	calls = s->calls[form];
	if (__builtin_expect(depth != 1 || pg0->time_enabled != pg0->time_running, 0))
		goto finish;
	s->depth = 0;
	s->calls[form] = calls + 1;
	d0 = v0 - s->begin[0];
	d1 = v1 - s->begin[1];
	s->sum[0] += d0;
	s->sum[1] += d1;
	s->min[0] = d0 < s->min[0] ? d0 : s->min[0];
	s->min[1] = d1 < s->min[1] ? d1 : s->min[1];
	s->max[0] = d0 > s->max[0] ? d0 : s->max[0];
	s->max[1] = d1 > s->max[1] ? d1 : s->max[1];
	return;
finish:
	selfmon_priv_marker_finish(m, v0, v1, 1, form);
}

/* selfmon_priv_marker_add_pg() of this thread's first page. */
static inline __attribute__((always_inline)) void
selfmon_priv_marker_add(struct selfmon_priv_marker_thread *t, struct selfmon_marker *m, uint64_t v0,
		     uint64_t v1, int form)
{
	selfmon_priv_marker_add_pg(t, t->pg[0], m, v0, v1, form);
}

/* The end's reads, first thing. Return: 1 when both counters read inline. */
static inline __attribute__((always_inline)) int
selfmon_priv_marker_read(const struct selfmon_priv_marker_thread *t, uint64_t *v0, uint64_t *v1)
{
	if (__builtin_expect(selfmon_page__read_value32(t->pg[0], v0), 0))
		return 0;
	return !selfmon_page__read_value32(t->pg[1], v1);
}

static inline __attribute__((always_inline)) void
selfmon_priv_marker_end_inline(struct selfmon_marker *m)
{
	struct selfmon_priv_marker_thread *t = selfmon_priv_marker_self;
	const struct perf_event_mmap_page *pg0 = t->pg[0], *pg1 = t->pg[1];
	uint64_t v0, v1;

	if (__builtin_expect(selfmon_page__read_value32(pg0, &v0) ||
				     selfmon_page__read_value32(pg1, &v1),
			     0)) {
		selfmon_priv_marker_finish(m, 0, 0, 0, 0);
		return;
	}
	selfmon_priv_marker_add_pg(t, pg0, m, v0, v1, 0);
}

/*
 * A site's region, loaded with one instruction: a volatile load takes the
 * site's address folded in, where gcc's atomic load needs it in a register
 * first (an instruction more at each end with markers off). ThreadSanitizer
 * builds take the atomic load, which it understands.
 */
#if defined(__SANITIZE_THREAD__)
#define SELFMON_PRIV_MARKER_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SELFMON_PRIV_MARKER_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#endif
#endif
#ifndef SELFMON_PRIV_MARKER_LOAD
#define SELFMON_PRIV_MARKER_LOAD(p) (*(struct selfmon_marker *const volatile *)(p))
#endif

/**
 * selfmon_priv_marker_begin_call() - the cached begin as one call, for the
 * arch's fixed sequence (SELFMON_MARKER_BEGIN()); not for programs
 * @marker: the site's region, or the site itself before its first use
 *
 * Its counter reads are the last thing it does: what runs after them, up
 * to the region's first instruction, is this function's own return.
 */
void selfmon_priv_marker_begin_call(struct selfmon_marker *marker);

/**
 * selfmon_priv_marker_end_call() - the cached end as one call, for the arch's
 * fixed sequence (SELFMON_MARKER_END()); not for programs
 * @marker: the site's region, or the site itself before its first use
 *
 * Its counter reads are the first thing it does.
 */
void selfmon_priv_marker_end_call(struct selfmon_marker *marker);

/*
 * A by-name word of the arch's fixed sequence (SELFMON_ARCH_MARKER_NAMED),
 * in the section "selfmon_names": the word the site loads and calls the
 * library with (its name; 0: markers off, no call), and the name kept to
 * restore it.
 */
struct selfmon_priv_marker_named {
	const char *live;
	const char *name;
};

/*
 * The bounds of the sections that the linker gathers an object's sites
 * and by-name words in (ld, "Input Section Example": __start_ and __stop_
 * of a section named as a C identifier), each object's own (hidden), weak:
 * an object with no site has no section, and they are NULL.
 */
/* NOLINTNEXTLINE(bugprone-reserved-identifier): the linker's name for the section's start */
extern struct selfmon_marker_site __start_selfmon_sites[] __attribute__((weak, visibility("hidden")));
/* NOLINTNEXTLINE(bugprone-reserved-identifier): the linker's name for the section's end */
extern struct selfmon_marker_site __stop_selfmon_sites[] __attribute__((weak, visibility("hidden")));
/* NOLINTNEXTLINE(bugprone-reserved-identifier): the linker's name for the section's start */
extern struct selfmon_priv_marker_named __start_selfmon_names[] __attribute__((weak, visibility("hidden")));
/* NOLINTNEXTLINE(bugprone-reserved-identifier): the linker's name for the section's end */
extern struct selfmon_priv_marker_named __stop_selfmon_names[] __attribute__((weak, visibility("hidden")));

/**
 * selfmon_priv_marker_module() - an object's sites and by-name words, for
 * the library to resolve when markers start (and to turn off with the
 * rest), or to forget before the object goes; not for programs
 * @sites: the first site in the object's section "selfmon_sites", or NULL
 * @sites_end: the end of that section
 * @names: the first word in its section "selfmon_names", or NULL
 * @names_end: the end of that section
 * @in: 1 when the object is loaded, 0 before it is unloaded
 *
 * Each file that includes this header calls it when its object (a program
 * or a shared object) is loaded and unloaded: a library linked as a shared
 * object sees no section but its own, and without this an object's site
 * would be resolved at its first use, inside whatever region is open then.
 */
void selfmon_priv_marker_module(struct selfmon_marker_site *sites,
				struct selfmon_marker_site *sites_end,
				struct selfmon_priv_marker_named *names,
				struct selfmon_priv_marker_named *names_end, int in);

/*
 * This file's object, to the library at load and unload
 * (selfmon_priv_marker_module()); the library's own files, built with
 * SELFMON_PRIV_MARKER_NO_MODULE, have their sections already.
 */
#ifndef SELFMON_PRIV_MARKER_NO_MODULE
static __attribute__((constructor, used)) void selfmon_priv_marker_module_in(void)
{
	selfmon_priv_marker_module(__start_selfmon_sites, __stop_selfmon_sites,
				   __start_selfmon_names, __stop_selfmon_names, 1);
}

static __attribute__((destructor, used)) void selfmon_priv_marker_module_out(void)
{
	selfmon_priv_marker_module(__start_selfmon_sites, __stop_selfmon_sites,
				   __start_selfmon_names, __stop_selfmon_names, 0);
}
#endif

/*
 * g++ gives a static of an inline function (or of a class local to one)
 * a COMDAT group, and refuses it in a section that also holds a site of a
 * plain function ("section type conflict"): its sites stay out of the
 * section, and the library resolves each at its first use.
 */
#if defined(__cplusplus) && !defined(__clang__)
#define SELFMON_PRIV_MARKER_SITE_ATTR __attribute__((aligned(8), used))
#else
#define SELFMON_PRIV_MARKER_SITE_ATTR __attribute__((section("selfmon_sites"), aligned(8), used))
#endif

#ifndef SELFMON_ARCH_MARKER_CALL
#define SELFMON_PRIV_MARKER_AT(fn, name)                                                        \
	do {                                                                                \
		static struct selfmon_marker_site selfmon_priv_marker_site_                     \
			SELFMON_PRIV_MARKER_SITE_ATTR = {                                       \
				(struct selfmon_marker *)&selfmon_priv_marker_site_, -1, (name) \
			};                                                                  \
		struct selfmon_marker *selfmon_priv_marker_m_ =                                 \
			SELFMON_PRIV_MARKER_LOAD(&selfmon_priv_marker_site_.marker);                \
		if (__builtin_expect(selfmon_priv_marker_m_ != 0, 1))                           \
			fn(selfmon_priv_marker_m_);                                             \
		__asm__ __volatile__("" ::: "memory");                                      \
	} while (0)

#endif

/*
 * The scope form: a variable whose cleanup (gcc's and clang's cleanup
 * attribute, which runs wherever the variable's block is left) ends the
 * region. The variable holds the begin's site (with a fixed sequence: its
 * region), so that the end reaches the same region with no lookup. Where
 * the arch gives a fixed sequence (SELFMON_ARCH_MARKER_SCOPE: arm64,
 * x86_64), the begin is one asm statement that makes the site, loads its
 * region, stores it in the variable and calls the library (the store before
 * the call). From -O1 on the end loads the region from the variable and
 * calls: as many instructions before the end's reads as the pair's end
 * has. At -O0, where an inline cleanup's argument goes through the stack
 * inside the region, the cleanup is the arch's stub
 * (SELFMON_ARCH_MARKER_SCOPE_LEAVE), which the compiler calls with the
 * variable's address as it calls any function: it loads the region and
 * branches to the library's scope end, which takes off what that path
 * adds over a pair's end (the library measures it). Else both are the
 * inline pair's C.
 */
#define SELFMON_PRIV_MARKER_CAT2(a, b) a##b
#define SELFMON_PRIV_MARKER_CAT(a, b) SELFMON_PRIV_MARKER_CAT2(a, b)
#ifdef SELFMON_ARCH_MARKER_SCOPE
/**
 * selfmon_priv_marker_scope_end_call() - the scope form's end, reached from
 * the arch's stub (SELFMON_ARCH_MARKER_SCOPE_LEAVE()); not for programs
 * @marker: the region the begin stored
 *
 * selfmon_priv_marker_end_call() less what the stub adds to a region over
 * a pair's end, as the library measured it.
 */
void selfmon_priv_marker_scope_end_call(struct selfmon_marker *marker);
/*
 * The cleanup of SELFMON_MARKER_SCOPE()'s variable at -O0, in assembly:
 * one copy a program or shared object (a COMDAT group). The library's own
 * copy is named apart and written by its bench/marker.c alone: its archive
 * keeps the symbol local, and a group of the same name in the program
 * would replace the archive's, leaving the library's references to a
 * symbol of a discarded section. Where the arch has a stub for a compiler
 * that moves the address into the argument's register
 * (SELFMON_ARCH_MARKER_SCOPE_LEAVE_MOVED: x86_64's gcc at -O0), that
 * compiler's code calls it, so that every caller's path to the library is
 * as long as the library's own empty scope pair's.
 */
#if defined(SELFMON_PRIV_MARKER_NO_MODULE)
#define SELFMON_PRIV_MARKER_LEAVE selfmon_priv_marker_scope_leave_lib
#elif defined(SELFMON_ARCH_MARKER_SCOPE_LEAVE_MOVED) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__OPTIMIZE__)
#define SELFMON_PRIV_MARKER_LEAVE selfmon_priv_marker_scope_leave_moved
#define SELFMON_PRIV_MARKER_LEAVE_ASM SELFMON_ARCH_MARKER_SCOPE_LEAVE_MOVED
#else
#define SELFMON_PRIV_MARKER_LEAVE selfmon_priv_marker_scope_leave
#define SELFMON_PRIV_MARKER_LEAVE_ASM SELFMON_ARCH_MARKER_SCOPE_LEAVE
#endif
void SELFMON_PRIV_MARKER_LEAVE(struct selfmon_marker *const *region)
	__attribute__((visibility("hidden")));
#ifndef SELFMON_PRIV_MARKER_NO_MODULE
__asm__(SELFMON_PRIV_MARKER_LEAVE_ASM(SELFMON_PRIV_MARKER_LEAVE, selfmon_priv_marker_scope_end_call));
#endif
/*
 * @init: empty, or C++'s "= nullptr", with which a jump past the
 * declaration is an error of the compiler's (C and g++ let a goto past a
 * variable with a cleanup and no initializer; its end would read garbage).
 */
#define SELFMON_PRIV_MARKER_SCOPE_STUB_INIT(name, var, init)                                  \
	struct selfmon_marker *var __attribute__((cleanup(SELFMON_PRIV_MARKER_LEAVE))) init;  \
	SELFMON_ARCH_MARKER_SCOPE(name, var, selfmon_priv_marker_begin_call)
#define SELFMON_PRIV_MARKER_NO_INIT
#define SELFMON_PRIV_MARKER_SCOPE_STUB(name, var) \
	SELFMON_PRIV_MARKER_SCOPE_STUB_INIT(name, var, SELFMON_PRIV_MARKER_NO_INIT)
#ifdef __OPTIMIZE__
/* The cleanup of SELFMON_MARKER_SCOPE()'s variable from -O1 on: the region's end, inline. */
static inline __attribute__((always_inline)) void
selfmon_priv_marker_scope_end(struct selfmon_marker *const *region)
{
	SELFMON_ARCH_MARKER_SCOPE_END(*region, selfmon_priv_marker_end_call);
}
#define SELFMON_PRIV_MARKER_SCOPE(name, var)                                                \
	struct selfmon_marker *var __attribute__((cleanup(selfmon_priv_marker_scope_end))); \
	SELFMON_ARCH_MARKER_SCOPE(name, var, selfmon_priv_marker_begin_call)
#else
#define SELFMON_PRIV_MARKER_SCOPE(name, var) SELFMON_PRIV_MARKER_SCOPE_STUB(name, var)
#endif
#else
static inline __attribute__((always_inline)) void
selfmon_priv_marker_scope_end(struct selfmon_marker_site *const *site)
{
	struct selfmon_marker *m = SELFMON_PRIV_MARKER_LOAD(&(*site)->marker);

	if (__builtin_expect(m != 0, 1))
		selfmon_priv_marker_end_inline(m);
	__asm__ __volatile__("" ::: "memory");
}
#define SELFMON_PRIV_MARKER_SCOPE(name, var)                                                       \
	static struct selfmon_marker_site SELFMON_PRIV_MARKER_CAT(var, site_)                      \
		SELFMON_PRIV_MARKER_SITE_ATTR = {                                                   \
			(struct selfmon_marker *)&SELFMON_PRIV_MARKER_CAT(var, site_), -1, (name)  \
		};                                                                              \
	struct selfmon_marker_site *const var                                                   \
		__attribute__((cleanup(selfmon_priv_marker_scope_end))) =                          \
			&SELFMON_PRIV_MARKER_CAT(var, site_);                                      \
	do {                                                                                    \
		struct selfmon_marker *selfmon_priv_marker_m_ = SELFMON_PRIV_MARKER_LOAD(&var->marker); \
		if (__builtin_expect(selfmon_priv_marker_m_ != 0, 1))                               \
			selfmon_priv_marker_begin_inline(selfmon_priv_marker_m_);                      \
		__asm__ __volatile__("" ::: "memory");                                          \
	} while (0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_PRIV_MARKER_H */
