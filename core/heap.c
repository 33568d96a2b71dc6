// SPDX-License-Identifier: MIT
/* heap.h by the C library: the build without CONFIG_SMALL_HEAP. */
#include <stdlib.h>

#include "heap.h"

void *selfmon_heap__malloc(size_t size)
{
	return malloc(size);
}

void *selfmon_heap__calloc(size_t nmemb, size_t size)
{
	return calloc(nmemb, size);
}

void *selfmon_heap__realloc(void *ptr, size_t size)
{
	return realloc(ptr, size);
}

void selfmon_heap__free(void *ptr)
{
	free(ptr);
}
