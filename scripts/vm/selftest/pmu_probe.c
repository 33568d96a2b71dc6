/*
 * pmu_probe: prove that the test VM gives user space exact, readable
 * instruction counts. Not part of selfmon; it only exercises the VM.
 *
 * Usage: pmu_probe [CONFIG1]   (default 0x3: bit1 user access, bit0 64-bit)
 * Prints "key=value" lines that run_tests.sh turns into TAP. Exit 0 when
 * every step worked, 3 when perf_event_open refused the event with
 * EOPNOTSUPP (the caller decides whether that was expected), 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SYSCTL "/proc/sys/kernel/perf_user_access"

static int fails;

static void fail(const char *what)
{
	printf("error=%s: %s\n", what, strerror(errno));
	fails++;
}

static int open_insns(uint64_t config1)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.config1 = config1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	/* pid 0, cpu -1: this thread on any CPU, which user access requires. */
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static int write_sysctl(const char *val)
{
	FILE *f = fopen(SYSCTL, "w");

	if (!f)
		return -1;
	if (fputs(val, f) < 0) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/*
 * The counter register has to be named in the instruction, so each
 * PMEVCNTR<n>_EL0 gets its own case.
 */
#define EVC(n) case n + 1: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break;
static uint64_t read_pmc(uint32_t idx)
{
	uint64_t v = 0;

	switch (idx) {
	EVC(0) EVC(1) EVC(2) EVC(3) EVC(4) EVC(5) EVC(6) EVC(7)
	EVC(8) EVC(9) EVC(10) EVC(11) EVC(12) EVC(13) EVC(14) EVC(15)
	EVC(16) EVC(17) EVC(18) EVC(19) EVC(20) EVC(21) EVC(22) EVC(23)
	EVC(24) EVC(25) EVC(26) EVC(27) EVC(28) EVC(29) EVC(30)
	case 32:
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		abort();
	}
	return v;
}

/* The documented seqlock read of the mmap page; 0 idx means no user read. */
static int mmap_read(volatile struct perf_event_mmap_page *pc, uint64_t *out)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			unsigned w = pc->pmc_width;
			uint64_t pmc = read_pmc(idx);

			if (w < 64) {
				pmc <<= 64 - w;
				pmc = (uint64_t)((int64_t)pmc >> (64 - w));
			}
			count += pmc;
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	if (!idx)
		return -1;
	*out = count;
	return 0;
}

/* Exactly 3 instructions per iteration; n must be >= 1. */
static inline void spin(uint64_t n)
{
	uint64_t acc = 0;

	__asm__ volatile("1: add %1, %1, #1\n\t"
			 "subs %0, %0, #1\n\t"
			 "b.ne 1b"
			 : "+r"(n), "+r"(acc) : : "cc");
}

static uint64_t delta_mmap(volatile struct perf_event_mmap_page *pc, uint64_t n)
{
	uint64_t a = 0, b = 0;

	mmap_read(pc, &a);
	spin(n);
	mmap_read(pc, &b);
	return b - a;
}

static uint64_t delta_read(int fd, uint64_t n)
{
	uint64_t a = 0, b = 0;

	if (read(fd, &a, sizeof(a)) != sizeof(a))
		fail("read");
	spin(n);
	if (read(fd, &b, sizeof(b)) != sizeof(b))
		fail("read");
	return b - a;
}

static void show_page(const char *when, volatile struct perf_event_mmap_page *pc)
{
	printf("%s.index=%u\n", when, pc->index);
	printf("%s.cap_user_rdpmc=%u\n", when, (unsigned)pc->cap_user_rdpmc);
	printf("%s.pmc_width=%u\n", when, (unsigned)pc->pmc_width);
}

int main(int argc, char **argv)
{
	uint64_t config1 = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x3;
	volatile struct perf_event_mmap_page *pc;
	uint64_t d1, d1001;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("config1=0x%" PRIx64 "\n", config1);

	/* Start from the kernel default so the "index 0" check means something. */
	if (write_sysctl("0"))
		fail("write " SYSCTL);
	fd = open_insns(config1);
	if (fd < 0) {
		int e = errno;

		printf("open=%s\n", e == EOPNOTSUPP ? "EOPNOTSUPP" : strerror(e));
		return e == EOPNOTSUPP ? 3 : 1;
	}
	printf("open=ok\n");
	pc = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		fail("mmap");
		return 1;
	}
	show_page("ua0", pc);

	if (write_sysctl("1"))
		fail("write " SYSCTL);
	/* The sysctl is only looked at when the event is scheduled in. */
	show_page("ua1_noresched", pc);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	show_page("ua1", pc);

	if (pc->index) {
		/* Warm up so the first measured pass hits no cold paths. */
		delta_mmap(pc, 1);
		d1 = delta_mmap(pc, 1);
		d1001 = delta_mmap(pc, 1001);
		printf("mrs.delta1=%" PRIu64 "\n", d1);
		printf("mrs.delta1001=%" PRIu64 "\n", d1001);
		printf("mrs.diff=%" PRIu64 "\n", d1001 - d1);
	} else {
		printf("error=index still 0 after perf_user_access=1\n");
		fails++;
	}

	delta_read(fd, 1);
	d1 = delta_read(fd, 1);
	d1001 = delta_read(fd, 1001);
	printf("read.delta1=%" PRIu64 "\n", d1);
	printf("read.delta1001=%" PRIu64 "\n", d1001);
	printf("read.diff=%" PRIu64 "\n", d1001 - d1);

	write_sysctl("0");
	return fails ? 1 : 0;
}
