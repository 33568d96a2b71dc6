// SPDX-License-Identifier: MIT
/*
 * The perf.data writer (<selfmon/perfdata.h>), after the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt:
 *
 *	perf_header (PERFILE2) | ids (u64 each) | attrs | data ...
 *
 * "Attributes": each entry is the attr, attr.size bytes, then a
 * perf_file_section pointing at its ids; header.attr_size is that sum. perf
 * 6.1 refuses an attr larger than its own (read_attr()), so the attr is
 * written at the size the sampler opened it with, the uapi header's.
 * "Data": the records as the kernel gave them. No feature section: perf
 * reads a file without one ("Flags section": each feature is optional), and
 * takes the arch, the CPU and the build ids from the running machine and
 * the files the MMAP2 records name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <selfmon/outfile.h>
#include <selfmon/perfdata.h>
#include <selfmon/selfmon.h>
#include "../core/error.h"
#include "../core/errtext.h"
#include "maps.h"

struct file_section {
	uint64_t offset, size;
};

/* "The file starts with a perf_header" */
struct file_header {
	char magic[8];
	uint64_t size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t flags[4]; /* flags, flags1[3]: HEADER_FEAT_BITS = 256 */
};

struct selfmon_perfdata {
	FILE *f;
	char *path;
	char *tmp; /* the file being written, renamed to @path at close */
	struct selfmon_record_layout layout;
	uint64_t id; /* the first sampling event's: synthesized records' */
	uint32_t pid, tid;
	struct file_header h;
	int err; /* the first write error */
};

static int io_err(struct selfmon_perfdata *pd, const char *what)
{
	int err = errno ? -errno : -EIO;

	if (!pd->err)
		pd->err =
			selfmon__err(err, "perf.data '%s': %s: %s", pd->path, what, selfmon_errtext__str(-err));
	return pd->err;
}

static int put(struct selfmon_perfdata *pd, const void *p, size_t n)
{
	if (pd->err)
		return pd->err;
	errno = 0;
	return fwrite(p, 1, n, pd->f) == n ? 0 : io_err(pd, "write");
}

/* The sample_id trailer synthesized records need when the events have sample_id_all. */
static size_t trailer(const struct selfmon_perfdata *pd, uint64_t *w)
{
	uint64_t t = pd->layout.sample_type;
	size_t n = 0;

	if (!pd->layout.sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID)
		w[n++] = (uint64_t)pd->tid << 32 | pd->pid;
	if (t & PERF_SAMPLE_TIME)
		w[n++] = 0; /* before every sample, as perf's synthesized records */
	if (t & PERF_SAMPLE_ID)
		w[n++] = pd->id;
	if (t & PERF_SAMPLE_STREAM_ID)
		w[n++] = pd->id;
	if (t & PERF_SAMPLE_CPU)
		w[n++] = 0;
	if (t & PERF_SAMPLE_IDENTIFIER)
		w[n++] = pd->id;
	return n * 8;
}

/* header, @body (@len bytes), a NUL-padded @str, the trailer. */
static int put_record(struct selfmon_perfdata *pd, uint32_t type, const void *body, size_t len,
		      const char *str)
{
	uint64_t tail[6], zero = 0;
	size_t slen = strlen(str) + 1, pad = (8 - (len + slen) % 8) % 8, tlen = trailer(pd, tail);
	struct perf_event_header h = { type, PERF_RECORD_MISC_USER, 0 };
	size_t size = sizeof(h) + len + slen + pad + tlen;
	int err;

	if (size > UINT16_MAX)
		return 0; /* a path longer than a record holds: the kernel cuts it too */
	h.size = (uint16_t)size;
	err = put(pd, &h, sizeof(h));
	if (!err)
		err = put(pd, body, len);
	if (!err)
		err = put(pd, str, slen);
	if (!err && pad)
		err = put(pd, &zero, pad);
	if (!err && tlen)
		err = put(pd, tail, tlen);
	return err;
}

/* PERF_RECORD_COMM of the calling thread (its name from /proc/thread-self/comm). */
static int put_comm(struct selfmon_perfdata *pd)
{
	uint32_t body[2] = { pd->pid, pd->tid };
	char comm[32] = "selfmon";
	FILE *f = fopen("/proc/thread-self/comm", "re");

	/*
	 * The name as the thread set it (prctl(2) PR_SET_NAME takes any byte but
	 * NUL, a newline too), then the file's own newline: only that one goes.
	 */
	if (f) {
		size_t n = fread(comm, 1, sizeof(comm) - 1, f);

		if (n) {
			n -= comm[n - 1] == '\n';
			comm[n] = '\0';
		}
		fclose(f);
	}
	return put_record(pd, PERF_RECORD_COMM, body, sizeof(body), comm);
}

/* PERF_RECORD_MMAP2 of each file-backed exec mapping, as the kernel would have written it. */
static int put_mmaps(struct selfmon_perfdata *pd)
{
	struct selfmon_map *maps;
	int nr, err = selfmon_maps__read_exec(&maps, &nr);

	for (int i = 0; !err && i < nr; i++) {
		const struct selfmon_map *m = &maps[i];
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
		} b = { pd->pid,
			pd->pid,
			m->start,
			m->end - m->start,
			m->pgoff,
			m->maj,
			m->min,
			m->ino,
			0,
			m->prot,
			m->shared ? MAP_SHARED : MAP_PRIVATE };
		char name[4096 + sizeof(" (deleted)")];

		/* The kernel's MMAP2 names a deleted file as d_path() does, " (deleted)" after it. */
		snprintf(name, sizeof(name), "%s%s", m->path, m->deleted ? " (deleted)" : "");
		if (m->path[0] == '/')
			err = put_record(pd, PERF_RECORD_MMAP2, &b, sizeof(b), name);
	}
	selfmon_maps__free(maps, nr);
	return err;
}

/* ids right after the header, then the attrs; the data section starts after them. */
static int put_attrs(struct selfmon_perfdata *pd, const struct selfmon_sampler *s)
{
	int nr = selfmon_sampler__nr(s), err = 0;
	uint64_t off = sizeof(struct file_header), attr_size = selfmon_sampler__attr(s, 0)->size;

	for (int i = 0; !err && i < nr; i++) {
		uint64_t id = selfmon_sampler__id(s, i);

		err = put(pd, &id, sizeof(id));
	}
	pd->h.attr_size = attr_size + sizeof(struct file_section);
	pd->h.attrs =
		(struct file_section){ off + (uint64_t)nr * 8, (uint64_t)nr * pd->h.attr_size };
	for (int i = 0; !err && i < nr; i++) {
		struct file_section ids = { off + (uint64_t)i * 8, 8 };

		err = put(pd, selfmon_sampler__attr(s, i), attr_size);
		if (!err)
			err = put(pd, &ids, sizeof(ids));
	}
	pd->h.data.offset = pd->h.attrs.offset + pd->h.attrs.size;
	return err;
}

static void perfdata_free(struct selfmon_perfdata *pd)
{
	if (pd->f)
		fclose(pd->f);
	selfmon_outfile__discard(pd->tmp);
	free(pd->path);
	free(pd);
}

struct selfmon_perfdata *selfmon_perfdata__open(const char *path, const struct selfmon_sampler *s)
{
	struct selfmon_perfdata *pd = NULL;
	struct file_header zero = { 0 };
	int err = -EINVAL, fd;

	if (!path || !s || selfmon_sampler__nr(s) <= 0) {
		selfmon__err(
			err, "selfmon_perfdata__open: %s",
			!path ? "a NULL path" :
			!s    ? "a NULL sampler" :
				"the sampler has no event of its own (one made by "
				"selfmon_sampler__attach() has no ids for the file's header): open the "
				"file for a sampler from selfmon_sampler__open()");
		goto out;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd)
		pd->path = strdup(path);
	if (!pd || !pd->path) {
		err = selfmon__err(-ENOMEM, "perf.data '%s': no memory", path);
		goto out;
	}
	pd->layout = *selfmon_sampler__layout(s);
	pd->id = selfmon_sampler__id(s, 0);
	pd->pid = (uint32_t)getpid();
	pd->tid = (uint32_t)syscall(SYS_gettid);
	fd = selfmon_outfile__open("perf.data", path, &pd->tmp);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	pd->f = fdopen(fd, "wb");
	err = pd->f ? 0 : io_err(pd, "fdopen");
	if (!pd->f)
		close(fd);
	if (!err)
		err = put(pd, &zero, sizeof(zero));
	if (!err)
		err = put_attrs(pd, s);
	if (!err)
		err = put_comm(pd);
	if (!err)
		err = put_mmaps(pd);
out:
	if (err && pd) {
		perfdata_free(pd);
		pd = NULL;
	}
	if (err)
		errno = -err;
	return pd;
}

int selfmon_perfdata__write(struct selfmon_perfdata *pd, const struct selfmon_record *rec)
{
	if (!pd || !rec || !rec->data || rec->size < sizeof(struct perf_event_header))
		return selfmon__err(-EINVAL, "selfmon_perfdata__write: %s",
				    !pd || !rec ? "a NULL argument" :
						  "a record without its bytes (rec->data)");
	return put(pd, rec->data, rec->size);
}

int selfmon_perfdata__close(struct selfmon_perfdata *pd)
{
	int err;
	long end;

	if (!pd)
		return 0;
	errno = 0;
	end = pd->err ? -1 : ftell(pd->f);
	if (end < 0) {
		err = pd->err ? pd->err : io_err(pd, "ftell");
		goto out;
	}
	memcpy(pd->h.magic, "PERFILE2", 8);
	pd->h.size = sizeof(pd->h);
	pd->h.data.size = (uint64_t)end - pd->h.data.offset;
	err = fseek(pd->f, 0, SEEK_SET) ? io_err(pd, "seek") : put(pd, &pd->h, sizeof(pd->h));
	if (!err && fflush(pd->f))
		err = io_err(pd, "write");
out:
	errno = 0;
	if (fclose(pd->f) && !err)
		err = io_err(pd, "close");
	pd->f = NULL;
	/* Finished: in place of the old file; unfinished: the old file stays. */
	if (!err)
		err = selfmon_outfile__commit("perf.data", pd->path, pd->tmp, true);
	else
		selfmon_outfile__discard(pd->tmp);
	pd->tmp = NULL;
	perfdata_free(pd);
	return err;
}
