/* Fatbinary architectures (see fatbin.h): which sm_XX and compute_XX a
 * CUDA library carries, from the headers of its fatbinaries alone.
 *
 * The layout, little-endian, as nvcc 13 writes it (and as the CUDA 12
 * and 13 libraries of the toolkit have it):
 *
 *   a section (.nv_fatbin, __nv_relfatbin) holds fatbinaries back to
 *   back; each is a 16-byte header
 *	0  u32 magic 0xBA55ED50
 *	4  u16 version (1)
 *	6  u16 header size (16)
 *	8  u64 size of the entries that follow the header
 *   and then its entries back to back; each entry is a header of at
 *   least 64 bytes followed by its payload
 *	0  u16 kind: 1 PTX, 2 ELF (SASS), 8 LTO-IR
 *	4  u32 header size: 64, 80, 96, 112 … (options and tables follow
 *	   the first 64 bytes from sm_100 on and for PTX)
 *	8  u64 payload size, padding included
 *	28 u32 architecture: 75 for sm_75 and compute_75
 *	40 u64 flags: 0x1 64-bit, 0x10 Linux; 0x1000 and 0x2000 (older
 *	   LZ compression) and 0x8000 (zstd) a compressed payload;
 *	   0x100000 arch-specific ("sm_90a"), 0x200000 family ("sm_100f")
 *   An empty fatbinary (size 0) is normal: nvcc writes one for a PTX-only
 *   build. The flag bits for "a" and "f" were found by compiling with
 *   -gencode arch=compute_90a,code=sm_90a and compute_100f,code=sm_100f.
 *
 * Every header is read with pread: never a payload, never a whole
 * section. Every size is checked against what is left of its fatbinary,
 * its section and the file before it is used, and every header moves
 * the position forwards by at least its own size, so a walk ends; the
 * number of headers is bounded as well. */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "loader/fatbin.h"
#include "util/xalloc.h"

#define FATBIN_MAGIC		0xba55ed50u
#define FATBIN_VERSION		1
#define FATBIN_HEADER_SIZE	16
#define ENTRY_HEADER_SIZE	64

#define FLAG_COMPRESSED		(0x1000u | 0x2000u | 0x8000u)
#define FLAG_ARCH_SPECIFIC	0x100000u
#define FLAG_FAMILY		0x200000u

/* The architecture numbers taken for real: sm_10 (2007) to sm_999. */
#define ARCH_MIN		10
#define ARCH_MAX		999

/* Linkers pad between input sections to their alignment (8 for the
 * fatbinary sections); zero bytes up to this boundary are skipped. */
#define PAD_ALIGN		16

struct walk {
	const char	*path;
	int		 fd;
	uint64_t	 fsize;
	size_t		 headers;
	fatbin_entry_fn	 fn;
	void		*arg;
	int		 stopped;	/* the callback's nonzero value */
	char		*err;
};

__attribute__((format(printf, 2, 3)))
static int
damage(struct walk *w, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (w->err != NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	w->err = xasprintf("%s: %s", w->path, msg);
	free(msg);
	return -1;
}

static uint64_t
le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/* n bytes at off, which the caller has checked lie inside the file as
 * fstat saw it; a short read means the file shrank under us. */
static int
read_at(struct walk *w, uint64_t off, unsigned char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(w->fd, buf + done, n - done,
		    (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return damage(w, _("cannot read %zu bytes at offset %ju: "
			    "%s"), n, (uintmax_t)off, strerror(errno));
		if (r == 0)
			return damage(w, _("the file ends at offset %ju, inside a "
			    "fatbinary header"), (uintmax_t)(off + done));
		done += (size_t)r;
	}
	return 0;
}

static int
count_header(struct walk *w)
{
	if (++w->headers > FATBIN_MAX_HEADERS)
		return damage(w, _("more than %d fatbinary headers: the file is "
		    "taken as damaged"), FATBIN_MAX_HEADERS);
	return 0;
}

static bool
all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static int
entry_from_header(struct walk *w, const unsigned char *h,
    struct fatbin_entry *e)
{
	uint64_t flags = le(h + 40, 8);

	e->kind = (unsigned)le(h, 2);
	e->arch = (unsigned)le(h + 28, 4);
	e->compressed = (flags & FLAG_COMPRESSED) != 0;
	e->variant = 0;
	if (e->kind != FATBIN_KIND_PTX && e->kind != FATBIN_KIND_SASS)
		return 0;
	if (e->arch < ARCH_MIN || e->arch > ARCH_MAX)
		return damage(w, _("%s, entry at offset %ju: architecture %u is "
		    "out of range"), e->section, (uintmax_t)e->offset, e->arch);
	if ((flags & FLAG_ARCH_SPECIFIC) && (flags & FLAG_FAMILY))
		return damage(w, _("%s, entry at offset %ju: both the "
		    "arch-specific and the family flag are set"), e->section,
		    (uintmax_t)e->offset);
	if (flags & FLAG_ARCH_SPECIFIC)
		e->variant = 'a';
	else if (flags & FLAG_FAMILY)
		e->variant = 'f';
	return 0;
}

/* The entries of one fatbinary, from off up to end. */
static int
walk_entries(struct walk *w, const char *section, uint64_t fatbin,
    uint64_t off, uint64_t end)
{
	unsigned char h[ENTRY_HEADER_SIZE];

	while (off < end) {
		struct fatbin_entry e;
		uint64_t left = end - off, hsize, psize;
		int rc;

		if (left < ENTRY_HEADER_SIZE)
			return damage(w, _("%s, fatbinary at offset %ju: %ju bytes "
			    "are left at offset %ju, too few for an entry header"),
			    section, (uintmax_t)fatbin, (uintmax_t)left,
			    (uintmax_t)off);
		if (count_header(w) != 0 || read_at(w, off, h, sizeof h) != 0)
			return -1;
		hsize = le(h + 4, 4);
		psize = le(h + 8, 8);
		if (hsize < ENTRY_HEADER_SIZE || hsize > left)
			return damage(w, _("%s, entry at offset %ju: a header size "
			    "of %ju bytes (%ju are left in its fatbinary)"),
			    section, (uintmax_t)off, (uintmax_t)hsize,
			    (uintmax_t)left);
		if (psize > left - hsize)
			return damage(w, _("%s, entry at offset %ju: a payload of "
			    "%ju bytes, but only %ju are left in its fatbinary"),
			    section, (uintmax_t)off, (uintmax_t)psize,
			    (uintmax_t)(left - hsize));
		memset(&e, 0, sizeof e);
		e.section = section;
		e.fatbin_offset = fatbin;
		e.offset = off;
		e.header_size = hsize;
		e.payload_size = psize;
		if (entry_from_header(w, h, &e) != 0)
			return -1;
		rc = w->fn(&e, w->arg);
		if (rc != 0) {
			w->stopped = rc;
			return 0;
		}
		off += hsize + psize;
	}
	return 0;
}

/* The fatbinaries of the section at off, size bytes long, which lies
 * inside the file. */
static int
walk_section(struct walk *w, const char *section, uint64_t off,
    uint64_t size)
{
	const uint64_t end = off + size;
	uint64_t pos = off;

	while (pos < end && w->stopped == 0) {
		unsigned char h[FATBIN_HEADER_SIZE];
		uint64_t left = end - pos, fsize, rel = pos - off;
		size_t n = left < sizeof h ? (size_t)left : sizeof h;
		unsigned version, hsize;

		if (read_at(w, pos, h, n) != 0)
			return -1;
		if (n < sizeof h || (uint32_t)le(h, 4) != FATBIN_MAGIC) {
			uint64_t next = rel - rel % PAD_ALIGN + PAD_ALIGN;

			if (next > size)
				next = size;
			/* next - rel <= n here: padding lies inside what was
			 * read. A whole aligned block of zeros is not. */
			if ((rel % PAD_ALIGN != 0 || n < sizeof h) &&
			    all_zero(h, (size_t)(next - rel))) {
				pos = off + next;
				continue;
			}
			if (n < sizeof h)
				return damage(w, _("%s at offset %ju: %zu bytes are "
				    "left, too few for a fatbinary header"), section,
				    (uintmax_t)pos, n);
			return damage(w, _("%s at offset %ju: no fatbinary header "
			    "(magic %#x, not %#x)"), section, (uintmax_t)pos,
			    (unsigned)le(h, 4), FATBIN_MAGIC);
		}
		if (count_header(w) != 0)
			return -1;
		version = (unsigned)le(h + 4, 2);
		hsize = (unsigned)le(h + 6, 2);
		fsize = le(h + 8, 8);
		if (version != FATBIN_VERSION)
			return damage(w, _("%s, fatbinary at offset %ju: version %u "
			    "is not one this program knows"), section,
			    (uintmax_t)pos, version);
		if (hsize < FATBIN_HEADER_SIZE || hsize > left)
			return damage(w, _("%s, fatbinary at offset %ju: a header "
			    "size of %u bytes"), section, (uintmax_t)pos, hsize);
		if (fsize > left - hsize)
			return damage(w, _("%s, fatbinary at offset %ju: %ju bytes "
			    "of entries, but only %ju are left in the section"),
			    section, (uintmax_t)pos, (uintmax_t)fsize,
			    (uintmax_t)(left - hsize));
		if (walk_entries(w, section, pos, pos + hsize,
		    pos + hsize + fsize) != 0)
			return -1;
		pos += hsize + fsize;
	}
	return 0;
}

static const char *
fatbin_section_name(const char *name)
{
	static const char *const names[] = { ".nv_fatbin", "__nv_relfatbin" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return names[i];
	return NULL;
}

/* One section header: a fatbinary section is checked and walked. */
static int
visit_section(struct walk *w, Elf *e, size_t shstrndx, size_t ndx,
    bool msb, bool *found)
{
	Elf_Scn *scn = elf_getscn(e, ndx);
	const char *name, *section;
	GElf_Shdr sh;

	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL)
		return damage(w, _("section %zu cannot be read: %s"), ndx,
		    elfobj_elf_why(w->path));
	name = elf_strptr(e, shstrndx, sh.sh_name);
	if (name == NULL)
		return damage(w, _("section %zu has no readable name: %s"), ndx,
		    elfobj_elf_why(w->path));
	section = fatbin_section_name(name);
	if (section == NULL)
		return 0;
	*found = true;
	if (msb)
		return damage(w, _("%s: a big-endian file (CUDA fatbinaries "
		    "exist only for little-endian hosts)"), section);
	if (sh.sh_type == SHT_NOBITS)
		return damage(w, _("%s has no contents in the file (SHT_NOBITS)"),
		    section);
	if (sh.sh_flags & SHF_COMPRESSED)
		return damage(w, _("%s is compressed (SHF_COMPRESSED), which "
		    "nvcc never does"), section);
	if (sh.sh_offset > w->fsize || sh.sh_size > w->fsize - sh.sh_offset)
		return damage(w, _("%s (offset %ju, %ju bytes) lies outside the "
		    "file (%ju bytes)"), section, (uintmax_t)sh.sh_offset,
		    (uintmax_t)sh.sh_size, (uintmax_t)w->fsize);
	return walk_section(w, section, sh.sh_offset, sh.sh_size);
}

/* The section headers of the file mapped at map, whose fatbinary
 * sections are walked. */
static int
walk_sections(struct walk *w, const struct elfobj_map *map, bool *found)
{
	size_t shnum, shstrndx;
	unsigned char *ident;
	Elf *e;
	int rc = -1;

	(void)elf_errno();
	e = elf_memory((char *)map->p, map->len);
	if (e == NULL)
		return damage(w, _("not a readable ELF file: %s"),
		    elfobj_elf_why(w->path));
	/* gelf_*() index a table by the class without checking it. */
	if (elf_kind(e) != ELF_K_ELF || (gelf_getclass(e) != ELFCLASS32 &&
	    gelf_getclass(e) != ELFCLASS64)) {
		damage(w, _("not an ELF file"));
		goto out;
	}
	ident = (unsigned char *)elf_getident(e, NULL);
	if (ident == NULL) {
		damage(w, _("the ELF header cannot be read: %s"),
		    elfobj_elf_why(w->path));
		goto out;
	}
	if (elf_getshdrnum(e, &shnum) != 0) {
		damage(w, _("the section headers cannot be read: %s"),
		    elfobj_elf_why(w->path));
		goto out;
	}
	if (shnum == 0) {
		damage(w, _("no section headers, so its fatbinary sections "
		    "cannot be found"));
		goto out;
	}
	if (elf_getshdrstrndx(e, &shstrndx) != 0) {
		damage(w, _("the section names cannot be found: %s"),
		    elfobj_elf_why(w->path));
		goto out;
	}
	for (size_t i = 1; i < shnum && w->stopped == 0; i++)
		if (visit_section(w, e, shstrndx, i,
		    ident[EI_DATA] == ELFDATA2MSB, found) != 0)
			goto out;
	rc = 0;
out:
	elf_end(e);
	return rc;
}

/* libelf reads the section headers and names from elfobj's guarded
 * mapping, never from its own: a file cut short while it is read (an
 * upgrade rewriting the library) reads as zeros there instead of killing
 * the program by SIGBUS, and is then said to be changing. */
static int
walk_elf(struct walk *w, bool *found)
{
	struct elfobj_map map;
	char *why;
	int rc;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return damage(w, _("libelf is unusable: %s"),
		    elfobj_elf_why(w->path));
	if (elfobj_map_begin(w->fd, w->path, &map, &why) != 0) {
		damage(w, "%s", why);
		free(why);
		return -1;
	}
	rc = walk_sections(w, &map, found);
	if (elfobj_map_end(&map)) {
		FREE(&w->err);
		rc = damage(w, _("the file changed while it was read (it is "
		    "being written or replaced?)"));
	}
	return rc;
}

int
fatbin_walk(const struct sysroot *sr, const char *path, fatbin_entry_fn fn,
    void *arg, bool *has_fatbin, char **err)
{
	struct walk w;
	struct stat st;
	int rc;

	*has_fatbin = false;
	*err = NULL;
	memset(&w, 0, sizeof w);
	w.path = path;
	w.fn = fn;
	w.arg = arg;
	rc = sysroot_open_file(sr, path, &w.fd);
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, sysroot_strerror(rc));
		return -1;
	}
	if (fstat(w.fd, &st) != 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		close(w.fd);
		return -1;
	}
	w.fsize = (uint64_t)st.st_size;
	rc = walk_elf(&w, has_fatbin);
	close(w.fd);
	if (rc != 0) {
		*err = w.err;
		return -1;
	}
	return w.stopped;
}

bool
fatbin_entry_name(const struct fatbin_entry *e, char *buf, size_t n)
{
	const char *prefix;
	int len;

	if (e->kind == FATBIN_KIND_SASS)
		prefix = "sm_";
	else if (e->kind == FATBIN_KIND_PTX)
		prefix = "compute_";
	else
		return false;
	if (n == 0)
		return false;
	len = e->variant != 0 ?
	    snprintf(buf, n, "%s%u%c", prefix, e->arch, e->variant) :
	    snprintf(buf, n, "%s%u", prefix, e->arch);
	if (len < 0 || (size_t)len >= n) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/* What fatbin_read gathers: one flag per kind, number and variant, so
 * the lists come out sorted and unique however many entries there are. */
struct seen {
	size_t	entries;
	bool	arch[2][ARCH_MAX + 1][3];	/* [sass, ptx][arch][0, a, f] */
};

static const char variants[3] = { 0, 'a', 'f' };

static int
collect(const struct fatbin_entry *e, void *arg)
{
	struct seen *s = arg;

	s->entries++;
	if (e->kind != FATBIN_KIND_SASS && e->kind != FATBIN_KIND_PTX)
		return 0;
	/* fatbin_walk has checked the range and the variant. */
	s->arch[e->kind == FATBIN_KIND_PTX][e->arch]
	    [e->variant == 'a' ? 1 : e->variant == 'f' ? 2 : 0] = true;
	return 0;
}

static void
list_seen(const struct seen *s, int ptx, struct strv *out)
{
	for (unsigned a = ARCH_MIN; a <= ARCH_MAX; a++) {
		for (int v = 0; v < 3; v++) {
			struct fatbin_entry e;
			char name[32];

			if (!s->arch[ptx][a][v])
				continue;
			memset(&e, 0, sizeof e);
			e.kind = ptx ? FATBIN_KIND_PTX : FATBIN_KIND_SASS;
			e.arch = a;
			e.variant = variants[v];
			if (fatbin_entry_name(&e, name, sizeof name))
				strv_push(out, name);
		}
	}
}

int
fatbin_read(const struct sysroot *sr, const char *path,
    struct fatbin_archs *out, char **err)
{
	struct seen *s = xcalloc(1, sizeof *s);
	bool has;

	memset(out, 0, sizeof *out);
	if (fatbin_walk(sr, path, collect, s, &has, err) != 0) {
		free(s);
		return -1;
	}
	out->has_fatbin = has;
	out->entries = s->entries;
	list_seen(s, 0, &out->sass);
	list_seen(s, 1, &out->ptx);
	free(s);
	return 0;
}

void
fatbin_archs_free(struct fatbin_archs *a)
{
	strv_free(&a->sass);
	strv_free(&a->ptx);
	memset(a, 0, sizeof *a);
}
