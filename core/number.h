/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_NUMBER_H
#define SELFMON_CORE_NUMBER_H

#include <stdint.h>

/*
 * Parse the digits of @base (2 to 16) at *@p into *@val, and move *@p past
 * them. Digits only: no blanks, sign or "0x", which strtol(3) and
 * strtoull(3) would take and no kernel file or event string carries. A
 * static musl program that calls those functions also carries the C
 * library's whole number scanner (docs/building.md, "Size").
 * Return: 0; -EINVAL where *@p starts with no digit; -ERANGE where the
 * number is over @max. On error *@p and *@val are left as they were.
 */
int selfmon_number__parse(const char **p, unsigned int base, uint64_t max, uint64_t *val);

#endif
