// SPDX-License-Identifier: MIT
/*
 * A library built with CONFIG_ERRNO_TEXT (the default, core/errtext.c): an
 * errno in a message, and selfmon_strerror() of one, reads as the C
 * library's sentence for it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../core/errtext.h"

static void an_errno_reads_as_the_c_library_s_sentence(void **state)
{
	(void)state;
	assert_string_equal(selfmon_errtext__str(EACCES), strerror(EACCES));
	assert_string_equal(selfmon_errtext__str(EHOSTDOWN), strerror(EHOSTDOWN));
	assert_string_equal(selfmon_strerror(-ENODEV), strerror(ENODEV));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_errno_reads_as_the_c_library_s_sentence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
