/* SPDX-License-Identifier: MIT */
/* x86_64 counter access: rdpmc and rdtsc. Included by <selfmon/read.h>. */
#ifndef SELFMON_ARCH_H
#define SELFMON_ARCH_H

#include <stdint.h>

#define SELFMON_ARCH_NAME "x86_64"
#define SELFMON_ARCH_USER_READ 1
/* Fixed counters have bit 30 set in the index: every non-zero index is readable. */
#define SELFMON_ARCH_MAX_INDEX 0xffffffffu

/* lfence waits for earlier instructions to complete before the read (SDM, RDPMC). */
#define selfmon_arch_fence() __asm__ __volatile__("lfence" ::: "memory")
#ifdef SELFMON_SERIALIZE_READS
#define selfmon_arch_serialize() selfmon_arch_fence()
#else
#define selfmon_arch_serialize() \
	do {                     \
	} while (0)
#endif

/* @idx is the mmap page's index: the counter is rdpmc's ECX = index - 1. */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	uint32_t lo, hi;

	selfmon_arch_serialize();
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx - 1));
	return (uint64_t)hi << 32 | lo;
}

static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_timestamp(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/*
 * The calling thread's pointer: on x86_64 the C libraries (glibc, musl)
 * keep the thread's own address at %fs:0 (the x86-64 psABI's TLS, the TCB's
 * first word). As on arm64, no two live threads have the same, and the
 * library clears a set owner's pointer when its thread exits.
 */
#if defined(__x86_64__) && !defined(__ILP32__)
#define SELFMON_ARCH_THREAD_POINTER 1
static inline __attribute__((always_inline)) uintptr_t selfmon_arch_thread_pointer(void)
{
	uintptr_t tp;

	__asm__("movq\t%%fs:0, %0" : "=r"(tp));
	return tp;
}
#endif

/*
 * The markers' fixed sequences (<selfmon/marker.h>), as arm64's: a call
 * site's struct selfmon_marker_site made here in its
 * section, loaded by its label (RIP-relative, position independent), never
 * through an address the compiler chose, and, when markers are on, @fn
 * called with it. Whatever the compiler does around a pair (a loop that
 * would hoist the address, -O0 that would reload it, register pressure),
 * the instructions between its two counter reads are the same at every
 * site, and the library measures those once and subtracts them.
 *
 * A call from inside an asm statement, by the System V AMD64 ABI ("The
 * Stack Frame"): the 128 bytes below %rsp may hold the caller's data (the
 * red zone of a leaf function), so the call is made below them, and %rsp is
 * 16-byte aligned before it; the old %rsp is pushed twice (the second push
 * keeps the alignment) and popped back after the call. The clobbers are the
 * registers a call may change ("Registers"): the integer ones, every vector
 * register (and AVX-512's masks), the x87 stack. Markers off: a compare with
 * the word in memory and a branch at each end; the word is loaded again for
 * the call. x86_64 only: i386 and x32 keep the inline C pair, and so does
 * a build with SELFMON_X86_INLINE_PAIR defined, as a program built against
 * an earlier release has it: tests/check_abi.sh builds one, to show that
 * the library still serves it (docs/abi.md).
 */
#if defined(__x86_64__) && !defined(__ILP32__) && !defined(SELFMON_X86_INLINE_PAIR)
#ifdef __AVX512F__
#define SELFMON_X86_AVX512_CLOBBERS                                                           \
	, "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24",     \
		"xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k0", "k1", "k2", \
		"k3", "k4", "k5", "k6", "k7"
#else
#define SELFMON_X86_AVX512_CLOBBERS
#endif
#define SELFMON_X86_CALL_CLOBBERS                                                              \
	"rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2",    \
		"xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",     \
		"xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)", \
		"st(5)", "st(6)", "st(7)", "cc", "memory" SELFMON_X86_AVX512_CLOBBERS
/*
 * The call itself, with %rdi loaded: below the red zone, %rsp aligned, then
 * restored. It calls through @fn's GOT entry, never a PLT stub: a stub's
 * length is the linker's choice for each object (one jump; with IBT's
 * .plt.sec, as toolchains that default to -fcf-protection make them, an
 * endbr64 before it), so a program's stub and the library's own, which its
 * empty pair would run, can differ by an instruction that the region
 * would count. The GOT entry is bound at load (no lazy binding inside a
 * region), and where @fn is the program's own (a static link) the linker
 * relaxes the indirect call to a direct one: one instruction everywhere
 * (System V AMD64 psABI, "Function Calls" among its position-independent
 * coding examples, and "Optimize GOTPCRELX Relocations").
 */
#define SELFMON_X86_CALL(fn)                      \
	"\tmovq\t%%rsp, %%rax\n"                  \
	"\tleaq\t-128(%%rsp), %%rsp\n"            \
	"\tandq\t$-16, %%rsp\n"                   \
	"\tpushq\t%%rax\n"                        \
	"\tpushq\t%%rax\n"                        \
	"\tcall\t*" #fn "@GOTPCREL(%%rip)\n"      \
	"\tpopq\t%%rsp\n"
/*
 * A site's fixed sequence: its struct selfmon_marker_site (label 2) put in
 * the section "selfmon_sites", then its first word tested by its label and,
 * unless it is 0 (markers off), loaded and @fn called with it.
 */
#define SELFMON_ARCH_MARKER_CALL(name, fn)                                 \
	__asm__ __volatile__("\t.pushsection\tselfmon_sites, \"aw\"\n"     \
			     "\t.balign\t8\n"                                \
			     "2:\t.quad\t2b\n\t.quad\t-1\n\t.quad\t%P[n]\n" \
			     "\t.popsection\n"                                \
			     "\tcmpq\t$0, 2b(%%rip)\n"                        \
			     "\tje\t1f\n"                                     \
			     "\tmovq\t2b(%%rip), %%rdi\n" SELFMON_X86_CALL(fn)  \
			     "1:\n"                                            \
			     :                                                 \
			     : [n] "i"(name)                                   \
			     : SELFMON_X86_CALL_CLOBBERS)

/*
 * The scope form's fixed sequences, as arm64's: the begin makes its site,
 * loads its region, stores it in @var (a memory operand, used before %rsp
 * moves) and calls @fn unless it is 0; from -O1 on the end compares @var
 * with 0 and loads it as the pair's end does its site's word: the same
 * instructions before @fn's reads. At -O0 the end is the compiler's call
 * (the variable's address in %rdi) of the stub
 * SELFMON_ARCH_MARKER_SCOPE_LEAVE() writes: it loads the region and, unless
 * it is 0, jumps to @fn through the GOT (a static link relaxes that to a
 * direct jmp), so that @fn returns to the block's exit itself. The
 * compiler's call keeps the stack as the ABI wants it, so the stub does
 * not move %rsp: its path is shorter than a pair's end, and the library
 * measures the difference once (an empty scope pair of the stub beside the
 * empty pair) and takes it off each such end. clang makes the address in
 * %rdi, as the library's own empty scope pair does; gcc makes it in %rax
 * and moves it, one instruction more, so gcc's -O0 code calls a stub of
 * its own (SELFMON_ARCH_MARKER_SCOPE_LEAVE_MOVED()) whose path is one
 * instruction shorter: the other's holds a nop.
 */
#define SELFMON_ARCH_MARKER_SCOPE(name, var, fn)                                       \
	__asm__ __volatile__("\t.pushsection\tselfmon_sites, \"aw\"\n"                 \
			     "\t.balign\t8\n"                                          \
			     "2:\t.quad\t2b\n\t.quad\t-1\n\t.quad\t%P[n]\n"            \
			     "\t.popsection\n"                                         \
			     "\tmovq\t2b(%%rip), %%rdi\n"                              \
			     "\tmovq\t%%rdi, %[v]\n"                                   \
			     "\ttestq\t%%rdi, %%rdi\n"                                 \
			     "\tje\t1f\n" SELFMON_X86_CALL(fn) "1:\n"                  \
			     : [v] "=m"(var)                                           \
			     : [n] "i"(name)                                           \
			     : SELFMON_X86_CALL_CLOBBERS)
#define SELFMON_ARCH_MARKER_SCOPE_END(region, fn)                              \
	__asm__ __volatile__("\tcmpq\t$0, %[v]\n"                              \
			     "\tje\t1f\n"                                      \
			     "\tmovq\t%[v], %%rdi\n" SELFMON_X86_CALL(fn) "1:\n" \
			     :                                                 \
			     : [v] "m"(region)                                 \
			     : SELFMON_X86_CALL_CLOBBERS)
#define SELFMON_X86_STR2(x) #x
#define SELFMON_X86_STR(x) SELFMON_X86_STR2(x)
/*
 * The stub @leave (a name, expanded), in a COMDAT group of its name,
 * hidden, jumping to @fn; once an assembly file, which link-time
 * optimization makes of many of them (.ifndef of a symbol of its own).
 * @pad: the instructions that make its path as long as its callers'
 * address moves require (above).
 */
#define SELFMON_ARCH_MARKER_SCOPE_LEAVE(leave, fn) SELFMON_X86_SCOPE_LEAVE(leave, fn, "\tnop\n")
#define SELFMON_ARCH_MARKER_SCOPE_LEAVE_MOVED(leave, fn) SELFMON_X86_SCOPE_LEAVE(leave, fn, "")
#define SELFMON_X86_SCOPE_LEAVE(leave, fn, pad)                                     \
	"\t.ifndef\t" SELFMON_X86_STR(leave) ".once\n"                              \
	"\t.set\t" SELFMON_X86_STR(leave) ".once, 1\n"                              \
	"\t.pushsection\t.text." SELFMON_X86_STR(leave) ", \"axG\", @progbits, "    \
	SELFMON_X86_STR(leave) ", comdat\n"                                          \
	"\t.weak\t" SELFMON_X86_STR(leave) "\n"                                     \
	"\t.hidden\t" SELFMON_X86_STR(leave) "\n"                                   \
	"\t.type\t" SELFMON_X86_STR(leave) ", @function\n"                          \
	SELFMON_X86_STR(leave) ":\n"                                                 \
	"\t.cfi_startproc\n"                                                        \
	pad                                                                         \
	"\tmovq\t(%rdi), %rdi\n"                                                    \
	"\ttestq\t%rdi, %rdi\n"                                                     \
	"\tje\t1f\n"                                                                \
	"\tjmp\t*" #fn "@GOTPCREL(%rip)\n"                                          \
	"1:\tret\n"                                                                  \
	"\t.cfi_endproc\n"                                                          \
	"\t.popsection\n"                                                           \
	"\t.endif\n"

/*
 * The by-name forms' fixed sequences: the library's word
 * selfmon_priv_marker_live (<selfmon/priv/marker.h>), loaded through the
 * GOT by its symbol (the same three instructions in a program, a PIE and a
 * shared object), compared with 0 (markers off: no call), then the name put
 * in %rdi and @fn called as SELFMON_X86_CALL() calls. A string literal's
 * address is made RIP-relative inside the asm (SELFMON_ARCH_MARKER_NAMED()),
 * so that the whole end, from the test to the call, is the same at every
 * site and in the library's empty pair, whatever the compiler does around it
 * (-O0 too); a name that is no literal comes in a register of the
 * compiler's choosing, one the call keeps (SELFMON_ARCH_MARKER_NAMED_ANY()).
 * No asm goto: clang++ 14 takes every asm goto of a function as able to jump
 * to every asm goto label in it, and refuses one that would bypass a
 * variable's initialization.
 */
#define SELFMON_X86_NAMED_TEST                                           \
	"\tmovq\tselfmon_priv_marker_live@GOTPCREL(%%rip), %%rax\n"      \
	"\tcmpb\t$0, (%%rax)\n"                                          \
	"\tje\t1f\n"
#define SELFMON_ARCH_MARKER_NAMED(name, fn)                                           \
	__asm__ __volatile__(SELFMON_X86_NAMED_TEST "\tleaq\t%P[n](%%rip), %%rdi\n"    \
			     SELFMON_X86_CALL(fn) "1:\n"                               \
			     :                                                         \
			     : [n] "i"(name)                                           \
			     : SELFMON_X86_CALL_CLOBBERS)
/*
 * The name as the functions take it (0 too): type-checked as a call's
 * argument is, in sizeof, never called: at -O0 the call would pass the name
 * through the stack inside the region. The operand is the name cast, after
 * that check in a comma: one statement, no code of its own at -O0 (a do {}
 * while (0) around two would be a jump there).
 */
static inline __attribute__((always_inline)) const char *selfmon_x86_marker_name(const char *name)
{
	return name;
}
/*
 * The name's operand: a register or, with gcc, memory as well, so that at
 * -O0, where gcc keeps a pointer in its stack slot, the movq reads it
 * there instead of the compiler loading it into a register inside the
 * region (exact where it read 1 over). clang takes "rm" as memory always,
 * storing a value held in a register to the stack first: a register alone.
 */
#ifdef __clang__
#define SELFMON_X86_NAME_IN(name) "r"(name)
#else
#define SELFMON_X86_NAME_IN(name) "rm"(name)
#endif
#define SELFMON_ARCH_MARKER_NAMED_ANY(name, fn)                                       \
	__asm__ __volatile__(SELFMON_X86_NAMED_TEST "\tmovq\t%[n], %%rdi\n"            \
			     SELFMON_X86_CALL(fn) "1:\n"                               \
			     :                                                         \
			     : [n] SELFMON_X86_NAME_IN(((void)sizeof(selfmon_x86_marker_name(name)), \
					(const char *)(name)))                         \
			     : SELFMON_X86_CALL_CLOBBERS)
#endif

#endif /* SELFMON_ARCH_H */
