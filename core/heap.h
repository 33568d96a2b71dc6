/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_HEAP_H
#define SELFMON_CORE_HEAP_H

#include <stddef.h>

/*
 * The memory of a set and what it opens: the library's own objects and, in
 * a musl build, libperf's (scripts/build-deps.sh points libperf's malloc,
 * calloc, realloc and free here). Each pointer goes back to the function
 * family that made it. heap.c forwards to the C library; heap_small.c
 * (CONFIG_SMALL_HEAP) is a small arena of its own, so that a static
 * program that calls no malloc of its own carries none of the C library's
 * (Kconfig, SMALL_HEAP). Same contracts as malloc(3), calloc(3),
 * realloc(3) and free(3), errno ENOMEM included.
 */
void *selfmon_heap__malloc(size_t size);
void *selfmon_heap__calloc(size_t nmemb, size_t size);
void *selfmon_heap__realloc(void *ptr, size_t size);
void selfmon_heap__free(void *ptr);

#endif
