/* SPDX-License-Identifier: MIT */
/* The writer tests' capture: what @call writes to FILE *f, as a string. Include after <cmocka.h>. */
#ifndef SELFMON_TEST_CAPTURE_H
#define SELFMON_TEST_CAPTURE_H

#include <stdio.h>

/* Run @call with FILE *f open on memory and leave the text in @buf (free it). */
#define CAPTURE(buf, call)							\
	do {									\
		size_t __len;							\
		FILE *f = open_memstream(&(buf), &__len);			\
		assert_non_null(f);						\
		call;								\
		fclose(f);							\
	} while (0)

#endif
