// SPDX-License-Identifier: MIT
/*
 * Where the markers' report goes: $SELFMON_OUTPUT, written as
 * <selfmon/outfile.h> writes a file (whole or not at all, never through a
 * link), a name of its own for a forked child, and nothing a variable names
 * in a program that runs with raised rights; else stderr.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>

#include <selfmon/outfile.h>
#include <selfmon/selfmon.h>
#include "marker_int.h"

/*
 * $SELFMON_FORMAT, else the extension of the report's file (@name, as
 * SELFMON_OUTPUT gave it), else a table. Followed with raised rights too: it
 * picks a layout, never a file.
 */
static const char *report_format(const char *name)
{
	const char *fmt = getenv("SELFMON_FORMAT"), *dot = name ? strrchr(name, '.') : NULL;
	char q[96];

	if (fmt && (!strcmp(fmt, "table") || !strcmp(fmt, "csv") || !strcmp(fmt, "json")))
		return fmt;
	if (fmt && *fmt)
		mk_say("SELFMON_FORMAT='%s' is not a format: use table, csv or json; writing a table",
		       mk_quote(q, sizeof(q), fmt));
	if (dot && (!strcmp(dot, ".json") || !strcmp(dot, ".csv")))
		return dot + 1;
	return "table";
}

/*
 * SELFMON_OUTPUT, unless this program runs with raised rights (AT_SECURE,
 * getauxval(3): setuid, setgid, file capabilities): a file it names would be
 * created or replaced with those rights, whoever set the variable. Then it
 * is ignored, said once, and the report goes to stderr. NULL: stderr.
 */
static const char *output_env(void)
{
	static int said;
	const char *out = secure_getenv("SELFMON_OUTPUT");
	char q[96];

	if (!out && getauxval(AT_SECURE))
		out = getenv("SELFMON_OUTPUT");
	if (out && *out && getauxval(AT_SECURE) && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		mk_say("SELFMON_OUTPUT='%s' ignored: this program runs with raised rights (setuid, "
		       "setgid or file capabilities), which the file would be written with; the report "
		       "goes to stderr",
		       mk_quote(q, sizeof(q), out));
	return out && *out && !getauxval(AT_SECURE) ? out : NULL;
}

/* @name with "%p" as this process's pid and "%%" as "%", into @buf. Return: 0, or -ENAMETOOLONG. */
static int expand_pid(char *buf, size_t size, const char *name)
{
	size_t o = 0;

	for (const char *p = name; *p; p++) {
		int n = 1;

		if (p[0] == '%' && p[1] == 'p') {
			n = snprintf(buf + o, size - o, "%d", (int)getpid());
			p++;
		} else {
			p += p[0] == '%' && p[1] == '%';
			if (o + 1 < size)
				buf[o] = *p;
		}
		if (n < 0 || o + (size_t)n >= size)
			return -ENAMETOOLONG;
		o += (size_t)n;
	}
	buf[o] = '\0';
	return 0;
}

/*
 * A forked child that kept its parent's SELFMON_OUTPUT would replace its
 * parent's report, or its parent its (report_path() gives it a name of its
 * own). A child forked while markers were on is told by marker_thread.c's
 * atfork handlers, with the name as it was at the fork. One forked before
 * any marker is told by its pid, against the pid and the name of the
 * process that loaded the library: not by an atfork handler registered at
 * load, which musl's pthread_atfork(3) allocates for with the C library's
 * malloc, in every static program linked with libselfmon.a, markers or not
 * (Kconfig, SMALL_HEAP). The names are copied by hand, not by snprintf(3),
 * for the same programs: one call of the printf family would link the C
 * library's whole formatter into the smallest of them (docs/building.md,
 * "Size").
 */
static pid_t mk_load_pid;
static char mk_output_at_load[sizeof(mk.fork_output)];

void mk_copy_output(char *to, size_t size)
{
	const char *out = secure_getenv("SELFMON_OUTPUT");
	size_t n = out ? strnlen(out, size - 1) : 0;

	memcpy(to, out ? out : "", n);
	to[n] = '\0';
}

/* First of the constructors that may use it (priority 101): one of the program's may fork. */
__attribute__((constructor(101))) static void mk_load(void)
{
	mk_copy_output(mk_output_at_load, sizeof(mk_output_at_load));
	mk_load_pid = getpid();
}

/* 1 if this process is a forked child whose SELFMON_OUTPUT, @out, is its parent's. */
static int mk_output_inherited(const char *out)
{
	if (mk.forked)
		return !strcmp(out, mk.fork_output);
	return getpid() != mk_load_pid && !strcmp(out, mk_output_at_load);
}

/*
 * The report's file, into @buf: SELFMON_OUTPUT with "%p" expanded. A
 * forked child whose SELFMON_OUTPUT is still the one it had at the fork, and
 * names no "%p", would replace its parent's report (or its parent its): it
 * writes "<name>.<pid>", said once.
 * NULL: stderr.
 */
static const char *report_path(char *buf, size_t size, const char *out)
{
	static pid_t said;
	bool inherited = mk_output_inherited(out);
	char q[96], q2[96];
	int n;

	if (expand_pid(buf, size, out))
		goto too_long;
	if (!inherited || strstr(out, "%p"))
		return buf;
	n = (int)strlen(buf);
	if (snprintf(buf + n, size - (size_t)n, ".%d", (int)getpid()) >= (int)size - n)
		goto too_long;
	if (said != getpid()) {
		said = getpid();
		mk_say("this process (pid %d) is a fork of one that writes SELFMON_OUTPUT='%s': its "
		       "report goes to '%s' (a '%%p' in the name is the pid)",
		       (int)getpid(), mk_quote(q, sizeof(q), out), mk_quote(q2, sizeof(q2), buf));
	}
	return buf;
too_long:
	mk_say("SELFMON_OUTPUT='%s' is too long a name with its pid: name a shorter file; the "
	       "report goes to stderr",
	       mk_quote(q, sizeof(q), out));
	return NULL;
}

/* Why the report's file cannot be opened (-@err), with the fix. */
static void say_cannot_open(const char *out, int err)
{
	char q[96];

	if (err == -ELOOP)
		mk_say("cannot write the report to SELFMON_OUTPUT='%s': it is a symbolic link, and "
		       "markers write no file through a link. Fix: name the file itself, or remove the "
		       "link; the report goes to stderr",
		       mk_quote(q, sizeof(q), out));
	else
		mk_say("cannot write the report to SELFMON_OUTPUT='%s': %s. Fix: name a file in a "
		       "writable directory; the report goes to stderr",
		       mk_quote(q, sizeof(q), out), strerror(-err));
}

/*
 * The report to @path as <selfmon/outfile.h> writes a file: whole or not at
 * all, never through a link. Return: 0; -errno, said, once open; or 1 where
 * @path could not be opened (said: the report goes to stderr).
 */
static int report_file(const char *path, const char *format)
{
	char *tmp = NULL, e[320];
	int fd, err;
	FILE *f;

	fd = selfmon_outfile__open("SELFMON_OUTPUT", path, &tmp);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		err = fd >= 0 ? -errno : fd;
		if (fd >= 0)
			close(fd);
		selfmon_outfile__discard(tmp);
		say_cannot_open(path, err);
		return 1;
	}
	pthread_mutex_lock(&mk.lock);
	err = mk_report_to(f, format);
	pthread_mutex_unlock(&mk.lock);
	if (fclose(f) && !err)
		err = -errno;
	if (err) {
		selfmon_outfile__discard(tmp);
		mk_say("the report could not be written in full to '%s': %s; the file is as it was",
		       mk_quote(e, sizeof(e), path), strerror(-err));
		return err;
	}
	err = selfmon_outfile__commit("SELFMON_OUTPUT", path, tmp, false);
	if (err)
		mk_say("%s", mk_errmsg(e, sizeof(e)));
	return err;
}

int mk_report_write(void)
{
	const char *out = output_env(), *path = NULL;
	char buf[4096];
	int err;

	if (out)
		path = report_path(buf, sizeof(buf), out);
	if (path) {
		err = report_file(path, report_format(out));
		if (err <= 0)
			return err;
	}
	/* The file's extension picks no format for stderr: a table, unless SELFMON_FORMAT says. */
	pthread_mutex_lock(&mk.lock);
	err = mk_report_to(stderr, report_format(NULL));
	pthread_mutex_unlock(&mk.lock);
	if (err)
		mk_say("the report could not be written in full: %s", strerror(-err));
	return err;
}
