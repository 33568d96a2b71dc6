// SPDX-License-Identifier: MIT
/*
 * <selfmon/symbols.h>: an address of this process -> the function it lies
 * in. The executable mappings of /proc/self/maps, each file's symbols read
 * by selfmon's own ELF reader (sample/elf.c says why not elfutils). A file
 * mapped several times is read once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <selfmon/selfmon.h>
#include <selfmon/symbols.h>
#include "elf.h"
#include "../core/error.h"
#include "../core/errtext.h"
#include "maps.h"
#include "../util/err.h"

/* A mapped file larger than this is not read (no library is near it). */
#define MAX_FILE (1ull << 30)

struct sym_file {
	char *path;
	struct selfmon_elf elf;
	int deleted; /* the mapped file is gone from its path */
	int err; /* reading or parsing it failed so */
	char msg[256]; /* ...and said this */
};

struct selfmon_symbols {
	struct selfmon_map *maps;
	int nr_maps;
	int *file_of; /* per map: index in files, -1 for none ([vdso]...) */
	struct sym_file *files;
	int nr_files;
};

static int read_whole(const char *path, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	struct stat st;
	size_t got = 0;

	*buf = NULL;
	if (fd < 0)
		return selfmon__err(-errno, "'%s': %s", path, selfmon_errtext__str(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > MAX_FILE) {
		err = selfmon__err(-EINVAL, "'%s': not a regular file of at most 1 GiB", path);
		goto out;
	}
	*buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!*buf) {
		err = selfmon__err(-ENOMEM, "'%s': no memory for its %lld bytes", path,
				   (long long)st.st_size);
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			err = selfmon__err(n ? -errno : -EIO, "'%s': read: %s", path,
					   n ? selfmon_errtext__str(errno) : "the file shrank");
			goto out;
		}
		got += (size_t)n;
	}
	*len = got;
out:
	close(fd);
	if (err) {
		free(*buf);
		*buf = NULL;
	}
	return err;
}

static int load_elf(const char *path, struct selfmon_elf *elf)
{
	uint8_t *buf;
	size_t len = 0;
	int err = read_whole(path, &buf, &len);

	if (!err) {
		err = selfmon_elf__parse(buf, len, path, elf);
		free(buf);
	}
	return err;
}

/*
 * A stripped file (only .dynsym: exported names) whose separate debug file
 * is installed, as Debian's -dbg packages put them: its .symtab, which has
 * the static functions too, under /usr/lib/debug/.build-id/xx/yyyy.debug
 * (the GDB manual, "Separate Debug Files"), as perf and gdb find it. The
 * debug file's symbols count addresses as the stripped file does; the
 * stripped file's PT_LOADs stay.
 */
static void load_debug_symbols(struct sym_file *f)
{
	char path[64 + 2 * sizeof(f->elf.build_id)];
	struct selfmon_elf dbg;
	size_t n;

	if (f->elf.symtab || !f->elf.build_id_len)
		return;
	n = (size_t)snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/",
			     f->elf.build_id[0]);
	for (uint32_t i = 1; i < f->elf.build_id_len; i++)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "%02x", f->elf.build_id[i]);
	snprintf(path + n, sizeof(path) - n, ".debug");
	if (access(path, R_OK) || load_elf(path, &dbg))
		return;
	if (dbg.symtab && dbg.nr) {
		free(f->elf.syms);
		free(f->elf.names);
		f->elf.syms = dbg.syms;
		f->elf.nr = dbg.nr;
		f->elf.names = dbg.names;
		f->elf.names_len = dbg.names_len;
		f->elf.symtab = 1;
		dbg.syms = NULL;
		dbg.names = NULL;
	}
	selfmon_elf__fini(&dbg);
}

static void load_file(struct sym_file *f)
{
	f->err = load_elf(f->path, &f->elf);
	if (f->err)
		snprintf(f->msg, sizeof(f->msg), "%s", selfmon_errmsg());
	else
		load_debug_symbols(f);
}

/*
 * The file of map @m: a path ("/...") is read once, whatever maps it. A
 * file deleted since it was mapped is not opened by its name, which now
 * names another file or none: its addresses get an error saying so.
 */
static int file_for(struct selfmon_symbols *sy, const struct selfmon_map *m)
{
	struct sym_file *f;

	if (m->path[0] != '/')
		return -1;
	for (int k = 0; k < sy->nr_files; k++)
		if (!strcmp(sy->files[k].path, m->path) && !sy->files[k].deleted == !m->deleted)
			return k;
	f = &sy->files[sy->nr_files];
	memset(f, 0, sizeof(*f));
	f->path = strdup(m->path);
	if (!f->path)
		return -2;
	f->deleted = m->deleted;
	if (m->deleted) {
		f->err = -ENOENT;
		snprintf(f->msg, sizeof(f->msg),
			 "'%.100s' was deleted or replaced after it was "
			 "mapped (\"(deleted)\" in /proc/self/maps): its name no longer holds "
			 "those symbols",
			 m->path);
	} else {
		load_file(f);
	}
	return sy->nr_files++;
}

struct selfmon_symbols *selfmon_symbols__open(void)
{
	struct selfmon_symbols *sy = calloc(1, sizeof(*sy));
	int err = -ENOMEM;

	if (!sy)
		goto out;
	err = selfmon_maps__read_exec(&sy->maps, &sy->nr_maps);
	if (err)
		goto out;
	sy->file_of = calloc((size_t)sy->nr_maps + 1, sizeof(*sy->file_of));
	sy->files = calloc((size_t)sy->nr_maps + 1, sizeof(*sy->files));
	err = sy->file_of && sy->files ? 0 : -ENOMEM;
	for (int i = 0; !err && i < sy->nr_maps; i++) {
		sy->file_of[i] = file_for(sy, &sy->maps[i]);
		if (sy->file_of[i] == -2)
			err = -ENOMEM;
	}
out:
	if (err == -ENOMEM)
		selfmon__err(err, "selfmon_symbols__open: no memory");
	if (err) {
		selfmon_symbols__close(sy);
		return util_null_errno(err);
	}
	selfmon__err_clear();
	return sy;
}

/*
 * The function of @sym->file_addr in @elf: a symbol's, else a PLT entry's
 * (NAME@plt: no symbol table covers the stubs, see sample/elf_plt.c).
 */
static int name_in(const struct selfmon_elf *elf, struct selfmon_symbol *sym)
{
	long k = selfmon_elf__lookup(elf, sym->file_addr);

	if (k >= 0) {
		sym->name = elf->names + elf->syms[k].name;
		sym->offset = sym->file_addr - elf->syms[k].addr;
		return 0;
	}
	k = selfmon_elf__lookup_plt(elf, sym->file_addr);
	if (k < 0)
		return -ENOENT;
	sym->name = elf->plt_names + elf->plt[k].name;
	sym->offset = sym->file_addr - elf->plt[k].addr;
	return 0;
}

int selfmon_symbols__lookup(const struct selfmon_symbols *sy, uint64_t addr,
			    struct selfmon_symbol *sym)
{
	const struct selfmon_map *m = NULL;
	const struct sym_file *f;
	int i;

	if (!sy || !sym)
		return -EINVAL;
	memset(sym, 0, sizeof(*sym));
	for (i = 0; i < sy->nr_maps && !m; i++)
		if (addr >= sy->maps[i].start && addr < sy->maps[i].end)
			m = &sy->maps[i];
	if (!m)
		return selfmon__err(-ENOENT, "%#llx lies in no executable mapping of this process",
				    (unsigned long long)addr);
	sym->file = m->path;
	if (sy->file_of[i - 1] < 0)
		return selfmon__err(-ENOENT, "%#llx lies in '%s', which has no file to read",
				    (unsigned long long)addr, m->path);
	f = &sy->files[sy->file_of[i - 1]];
	if (f->err)
		return selfmon__err(f->err, "%s", f->msg);
	if (selfmon_elf__vaddr(&f->elf, addr - m->start + m->pgoff, &sym->file_addr))
		return selfmon__err(-ENOENT, "%#llx: offset %#llx of '%s' is in no PT_LOAD segment",
				    (unsigned long long)addr,
				    (unsigned long long)addr - m->start + m->pgoff, f->path);
	if (!name_in(&f->elf, sym))
		return 0;
	return selfmon__err(-ENOENT, "%#llx (%#llx in '%s'): no function symbol holds it%s",
			    (unsigned long long)addr, (unsigned long long)sym->file_addr, f->path,
			    f->elf.nr ? "" : " (the file has no symbol table)");
}

void selfmon_symbols__close(struct selfmon_symbols *sy)
{
	if (!sy)
		return;
	for (int k = 0; k < sy->nr_files; k++) {
		selfmon_elf__fini(&sy->files[k].elf);
		free(sy->files[k].path);
	}
	free(sy->files);
	free(sy->file_of);
	selfmon_maps__free(sy->maps, sy->nr_maps);
	free(sy);
}
