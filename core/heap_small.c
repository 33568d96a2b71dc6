// SPDX-License-Identifier: MIT
/*
 * heap.h in an arena of its own (CONFIG_SMALL_HEAP, core/objs.mk): a block
 * of up to 4 KiB is a power of two from 32 bytes, its first 16 bytes a head
 * that names its class, carved from 16 KiB mappings and kept, once freed,
 * on its class's list for the next block of that class; a larger block is
 * a mapping of its own, its length in the head, unmapped when freed.
 * What selfmon and libperf allocate is tens of small blocks, made at open
 * and freed at close: a program that opens and closes sets reuses the same
 * blocks. The C library's general allocator (musl's is 6.8 KB of a static
 * program) is then linked only if the program calls it. One lock guards the
 * lists; its word holds the pid of the process whose thread holds it, so
 * that a child forked while a thread of its parent held it can tell.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "heap.h"

#define MIN_SHIFT 5		/* the smallest class: 32 bytes */
#define NR_CLASSES 8		/* 32 to 4096 bytes */
#define CHUNK ((size_t)16 * 1024)

/* 16 bytes: what follows it is aligned as malloc(3)'s memory is. */
struct head {
	size_t word;		/* the class, or a mapping's length */
	size_t mapped;
};

static pid_t heap_holder; /* 0: free */
static struct head *free_list[NR_CLASSES];
static char *bump, *bump_end;

/*
 * Take the lock. A word that holds another process's pid was copied by a
 * fork from a parent whose thread held it: no thread of this process will
 * give it back, and the lists it guards may be half changed. One thread
 * of the child takes it over (a compare-and-swap) and starts the lists
 * afresh; the blocks the child inherited stay valid, and go to its lists
 * when freed. getpid(2), not a cached pid: a raw fork runs no handler.
 */
static void heap_take(void)
{
	pid_t me = getpid();
	pid_t seen = 0;

	while (!__atomic_compare_exchange_n(&heap_holder, &seen, me, false, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		if (seen != me &&
		    __atomic_compare_exchange_n(&heap_holder, &seen, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			memset(free_list, 0, sizeof(free_list));
			bump = bump_end = NULL;
			return;
		}
		sched_yield();
		seen = 0;
	}
}

static void heap_give(void)
{
	__atomic_store_n(&heap_holder, 0, __ATOMIC_RELEASE);
}

static size_t class_bytes(size_t c)
{
	return (size_t)1 << (MIN_SHIFT + c);
}

/* @n bytes from the current chunk, or from a new one. Under the lock. */
static struct head *carve(size_t n)
{
	if ((size_t)(bump_end - bump) < n) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		bump = p;
		bump_end = p + CHUNK;
	}
	bump += n;
	return (struct head *)(void *)(bump - n);
}

static void *map_block(size_t size)
{
	struct head *h;
	size_t len = size + sizeof(*h);

	if (len < size)
		goto fail;
	h = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (h == MAP_FAILED)
		goto fail;
	h->word = len;
	h->mapped = 1;
	return h + 1;
fail:
	errno = ENOMEM;
	return NULL;
}

void *selfmon_heap__malloc(size_t size)
{
	struct head *h;
	size_t c = 0;

	if (size > class_bytes(NR_CLASSES - 1) - sizeof(*h))
		return map_block(size);
	while (class_bytes(c) - sizeof(*h) < size)
		c++;
	heap_take();
	h = free_list[c];
	if (h)
		free_list[c] = *(struct head **)(void *)(h + 1);
	else
		h = carve(class_bytes(c));
	heap_give();
	if (!h) {
		errno = ENOMEM;
		return NULL;
	}
	h->word = c;
	h->mapped = 0;
	return h + 1;
}

void *selfmon_heap__calloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = selfmon_heap__malloc(nmemb * size);
	if (p)
		memset(p, 0, nmemb * size);
	return p;
}

/* The bytes a block holds: what realloc may keep in place, and copies. */
static size_t usable(const struct head *h)
{
	return (h->mapped ? h->word : class_bytes(h->word)) - sizeof(*h);
}

void *selfmon_heap__realloc(void *ptr, size_t size)
{
	size_t have;
	void *n;

	if (!ptr)
		return selfmon_heap__malloc(size);
	have = usable((struct head *)ptr - 1);
	if (size <= have)
		return ptr;
	n = selfmon_heap__malloc(size);
	if (n) {
		memcpy(n, ptr, have);
		selfmon_heap__free(ptr);
	}
	return n;
}

void selfmon_heap__free(void *ptr)
{
	struct head *h;

	if (!ptr)
		return;
	h = (struct head *)ptr - 1;
	if (h->mapped) {
		munmap(h, h->word);
		return;
	}
	heap_take();
	*(struct head **)ptr = free_list[h->word];
	free_list[h->word] = h;
	heap_give();
}
