/* SPDX-License-Identifier: MIT */
/*
 * A scratch directory for a test program's files, made at its group's
 * setup and removed whole at its teardown (compare_cmd.h's, for
 * test_compare_command.c and test_compare_rows.c; test_compare_verdict.c).
 * Include after <cmocka.h>.
 */
#ifndef SELFMON_TEST_SCRATCH_H
#define SELFMON_TEST_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>

/* A new directory /tmp/@name.XXXXXX, its path in @dir. Return: 0 or -1. */
static inline int scratch__make(char *dir, size_t size, const char *name)
{
	snprintf(dir, size, "/tmp/%s.XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

/* @dir and all it holds removed. Return: 0, or the shell's status. */
static inline int scratch__remove(const char *dir)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

#endif
