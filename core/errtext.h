/* SPDX-License-Identifier: MIT */
#ifndef SELFMON_CORE_ERRTEXT_H
#define SELFMON_CORE_ERRTEXT_H

/*
 * The text of an errno value in the library's messages. errtext.c gives
 * the C library's sentence (strerror(3)); errtext_names.c, the build
 * without CONFIG_ERRNO_TEXT, gives the error's symbolic name ("EACCES")
 * for the errors that the library's system calls return and "errno N" for
 * any other: musl's table of sentences is 2.2 KB of the smallest image
 * (Kconfig, ERRNO_TEXT). Either text is the caller's to print until this
 * thread's next call; the caller must not free or change it.
 */
const char *selfmon_errtext__str(int errnum);

#endif
