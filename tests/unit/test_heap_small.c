// SPDX-License-Identifier: MIT
/*
 * The arena of a build with CONFIG_SMALL_HEAP (core/heap_small.c, linked
 * here in place of heap.c on any build): malloc(3)'s contracts, a freed
 * block reused by the next of its class, zeroed by calloc, a large block
 * mapped alone and unmapped when freed, threads that allocate at once
 * never given the same block, and a child forked while another thread
 * allocates allocates on.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../core/heap.h"

static void blocks_of_every_size_are_aligned_and_keep_their_bytes(void **state)
{
	static const size_t sizes[] = { 0, 1, 15, 16, 17, 31, 100, 1000, 4064, 4080, 4081, 5000, 70000 };
	unsigned char *p[sizeof(sizes) / sizeof(sizes[0])];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p[i] = selfmon_heap__malloc(sizes[i]);
		assert_non_null(p[i]);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], (int)i + 1, sizes[i]);
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (size_t b = 0; b < sizes[i]; b++)
			if (p[i][b] != i + 1)
				fail_msg("block %zu (%zu bytes): byte %zu overwritten", i, sizes[i], b);
		selfmon_heap__free(p[i]);
	}
}

static void a_freed_block_is_the_next_of_its_class(void **state)
{
	void *p, *q;

	(void)state;
	p = selfmon_heap__malloc(100);
	selfmon_heap__free(p);
	q = selfmon_heap__malloc(90);
	assert_ptr_equal(p, q);
	selfmon_heap__free(q);
}

static void calloc_zeroes_a_block_that_was_used_before(void **state)
{
	unsigned char *p, *q;

	(void)state;
	p = selfmon_heap__malloc(64);
	memset(p, 0xff, 64);
	selfmon_heap__free(p);
	q = selfmon_heap__calloc(8, 8);
	assert_ptr_equal(p, q);
	for (int i = 0; i < 64; i++)
		assert_int_equal(q[i], 0);
	selfmon_heap__free(q);
}

static void a_product_past_size_max_is_enomem(void **state)
{
	(void)state;
	errno = 0;
	assert_null(selfmon_heap__calloc(SIZE_MAX / 2, 3));
	assert_int_equal(errno, ENOMEM);
	errno = 0;
	assert_null(selfmon_heap__malloc(SIZE_MAX - 8));
	assert_int_equal(errno, ENOMEM);
}

static void realloc_keeps_the_bytes_into_a_larger_class_and_a_mapping(void **state)
{
	unsigned char *p;

	(void)state;
	p = selfmon_heap__realloc(NULL, 20);
	assert_non_null(p);
	for (int i = 0; i < 20; i++)
		p[i] = (unsigned char)i;
	p = selfmon_heap__realloc(p, 300);
	assert_non_null(p);
	p = selfmon_heap__realloc(p, 20000);
	assert_non_null(p);
	for (int i = 0; i < 20; i++)
		assert_int_equal(p[i], i);
	/* Smaller: kept in place. */
	assert_ptr_equal(selfmon_heap__realloc(p, 10), p);
	selfmon_heap__free(p);
}

static void a_large_block_is_unmapped_when_freed(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char vec, *p;
	uintptr_t start;

	(void)state;
	p = selfmon_heap__malloc(1 << 20);
	assert_non_null(p);
	p[(1 << 20) - 1] = 1;
	start = (uintptr_t)p & ~(uintptr_t)(page - 1);
	assert_int_equal(mincore((void *)start, 1, &vec), 0);
	selfmon_heap__free(p);
	assert_int_equal(mincore((void *)start, 1, &vec), -1);
	assert_int_equal(errno, ENOMEM);
}

static void free_of_null_does_nothing(void **state)
{
	(void)state;
	selfmon_heap__free(NULL);
}

#define ROUNDS 20000

static void *churn(void *arg)
{
	unsigned char tag = (unsigned char)(uintptr_t)arg;
	unsigned char *held[8] = { 0 };

	for (int r = 0; r < ROUNDS; r++) {
		int k = r % 8;
		size_t n = 16 + (size_t)(r * 7 % 200);

		if (held[k]) {
			for (size_t b = 0; b < 16; b++)
				if (held[k][b] != tag)
					return (void *)1;
			selfmon_heap__free(held[k]);
		}
		held[k] = selfmon_heap__malloc(n);
		if (!held[k])
			return (void *)1;
		memset(held[k], tag, n);
	}
	for (int k = 0; k < 8; k++)
		selfmon_heap__free(held[k]);
	return NULL;
}

static void threads_allocating_at_once_never_share_a_block(void **state)
{
	pthread_t t[4];
	void *bad;

	(void)state;
	for (uintptr_t i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, churn, (void *)(i + 1)), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], &bad), 0);
		assert_null(bad);
	}
}

static int stop_hammer;

static void *hammer(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_hammer, __ATOMIC_RELAXED)) {
		void *p = selfmon_heap__malloc(48);
		void *q = selfmon_heap__malloc(200);

		selfmon_heap__free(p);
		selfmon_heap__free(q);
	}
	return NULL;
}

/* In a child: allocate and free of each class; a locked arena hangs until the alarm. */
static int child_allocates(void)
{
	alarm(5);
	for (size_t size = 16; size <= 4096; size *= 2) {
		void *p = selfmon_heap__malloc(size);

		if (!p)
			return 1;
		memset(p, 1, size);
		selfmon_heap__free(p);
	}
	return 0;
}

/*
 * Forks while another thread allocates and frees without a pause: the
 * arena's lock is often held at the fork, by a thread the child does not
 * have. The child must allocate all the same, not wait for ever.
 */
static void a_child_forked_while_another_thread_allocates_allocates_on(void **state)
{
	pthread_t t;
	int hung = 0;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, hammer, NULL), 0);
	for (int i = 0; i < 200; i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0)
			_exit(child_allocates());
		assert_int_equal(waitpid(pid, &status, 0), pid);
		hung = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
		if (hung || !WIFEXITED(status) || WEXITSTATUS(status)) {
			__atomic_store_n(&stop_hammer, 1, __ATOMIC_RELAXED);
			pthread_join(t, NULL);
			fail_msg("fork %d: the child %s", i,
				 hung ? "waited 5 s for the arena's lock" : "failed to allocate");
		}
	}
	__atomic_store_n(&stop_hammer, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(t, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(blocks_of_every_size_are_aligned_and_keep_their_bytes),
		cmocka_unit_test(a_freed_block_is_the_next_of_its_class),
		cmocka_unit_test(calloc_zeroes_a_block_that_was_used_before),
		cmocka_unit_test(a_product_past_size_max_is_enomem),
		cmocka_unit_test(realloc_keeps_the_bytes_into_a_larger_class_and_a_mapping),
		cmocka_unit_test(a_large_block_is_unmapped_when_freed),
		cmocka_unit_test(free_of_null_does_nothing),
		cmocka_unit_test(threads_allocating_at_once_never_share_a_block),
		cmocka_unit_test(a_child_forked_while_another_thread_allocates_allocates_on),
	};

	return cmocka_run_group_tests_name("heap-small", tests, NULL, NULL);
}
