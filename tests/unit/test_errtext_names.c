// SPDX-License-Identifier: MIT
/*
 * A library built without CONFIG_ERRNO_TEXT (core/errtext_names.c, linked
 * here in place of errtext.c on any build): an errno in a message, and
 * selfmon_strerror() of one, reads as the error's name for the errors the
 * library's calls return, and as "errno N" for any other, never as
 * nothing. The library's own codes keep their sentences.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include "../../core/errtext.h"

static void an_expected_errno_reads_as_its_name(void **state)
{
	(void)state;
	/* The list's first, its last, and some between. */
	assert_string_equal(selfmon_errtext__str(EPERM), "EPERM");
	assert_string_equal(selfmon_errtext__str(EDQUOT), "EDQUOT");
	assert_string_equal(selfmon_errtext__str(EACCES), "EACCES");
	assert_string_equal(selfmon_errtext__str(ENOENT), "ENOENT");
	assert_string_equal(selfmon_errtext__str(EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(selfmon_errtext__str(ENAMETOOLONG), "ENAMETOOLONG");
}

static void any_other_errno_reads_as_its_number(void **state)
{
	(void)state;
	assert_string_equal(selfmon_errtext__str(EHOSTDOWN), "errno 112");
	assert_string_equal(selfmon_errtext__str(0), "errno 0");
	assert_string_equal(selfmon_errtext__str(-5), "errno -5");
	assert_string_equal(selfmon_errtext__str(255 + EPERM), "errno 256");
	assert_string_equal(selfmon_errtext__str(INT32_MIN), "errno -2147483648");
}

static void selfmon_strerror_names_an_errno_of_either_sign(void **state)
{
	(void)state;
	assert_string_equal(selfmon_strerror(-ENODEV), "ENODEV");
	assert_string_equal(selfmon_strerror(EMFILE), "EMFILE");
	assert_string_equal(selfmon_strerror(-SELFMON_ERRNO__SYNTAX), "invalid event syntax");
}

static void *other_thread(void *arg)
{
	const char **text = arg;

	*text = selfmon_errtext__str(4000);
	return NULL;
}

static void a_number_text_is_the_calling_thread_s_own(void **state)
{
	const char *mine, *theirs = NULL;
	pthread_t t;

	(void)state;
	mine = selfmon_errtext__str(3000);
	assert_int_equal(pthread_create(&t, NULL, other_thread, &theirs), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_string_equal(mine, "errno 3000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_expected_errno_reads_as_its_name),
		cmocka_unit_test(any_other_errno_reads_as_its_number),
		cmocka_unit_test(selfmon_strerror_names_an_errno_of_either_sign),
		cmocka_unit_test(a_number_text_is_the_calling_thread_s_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
