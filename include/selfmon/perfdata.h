/* SPDX-License-Identifier: MIT */
/*
 * selfmon perf.data: a sampler's records in the file `perf script` and `perf
 * report` read (the kernel's tools/perf/Documentation/perf.data-file-format.txt):
 * the PERFILE2 header, the attrs and ids of the sampler's events, and the
 * data section. The process's executable mappings and its thread's name are
 * written first, as perf record does, as MMAP2 and COMM records taken from
 * /proc/self/maps: they predate the sampler, so the kernel never reports them,
 * and perf needs them to name the functions the samples hit.
 */
#ifndef SELFMON_PERFDATA_H
#define SELFMON_PERFDATA_H

#include <selfmon/sampler.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A perf.data file being written. Opaque. */
struct selfmon_perfdata;

/**
 * selfmon_perfdata__open() - start a perf.data file for @s's records
 * @path: written whole at selfmon_perfdata__close(): the records go to a
 *	new file beside it ("@path.part-XXXXXX", created with O_EXCL and
 *	O_NOFOLLOW), renamed over @path once its header is written; an
 *	existing @path is kept as "@path.old", as perf record does. Until then
 *	@path is untouched, and a process that dies leaves it as it was.
 *	@path may be a character device or a FIFO (/dev/null), written in
 *	place; a symbolic link is refused unless it leads to one of those:
 *	no file is written, or created, through a link.
 * @s: the sampler whose records will be written; its events' attrs and ids
 *	go into the header. Call it on the sampler's thread: the COMM record
 *	names the calling thread.
 *
 * Return: the writer, or NULL with errno set and selfmon_errmsg() naming the
 * file and the cause.
 */
struct selfmon_perfdata *selfmon_perfdata__open(const char *path, const struct selfmon_sampler *s);

/**
 * selfmon_perfdata__write() - append one record, as the kernel wrote it
 * @rec: a record handed over by selfmon_sampler__drain() (its @data bytes)
 * Return: 0, or -errno of the write (the message names the file); -EINVAL
 * for a record without its bytes.
 */
int selfmon_perfdata__write(struct selfmon_perfdata *pd, const struct selfmon_record *rec);

/**
 * selfmon_perfdata__close() - finish the header, close, and put the file in
 * place of the old one (kept as "@path.old"); frees @pd always
 * Return: 0, or -errno of the last writes (a full disk shows here; the
 * message names the file), and then the new file is removed and the old one
 * left as it was. NULL is fine (0).
 */
int selfmon_perfdata__close(struct selfmon_perfdata *pd);

#ifdef __cplusplus
}
#endif

#endif /* SELFMON_PERFDATA_H */
