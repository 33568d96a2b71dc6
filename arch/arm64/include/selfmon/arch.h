/* SPDX-License-Identifier: MIT */
/*
 * arm64 counter access with mrs. Included by <selfmon/read.h>.
 *
 * The kernel's page index for a PMUv3 event is its counter number plus one
 * (event counter n -> index n + 1, n = 0..30) and 32 for the cycle counter
 * (arch/arm64/kernel/perf_event.c, armv8pmu_user_event_idx). Each event
 * counter has its own system register PMEVCNTR<n>_EL0, so the read picks one
 * of 32 mrs instructions by the index.
 */
#ifndef SELFMON_ARCH_H
#define SELFMON_ARCH_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define SELFMON_ARCH_NAME "arm64"
#define SELFMON_ARCH_USER_READ 1
/* Largest page index this file can read: 32 = PMCCNTR_EL0. */
#define SELFMON_ARCH_MAX_INDEX 32u
/*
 * The kernel keeps a page's cap_user_rdpmc and pmc_width for the event's
 * life: both follow from flags fixed when the event is opened (the rdpmc and
 * long bits of config1: arm64 perf document, "About chained events and
 * counter sizes"; drivers/perf/arm_pmuv3.c, arch_perf_update_userpage), and
 * it withdraws the user read by the index alone (0 when the sysctl is off,
 * armv8pmu_user_event_idx). So a caller that saw both once may read with
 * selfmon_page__read_value32() (read.h).
 */
#define SELFMON_ARCH_FIXED_PAGE 1
/*
 * And a page index other than 0 implies both: armv8pmu_user_event_idx()
 * gives 0 unless the event has the user-read flag that also sets
 * cap_user_rdpmc, and arch_perf_update_userpage() sets pmc_width to 32 or
 * 64 and nothing else. So the general read (read.h) tests the index alone,
 * and sign-extends by the width itself: for 32 and 64, 64 - pmc_width and
 * pmc_width are the same shift modulo 64 (0 or 32), and arm64's variable
 * shifts take their amount modulo 64, so no subtraction is needed.
 */
#define SELFMON_ARCH_INDEX_GATES_READ 1

/*
 * @pmc sign-extended from a @width of 32 or 64, as above: lsl and asr by the
 * width itself. In asm because gcc keeps the "& 63" that C would need to
 * shift by 64, an instruction a read more.
 */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_sext_width(uint64_t pmc, uint64_t width)
{
	__asm__("lsl\t%0, %0, %1\n\tasr\t%0, %0, %1" : "+r"(pmc) : "r"(width));
	return pmc;
}

/* A test may define these to see which register the timestamp read takes, on any host. */
#ifndef SELFMON_ARM64_MRS
#define SELFMON_ARM64_MRS(reg, v) __asm__ __volatile__("mrs %0, " #reg : "=r"(v))
#endif
#ifndef SELFMON_ARM64_ISB
#define SELFMON_ARM64_ISB() __asm__ __volatile__("isb" ::: "memory")
#endif

/* isb: earlier instructions complete before the counter is sampled (Arm ARM, D7 "PMU synchronization"). */
#define selfmon_arch_fence() SELFMON_ARM64_ISB()
#ifdef SELFMON_SERIALIZE_READS
#define selfmon_arch_serialize() SELFMON_ARM64_ISB()
#else
#define selfmon_arch_serialize() \
	do {                     \
	} while (0)
#endif

/*
 * lock and index in one ldp (read.h's selfmon_arch_load_lock_index): they are
 * adjacent u32 at offsets 8 and 12 of the uapi page, checked below. One
 * instruction a read less than two loads. The offset is written out because
 * clang has no constraint for an ldp address ("Ump" is gcc's).
 */
#ifdef __cplusplus
#define SELFMON_ARM64_STATIC_ASSERT static_assert /* C++ has no _Static_assert */
#else
#define SELFMON_ARM64_STATIC_ASSERT _Static_assert
#endif
SELFMON_ARM64_STATIC_ASSERT(
	offsetof(struct perf_event_mmap_page, lock) == 8 &&
		offsetof(struct perf_event_mmap_page, index) == 12,
	"selfmon_arch_load_lock_index reads lock and index as a pair at offset 8");
#define selfmon_arch_load_lock_index(p, seq, idx) \
	__asm__ __volatile__("ldp\t%w0, %w1, [%2, #8]" : "=r"(seq), "=r"(idx) : "r"(p) : "memory")

/*
 * The dispatch: a computed branch into 32 blocks of equal size, block i - 1
 * for page index i, each "mrs; b out". gcc's own switch costs 20 user
 * instructions a read at index 1 (the fall-through case) and 25 at every
 * other index (a jump table: ldrb, adr, add, br, and a b back). Here every
 * index runs the same five instructions (adr, add, br, mrs, b), so the read
 * costs the same at every index by construction: the board measures the
 * indices it can reach (tests/selftests/arm64/cost_test.c), and the
 * assembler makes every block the same size (the .org below), so the indices
 * no board reaches take the same path. A host unit test
 * (tests/unit/test_arm64_map.c) checks that block i - 1 reads index i's
 * register.
 *
 * With branch protection (-mbranch-protection=bti), br may only land on a
 * "bti j": each block then starts with one and is 16 bytes; that build pays
 * one instruction a read more (a bti executes as a hint).
 */
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define SELFMON_ARM64_BTI "\tbti\tj\n"
#define SELFMON_ARM64_SHIFT "4"
#else
#define SELFMON_ARM64_BTI ""
#define SELFMON_ARM64_SHIFT "3"
#endif

/*
 * One block: read @reg into operand v, then leave (label 9, after the last
 * block). The .org makes every block exactly 1 << SHIFT bytes: the assembler
 * pads a shorter one (with zeros, udf) and refuses a longer one.
 */
#define SELFMON_ARM64_BLOCK(reg)                                  \
	"0:" SELFMON_ARM64_BTI "\tmrs\t%[v], " #reg "\n\tb\t9f\n" \
	"\t.org\t0b + (1 << " SELFMON_ARM64_SHIFT ")\n"

/* The blocks in index order, 1..32 (a host unit test checks this text). */
#define SELFMON_ARM64_BLOCKS                                                                                             \
	SELFMON_ARM64_BLOCK(pmevcntr0_el0)                                                                               \
	SELFMON_ARM64_BLOCK(pmevcntr1_el0) SELFMON_ARM64_BLOCK(pmevcntr2_el0) SELFMON_ARM64_BLOCK(                       \
		pmevcntr3_el0) SELFMON_ARM64_BLOCK(pmevcntr4_el0) SELFMON_ARM64_BLOCK(pmevcntr5_el0)                     \
		SELFMON_ARM64_BLOCK(pmevcntr6_el0) SELFMON_ARM64_BLOCK(pmevcntr7_el0) SELFMON_ARM64_BLOCK(               \
			pmevcntr8_el0) SELFMON_ARM64_BLOCK(pmevcntr9_el0) SELFMON_ARM64_BLOCK(pmevcntr10_el0)            \
			SELFMON_ARM64_BLOCK(pmevcntr11_el0) SELFMON_ARM64_BLOCK(pmevcntr12_el0) SELFMON_ARM64_BLOCK(     \
				pmevcntr13_el0) SELFMON_ARM64_BLOCK(pmevcntr14_el0)                                      \
				SELFMON_ARM64_BLOCK(pmevcntr15_el0) SELFMON_ARM64_BLOCK(                                 \
					pmevcntr16_el0) SELFMON_ARM64_BLOCK(pmevcntr17_el0)                              \
					SELFMON_ARM64_BLOCK(pmevcntr18_el0) SELFMON_ARM64_BLOCK(                         \
						pmevcntr19_el0) SELFMON_ARM64_BLOCK(pmevcntr20_el0)                      \
						SELFMON_ARM64_BLOCK(pmevcntr21_el0) SELFMON_ARM64_BLOCK(                 \
							pmevcntr22_el0) SELFMON_ARM64_BLOCK(pmevcntr23_el0)              \
							SELFMON_ARM64_BLOCK(pmevcntr24_el0) SELFMON_ARM64_BLOCK(         \
								pmevcntr25_el0) SELFMON_ARM64_BLOCK(pmevcntr26_el0)      \
								SELFMON_ARM64_BLOCK(pmevcntr27_el0) SELFMON_ARM64_BLOCK( \
									pmevcntr28_el0)                                  \
									SELFMON_ARM64_BLOCK(                             \
										pmevcntr29_el0)                          \
										SELFMON_ARM64_BLOCK(                     \
											pmevcntr30_el0)                  \
											SELFMON_ARM64_BLOCK(             \
												pmccntr_el0)

/*
 * @idx is the mmap page's index, 1..32: read.h checks the range before it
 * calls, with the same local it passes here (the page is read once).
 */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_counter(uint32_t idx)
{
	uint64_t v, at;

	selfmon_arch_serialize();
	__asm__ __volatile__("\tadr\t%[at], 8f\n"
			     "\tadd\t%[at], %[at], %w[n], uxtw #" SELFMON_ARM64_SHIFT "\n"
			     "\tbr\t%[at]\n"
			     "8:\n" SELFMON_ARM64_BLOCKS "9:\n"
			     : [v] "=r"(v), [at] "=&r"(at)
			     : [n] "r"(idx - 1));
	return v;
}

/*
 * The same read with the index's range checked by the dispatch itself, for
 * read.h's selfmon_arch_read_checked(): an index above 32 branches to @fail
 * before the computed branch, and index 0 (no counter: the kernel withdrew
 * the user read, perf_event_open(2) "MMAP layout", index) lands on a block
 * of its own, before block 1, that branches to @fail. So the read takes the
 * index as it is, with no subtraction: cmp, b.hi, adr, add, br, mrs, b, one
 * instruction a read less than a C test of index - 1 below 32 before
 * selfmon_arch_read_counter(). The 32 blocks are those above, unchanged.
 * An asm goto with outputs needs gcc 11 or clang 11; an older compiler
 * takes read.h's C test. It is volatile by name: gcc 12 deletes an asm goto
 * whose outputs go unused (a caller that wants the return alone), and with
 * it the index test, which a board test caught (pmu_test's user_access).
 */
#if (defined(__clang__) && __clang_major__ >= 11) || (!defined(__clang__) && __GNUC__ >= 11)
#define SELFMON_ARM64_BLOCK_FAIL(fail)                            \
	"0:" SELFMON_ARM64_BTI "\tb\t%l[" #fail "]\n"               \
	"\t.org\t0b + (1 << " SELFMON_ARM64_SHIFT ")\n"
#define selfmon_arch_read_checked(idx, pmc, fail)                                         \
	do {                                                                              \
		uint64_t at_;                                                             \
		selfmon_arch_serialize();                                                 \
		__asm__ __volatile__ goto("\tcmp\t%w[n], #32\n"                           \
			     "\tb.hi\t%l[" #fail "]\n"                                     \
			     "\tadr\t%[at], 8f\n"                                          \
			     "\tadd\t%[at], %[at], %w[n], uxtw #" SELFMON_ARM64_SHIFT "\n" \
			     "\tbr\t%[at]\n"                                               \
			     "8:\n" SELFMON_ARM64_BLOCK_FAIL(fail) SELFMON_ARM64_BLOCKS "9:\n" \
			     : [v] "=r"(pmc), [at] "=&r"(at_)                             \
			     : [n] "r"((uint32_t)(idx))                                   \
			     : "cc"                                                       \
			     : fail);                                                     \
	} while (0)

/*
 * The same read with no compare at all, for the reads of a set
 * (selfmon_priv_page_read_fixed_times()), whose budget is the tightest: the
 * dispatch takes the index's low byte (uxtb) into 256 blocks, 0 and 33..255
 * each a branch to @fail, 1..32 the registers. A byte holds every index
 * there can be: the architecture has at most 31 event counters
 * (PMCR_EL0.N), the cycle counter and the instruction counter, so the
 * kernel's index, one more than the counter's number, is at most 33 (which,
 * with no register of its own here, fails). 2 KiB of blocks for the two
 * instructions of the compare: the other reads, inlined in users' code
 * too, keep the 33 blocks above.
 */
#define SELFMON_ARM64_BLOCKS_FAIL_REST(fail)                                           \
	"\t.rept\t223\n" SELFMON_ARM64_BLOCK_FAIL(fail) "\t.endr\n"
#define selfmon_arch_read_checked_byte(idx, pmc, fail)                                  \
	do {                                                                           \
		uint64_t at_;                                                          \
		selfmon_arch_serialize();                                              \
		__asm__ __volatile__ goto("\tadr\t%[at], 8f\n"                          \
			     "\tadd\t%[at], %[at], %w[n], uxtb #" SELFMON_ARM64_SHIFT "\n" \
			     "\tbr\t%[at]\n"                                               \
			     "8:\n" SELFMON_ARM64_BLOCK_FAIL(fail) SELFMON_ARM64_BLOCKS        \
			     SELFMON_ARM64_BLOCKS_FAIL_REST(fail) "9:\n"                    \
			     : [v] "=r"(pmc), [at] "=&r"(at_)                             \
			     : [n] "r"((uint32_t)(idx))                                   \
			     :                                                            \
			     : fail);                                                     \
	} while (0)
#endif

/*
 * The calling thread's pointer (TPIDR_EL0, where its TLS block is): no two
 * live threads have the same, so the library's check that a set is read by
 * the thread that opened it compares this one register. A thread made after
 * another exited may get its pointer; the library clears the pointer of a
 * set's owner when that thread exits.
 */
#define SELFMON_ARCH_THREAD_POINTER 1
static inline __attribute__((always_inline)) uintptr_t selfmon_arch_thread_pointer(void)
{
	uintptr_t tp;

	__asm__("mrs\t%0, tpidr_el0" : "=r"(tp));
	return tp;
}

/*
 * The virtual count, which the kernel's cap_user_time fields convert. isb
 * keeps it from being read ahead of the seqlock load (the kernel's own
 * __arch_counter_get_cntvct does the same).
 */
static inline __attribute__((always_inline)) uint64_t selfmon_arch_read_timestamp(void)
{
	uint64_t v;

	SELFMON_ARM64_ISB();
	SELFMON_ARM64_MRS(cntvct_el0, v);
	return v;
}

/*
 * The markers' fixed sequence (<selfmon/marker.h>): a call site's struct
 * selfmon_marker_site, made here in the section "selfmon_sites" (the
 * region, at first the site itself; -1; the name), then its region loaded
 * by the site's label and, when markers are on, @fn called with it. The
 * address comes from the label (adrp and a :lo12: offset, position
 * independent), never from a register the compiler chose: whatever the
 * compiler does around it (a loop that would hoist the address, -O0 that
 * would reload it, register pressure, a block it would join with a branch),
 * a pair runs the same instructions between its two counter reads, and the
 * library measures those once and subtracts them. @name must be a string
 * literal ("S": a symbol's address). The clobbers are the caller-saved
 * registers of the procedure call standard (AAPCS64, "General-purpose
 * registers", "SIMD and Floating-point registers"): @fn is a C function.
 */
#define SELFMON_ARM64_CALL_CLOBBERS                                                          \
	"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13",  \
		"x14", "x15", "x16", "x17", "x18", "x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", \
		"v7", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25",     \
		"v26", "v27", "v28", "v29", "v30", "v31", "cc", "memory"
/*
 * The load of a site's word (label 2b) into x0, and the test that skips
 * the call: adrp and an ldr with its :lo12: offset, which reach anywhere in
 * the program; or, where the program defines SELFMON_MARKER_NEAR, one
 * PC-relative ldr (a literal load, whose reach is 1 MiB: Arm's A64
 * "LDR (literal)") and a nop after the test, so that with markers off an
 * end costs 2 instructions, and with markers on the same 3 before the
 * call's as every other site's. The word is data ("aw") and lies past the code
 * and the read-only data: a program whose section "selfmon_sites" ends up
 * further than 1 MiB from a near site does not link ("relocation
 * truncated to fit: R_AARCH64_LD_PREL_LO19"). Code of the tiny code model
 * (-mcmodel=tiny, GCC's "AArch64 Options": the program and its static
 * data within 1 MiB of each other) is near without the define.
 */
#if defined(SELFMON_MARKER_NEAR) || defined(__AARCH64_CMODEL_TINY__)
#define SELFMON_ARM64_SITE_LOAD_TEST \
	"\tldr\tx0, 2b\n"             \
	"\tcbz\tx0, 1f\n"             \
	"\tnop\n"
#else
#define SELFMON_ARM64_SITE_LOAD_TEST         \
	"\tadrp\tx16, 2b\n"                  \
	"\tldr\tx0, [x16, #:lo12:2b]\n"      \
	"\tcbz\tx0, 1f\n"
#endif
/*
 * The call to the library: its address loaded from the global offset table
 * (adrp and an ldr of the :got: relocations, R_AARCH64_ADR_GOT_PAGE and
 * R_AARCH64_LD64_GOT_LO12_NC of ELF for the Arm 64-bit Architecture), then
 * blr; never a bl to a PLT entry. An entry is the linker's, and its kind is the program's: 4
 * instructions in a PIE, a bti c more in one linked without PIE and with
 * BTI (-z force-bti), an autia1716 more with -z pac-plt, and another
 * linker's may differ again; a region would count the program's entry and
 * the library's empty pair its own. Through the GOT every site runs the
 * same 3 instructions, in a program, a PIE, a shared object and the
 * library alike, and the entry is bound at load (a GLOB_DAT relocation, or
 * the static link's value), never at a first call. The symbol is still
 * marked variant-PCS (ELF for the Arm 64-bit Architecture, "Symbol Table",
 * "st_other Values": STO_AARCH64_VARIANT_PCS; "Dynamic Section":
 * DT_AARCH64_VARIANT_PCS): the mark reaches the library's own symbols, so
 * that a program built with an older header, whose pairs call through its
 * PLT, is bound at load as well. The functions follow the base standard,
 * and SELFMON_ARM64_CALL_CLOBBERS holds for them either way. A toolchain
 * too old for the directive (binutils before 2.33) can define
 * SELFMON_ARM64_NO_VARIANT_PCS.
 */
#ifdef SELFMON_ARM64_NO_VARIANT_PCS
#define SELFMON_ARM64_VARIANT_PCS(fn) ""
#else
#define SELFMON_ARM64_VARIANT_PCS(fn) "\t.variant_pcs\t" #fn "\n"
#endif
#define SELFMON_ARM64_BL(fn)                        \
	SELFMON_ARM64_VARIANT_PCS(fn)                  \
	"\tadrp\tx16, :got:" #fn "\n"                 \
	"\tldr\tx16, [x16, #:got_lo12:" #fn "]\n"     \
	"\tblr\tx16\n"
/*
 * One site's fixed sequence: @data (the site's words, with label 2 at the
 * first) put in @section, then the first word loaded by its label and,
 * unless it is 0 (markers off), @fn called with it.
 */
#define SELFMON_ARM64_SITE_CALL(section, data, name, fn)                      \
	__asm__ __volatile__("\t.pushsection\t" section ", \"aw\"\n"           \
			     "\t.balign\t8\n" data "\t.popsection\n"           \
			     SELFMON_ARM64_SITE_LOAD_TEST                        \
			     SELFMON_ARM64_BL(fn)                                  \
			     "1:\n"                                             \
			     :                                                  \
			     : [n] "S"(name)                                    \
			     : SELFMON_ARM64_CALL_CLOBBERS)
#define SELFMON_ARCH_MARKER_CALL(name, fn)                                              \
	SELFMON_ARM64_SITE_CALL("selfmon_sites", "2:\t.quad\t2b\n\t.quad\t-1\n\t.quad\t%c[n]\n", \
				name, fn)

/*
 * The by-name forms' fixed sequence: a word in the section "selfmon_names"
 * holds the address of @name (a string literal), and a copy of it; the word
 * is loaded by its label and, unless the library has zeroed it (markers
 * off), @fn called with it. Neither a loop nor -O0 moves or reloads the
 * address (<selfmon/marker.h>), and with markers off a pair costs what the
 * cached form's does: a load and a branch at each end, no call.
 */
#define SELFMON_ARCH_MARKER_NAMED(name, fn) \
	SELFMON_ARM64_SITE_CALL("selfmon_names", "2:\t.quad\t%c[n]\n\t.quad\t%c[n]\n", name, fn)

/*
 * A name that is no literal (a buffer, a pointer): in a register of the
 * compiler's choosing, one the call keeps (the clobbers leave it none
 * other), moved into x0 in the asm, two nops, then the call as above:
 * the same 6 instructions up to the call as a literal's sequence, and the
 * entry points of both kinds run the same code up to the end's reads, so
 * that a region counts what a literal's does wherever the name stays in
 * its register across the region. With gcc the operand may be memory as
 * well (SELFMON_ARM64_NAME_IN), which the asm loads into x0 in the mov's
 * place: at -O0, where gcc keeps a pointer in its stack slot, the name is
 * read there, not loaded into a register inside the region. Where the
 * compiler makes it first (clang at -O0 reloads it from the stack; a
 * global array's address is two instructions), that falls inside the
 * region. No test of markers
 * off: the library's entry says off before any lookup. The name is
 * type-checked as a call's argument is, by selfmon_arm64_marker_name() in
 * sizeof, never called (at -O0 the call would pass the name through the
 * stack inside the region); the operand is the name cast, after that
 * check in a comma: one statement, no code of its own at -O0 (a do {}
 * while (0) around two would be a jump there).
 */
static inline __attribute__((always_inline)) const char *selfmon_arm64_marker_name(const char *name)
{
	return name;
}
/*
 * The name's operand and the instruction that puts it in x0. gcc's may be
 * a register or memory: an assembler macro, defined for the statement and
 * purged after it, takes a register name as mov's operand and anything
 * else (an address, "[sp, 8]") as ldr's, so that the window has one
 * instruction either way. clang takes "rm" as memory always, storing a
 * value held in a register to the stack first: a register alone, and mov.
 */
#ifdef __clang__
#define SELFMON_ARM64_NAME_IN(name) "r"(name)
#define SELFMON_ARM64_NAME_X0 "\tmov\tx0, %[n]\n"
#else
#define SELFMON_ARM64_NAME_IN(name) "rm"(name)
#define SELFMON_ARM64_NAME_X0                                                              \
	".macro\tselfmon_arm64_name_x0 name:vararg\n"                                       \
	"\t.set\t.Lselfmon_name_reg, 0\n"                                                   \
	"\t.irp\treg, x0,x1,x2,x3,x4,x5,x6,x7,x8,x9,x10,x11,x12,x13,x14,x15,x16,x17,x18,"   \
	"x19,x20,x21,x22,x23,x24,x25,x26,x27,x28,x29,x30\n"                                  \
	"\t.ifc\t\\name,\\reg\n"                                                            \
	"\t.set\t.Lselfmon_name_reg, 1\n"                                                   \
	"\t.endif\n"                                                                        \
	"\t.endr\n"                                                                         \
	"\t.if\t.Lselfmon_name_reg\n"                                                       \
	"\tmov\tx0, \\name\n"                                                                \
	"\t.else\n"                                                                         \
	"\tldr\tx0, \\name\n"                                                                \
	"\t.endif\n"                                                                        \
	".endm\n"                                                                           \
	"\tselfmon_arm64_name_x0 %[n]\n"                                                     \
	".purgem\tselfmon_arm64_name_x0\n"
#endif
#define SELFMON_ARCH_MARKER_NAMED_ANY(name, fn)                                          \
	__asm__ __volatile__(SELFMON_ARM64_NAME_X0                                         \
			     "\tnop\n"                                                      \
			     "\tnop\n" SELFMON_ARM64_BL(fn)                                 \
			     :                                                             \
			     : [n] SELFMON_ARM64_NAME_IN(((void)sizeof(selfmon_arm64_marker_name(name)), \
					(const char *)(name)))                             \
			     : SELFMON_ARM64_CALL_CLOBBERS)

/*
 * The scope form's fixed sequences (SELFMON_MARKER_SCOPE(), <selfmon/marker.h>).
 * The begin makes its site as SELFMON_ARCH_MARKER_CALL() does, loads its
 * region as the pair's begin does, and stores it in @var (a memory operand:
 * the store is the asm's, before the call, so none of the compiler's falls
 * inside the region) before it calls @fn. The region is the site itself
 * before the library first resolved it (the program's first begin), which
 * @fn takes too.
 *
 * From -O1 on the end is inline (SELFMON_ARCH_MARKER_SCOPE_END()): it
 * loads the region back from @var and, unless it is 0 (markers off), calls
 * @fn: with the nop, six instructions before @fn's reads, as the pair's end
 * (adrp, ldr, cbz and the call's adrp, ldr, blr), so that a region counts
 * what the pair's counts; the compilers address the variable in that ldr.
 * At -O0 an inline cleanup passes the variable's address through the
 * stack first, inside the region; there the cleanup is a call instead
 * (the compiler puts the address in x0, one instruction, and branches) to
 * the stub SELFMON_ARCH_MARKER_SCOPE_LEAVE() writes: it loads the region
 * and, unless it is 0, branches to @fn through the GOT as SELFMON_ARM64_BL()
 * calls, so that @fn returns to the block's exit itself. Seven instructions
 * before @fn's reads where the pair's end has six; the library measures an
 * empty scope pair of the stub once beside the empty pair and takes the
 * difference off each such end (selfmon_priv_marker_scope_end_call()). One
 * copy of the stub in each program and shared object: a COMDAT group,
 * hidden, reached by a direct bl (no PLT; no veneer within a bl's 128 MiB).
 */
#define SELFMON_ARCH_MARKER_SCOPE(name, var, fn)                            \
	__asm__ __volatile__("\t.pushsection\tselfmon_sites, \"aw\"\n"      \
			     "\t.balign\t8\n"                               \
			     "2:\t.quad\t2b\n\t.quad\t-1\n\t.quad\t%c[n]\n" \
			     "\t.popsection\n"                              \
			     "\tadrp\tx16, 2b\n"                            \
			     "\tldr\tx0, [x16, #:lo12:2b]\n"                \
			     "\tstr\tx0, %[v]\n"                            \
			     "\tcbz\tx0, 1f\n"                              \
			     SELFMON_ARM64_BL(fn)                              \
			     "1:\n"                                         \
			     : [v] "=m"(var)                                \
			     : [n] "S"(name)                                \
			     : SELFMON_ARM64_CALL_CLOBBERS)
#define SELFMON_ARCH_MARKER_SCOPE_END(region, fn) \
	__asm__ __volatile__("\tldr\tx0, %[v]\n"  \
			     "\tnop\n"            \
			     "\tcbz\tx0, 1f\n"    \
			     SELFMON_ARM64_BL(fn)    \
			     "1:\n"               \
			     :                    \
			     : [v] "m"(region)    \
			     : SELFMON_ARM64_CALL_CLOBBERS)
#define SELFMON_ARM64_STR2(x) #x
#define SELFMON_ARM64_STR(x) SELFMON_ARM64_STR2(x)
/*
 * The stub @leave (a name, expanded), in a COMDAT group of its name,
 * hidden, branching to @fn; once an assembly file, which link-time
 * optimization makes of many of them (.ifndef of a symbol of its own: a
 * reference to @leave, or its .hidden, would count as defined for one
 * assembler and not another).
 */
#define SELFMON_ARCH_MARKER_SCOPE_LEAVE(leave, fn)                                             \
	"\t.ifndef\t" SELFMON_ARM64_STR(leave) ".once\n"                                      \
	"\t.set\t" SELFMON_ARM64_STR(leave) ".once, 1\n"                                      \
	"\t.pushsection\t.text." SELFMON_ARM64_STR(leave) ", \"axG\", %progbits, "            \
	SELFMON_ARM64_STR(leave) ", comdat\n"                                                 \
	"\t.balign\t4\n"                                                                       \
	"\t.weak\t" SELFMON_ARM64_STR(leave) "\n"                                             \
	"\t.hidden\t" SELFMON_ARM64_STR(leave) "\n"                                           \
	"\t.type\t" SELFMON_ARM64_STR(leave) ", %function\n"                                  \
	SELFMON_ARM64_STR(leave) ":\n"                                                         \
	"\t.cfi_startproc\n"                                                                  \
	"\tldr\tx0, [x0]\n"                                                                    \
	"\tcbz\tx0, 1f\n"                                                                      \
	SELFMON_ARM64_VARIANT_PCS(fn)                                                          \
	"\tadrp\tx16, :got:" #fn "\n"                                                          \
	"\tldr\tx16, [x16, #:got_lo12:" #fn "]\n"                                              \
	"\tbr\tx16\n"                                                                          \
	"1:\tret\n"                                                                            \
	"\t.cfi_endproc\n"                                                                    \
	"\t.popsection\n"                                                                     \
	"\t.endif\n"

#endif /* SELFMON_ARCH_H */
