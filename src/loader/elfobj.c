/* The ELF reader (see elfobj.h): what the dynamic loader reads from an
 * object, found the way ld.so finds it.
 *
 * ld.so never looks at section headers. It takes the dynamic section from
 * PT_DYNAMIC and turns the addresses in it (DT_STRTAB, DT_VERDEF, …) into
 * memory through the PT_LOAD segments; this reader turns them into file
 * offsets through the same segments, so a file whose section headers were
 * stripped or damaged gives the same answers. Only the dynamic symbols
 * prefer the sections (.dynsym, .gnu.version), which give their number
 * directly; without them the count comes from DT_HASH or DT_GNU_HASH.
 *
 * Everything is read through libelf's raw chunks of a private mapping of
 * the file, so a library of hundreds of megabytes costs the pages of its
 * headers and tables and nothing else. Every offset, size, count and
 * index read from the file is checked before use; the version chains are
 * walked only forwards and inside their table, so they end.
 *
 * A mapped file can shrink under the reader (an upgrade's `cp new.so
 * old.so` truncates it first), and touching a page past its new end is
 * SIGBUS. The guard (elfmap.c) turns that into a page of zeros and a note,
 * and a file that changed while it was read is read again, or reported as
 * changing: never a crash. Running out of memory inside libelf ends the
 * program with that message, as xalloc does for our own allocations,
 * rather than calling the file damaged. */
#include "config.h"

#include <byteswap.h>
#include <errno.h>
#include <signal.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "util/xalloc.h"

/* libelf's ELF_E_NOMEM (libelfP.h, not installed): its numbering only
 * grows at the end, and tests/cli/elf-nomem.sh checks the words. */
#define LIBELF_E_NOMEM	8

/* Times a file that changes under the reader is read before giving up. */
#define READ_TRIES	3

void	(*elfobj_after_map_hook)(const char *path);

/* The dynamic tags used here; for each, the last entry wins, as in
 * glibc's l_info[] (DT_NEEDED is kept apart, every entry in order). */
enum tag {
	T_STRTAB, T_STRSZ, T_SONAME, T_RPATH, T_RUNPATH, T_FLAGS_1,
	T_VERDEF, T_VERDEFNUM, T_VERNEED, T_VERNEEDNUM,
	T_SYMTAB, T_SYMENT, T_HASH, T_GNU_HASH, T_VERSYM,
	T_COUNT
};

static const struct {
	GElf_Sxword	 tag;
	const char	*name;
} tags[T_COUNT] = {
	[T_STRTAB] = { DT_STRTAB, "DT_STRTAB" },
	[T_STRSZ] = { DT_STRSZ, "DT_STRSZ" },
	[T_SONAME] = { DT_SONAME, "DT_SONAME" },
	[T_RPATH] = { DT_RPATH, "DT_RPATH" },
	[T_RUNPATH] = { DT_RUNPATH, "DT_RUNPATH" },
	[T_FLAGS_1] = { DT_FLAGS_1, "DT_FLAGS_1" },
	[T_VERDEF] = { DT_VERDEF, "DT_VERDEF" },
	[T_VERDEFNUM] = { DT_VERDEFNUM, "DT_VERDEFNUM" },
	[T_VERNEED] = { DT_VERNEED, "DT_VERNEED" },
	[T_VERNEEDNUM] = { DT_VERNEEDNUM, "DT_VERNEEDNUM" },
	[T_SYMTAB] = { DT_SYMTAB, "DT_SYMTAB" },
	[T_SYMENT] = { DT_SYMENT, "DT_SYMENT" },
	[T_HASH] = { DT_HASH, "DT_HASH" },
	[T_GNU_HASH] = { DT_GNU_HASH, "DT_GNU_HASH" },
	[T_VERSYM] = { DT_VERSYM, "DT_VERSYM" },
};

/* File data of one PT_LOAD segment. */
struct span {
	GElf_Addr	vaddr;
	uint64_t	off;
	uint64_t	filesz;
};

/* Bytes of the file: a table, a string table. */
struct bytes {
	const unsigned char	*p;
	size_t			 n;
};

/* A version index (vd_ndx, vna_other) and its name, for the symbols. */
struct vername {
	unsigned	 ndx;
	const char	*name;		/* inside the string table */
};

struct reader {
	const char	*path;
	Elf		*e;
	uint64_t	 fsize;
	bool		 swap;		/* the file's byte order is not ours */
	struct {
		struct span	*v;
		size_t		 n, cap;
	} loads;
	struct {
		bool		 set;
		GElf_Xword	 val;
	} dt[T_COUNT];
	struct {
		GElf_Xword	*v;
		size_t		 n, cap;
	} needed;
	struct bytes	 dynstr;
	bool		 have_dynstr;
	struct {
		struct vername	*v;
		size_t		 n, cap;
	} vdef, vneed;
	char		*err;
};

__attribute__((format(printf, 2, 3)))
static int
damage(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (r->err != NULL)
		return -1;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	r->err = xasprintf("%s: %s", r->path, msg);
	free(msg);
	return -1;
}

/* libelf's words for its last error. Out of memory is not damage: it
 * ends the program as xmalloc does, naming the file being read. */
const char *
elfobj_elf_why(const char *path)
{
	int e = elf_errno();

	if (e == LIBELF_E_NOMEM)
		die(_("%s: out of memory while reading it (libelf: %s)"),
		    path, elf_errmsg(e));
	return elf_errmsg(e != 0 ? e : -1);
}

static const char *
elf_why(const struct reader *r)
{
	return elfobj_elf_why(r->path);
}

static uint16_t
rd16(const struct reader *r, const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof v);
	return r->swap ? bswap_16(v) : v;
}

static uint32_t
rd32(const struct reader *r, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return r->swap ? bswap_32(v) : v;
}

/* size bytes at off, converted to type; what names them in messages.
 * size 0 gives an empty result without asking libelf. */
static int
chunk(struct reader *r, uint64_t off, uint64_t size, Elf_Type type,
    const char *what, Elf_Data **out)
{
	*out = NULL;
	if (off > r->fsize || size > r->fsize - off)
		return damage(r, _("%s (offset %ju, %ju bytes) lies outside the "
		    "file (%ju bytes)"), what, (uintmax_t)off, (uintmax_t)size,
		    (uintmax_t)r->fsize);
	if (size == 0)
		return 0;
	if (size > SIZE_MAX || off > INT64_MAX)
		return damage(r, _("%s is too large"), what);
	*out = elf_getdata_rawchunk(r->e, (int64_t)off, (size_t)size, type);
	if (*out == NULL)
		return damage(r, _("%s cannot be read: %s"), what,
		    elf_why(r));
	return 0;
}

static int
chunk_bytes(struct reader *r, uint64_t off, uint64_t size, const char *what,
    struct bytes *b)
{
	Elf_Data *d;

	b->p = NULL;
	b->n = 0;
	if (chunk(r, off, size, ELF_T_BYTE, what, &d) != 0)
		return -1;
	if (d != NULL) {
		b->p = d->d_buf;
		b->n = d->d_size;
	}
	return 0;
}

/* Where the loader would find the byte it maps at addr: its file offset,
 * and how many bytes of file data follow it in the same segment. */
static bool
map_vaddr(const struct reader *r, GElf_Addr addr, uint64_t *off,
    uint64_t *avail)
{
	for (size_t i = 0; i < r->loads.n; i++) {
		const struct span *s = &r->loads.v[i];
		uint64_t delta;

		if (addr < s->vaddr || addr - s->vaddr >= s->filesz)
			continue;
		delta = addr - s->vaddr;
		if (s->off > r->fsize || delta >= r->fsize - s->off)
			continue;
		*off = s->off + delta;
		*avail = s->filesz - delta;
		if (*avail > r->fsize - *off)
			*avail = r->fsize - *off;
		return true;
	}
	return false;
}

/* The table the dynamic tag t points to: the rest of its segment. */
static int
dt_table(struct reader *r, enum tag t, struct bytes *b)
{
	uint64_t off, avail;

	if (!map_vaddr(r, r->dt[t].val, &off, &avail))
		return damage(r, _("%s (%#jx) is in no loadable segment"),
		    tags[t].name, (uintmax_t)r->dt[t].val);
	return chunk_bytes(r, off, avail, tags[t].name, b);
}

/* The string at off in a string table, as a pointer into the table. */
static int
string_at(struct reader *r, const struct bytes *tab, uint64_t off,
    const char *what, const char **out)
{
	const unsigned char *nul;

	if (off >= tab->n)
		return damage(r, _("%s: string offset %ju is outside the string "
		    "table (%zu bytes)"), what, (uintmax_t)off, tab->n);
	nul = memchr(tab->p + off, '\0', tab->n - (size_t)off);
	if (nul == NULL)
		return damage(r, _("%s: the string at offset %ju is not "
		    "terminated"), what, (uintmax_t)off);
	*out = (const char *)tab->p + off;
	return 0;
}

static int
dynstr(struct reader *r)
{
	uint64_t off, avail;

	if (r->have_dynstr)
		return 0;
	if (!r->dt[T_STRTAB].set)
		return damage(r, _("the dynamic section names strings but has "
		    "no DT_STRTAB"));
	if (!map_vaddr(r, r->dt[T_STRTAB].val, &off, &avail))
		return damage(r, _("%s (%#jx) is in no loadable segment"),
		    "DT_STRTAB", (uintmax_t)r->dt[T_STRTAB].val);
	/* ld.so trusts DT_STRSZ blindly; here it only narrows the bound. */
	if (r->dt[T_STRSZ].set && r->dt[T_STRSZ].val < avail)
		avail = r->dt[T_STRSZ].val;
	if (chunk_bytes(r, off, avail, "DT_STRTAB", &r->dynstr) != 0)
		return -1;
	r->have_dynstr = true;
	return 0;
}

static int
dyn_string(struct reader *r, GElf_Xword off, const char *what, char **out)
{
	const char *s;

	if (dynstr(r) != 0 || string_at(r, &r->dynstr, off, what, &s) != 0)
		return -1;
	*out = xstrdup(s);
	return 0;
}

static int
read_interp(struct reader *r, const GElf_Phdr *ph, struct elfobj *out)
{
	struct bytes b;
	const unsigned char *nul;

	if (chunk_bytes(r, ph->p_offset, ph->p_filesz, "PT_INTERP", &b) != 0)
		return -1;
	nul = b.n > 0 ? memchr(b.p, '\0', b.n) : NULL;
	if (nul == NULL)
		return damage(r, _("PT_INTERP is not a terminated string"));
	out->interp = xstrndup((const char *)b.p, (size_t)(nul - b.p));
	return 0;
}

static int
read_dynamic(struct reader *r, const GElf_Phdr *ph)
{
	size_t entsize = gelf_fsize(r->e, ELF_T_DYN, 1, EV_CURRENT);
	uint64_t count;
	Elf_Data *d;

	if (entsize == 0)
		return damage(r, "%s", elf_why(r));
	count = ph->p_filesz / entsize;
	if (count > INT_MAX)
		return damage(r, _("PT_DYNAMIC is too large"));
	if (chunk(r, ph->p_offset, count * entsize, ELF_T_DYN, "PT_DYNAMIC",
	    &d) != 0)
		return -1;
	for (uint64_t i = 0; i < count; i++) {
		GElf_Dyn dyn;

		if (gelf_getdyn(d, (int)i, &dyn) == NULL)
			return damage(r, _("dynamic entry %ju cannot be read: "
			    "%s"), (uintmax_t)i, elf_why(r));
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_NEEDED) {
			*(GElf_Xword *)VEC_PUSH(&r->needed) = dyn.d_un.d_val;
			continue;
		}
		for (size_t t = 0; t < T_COUNT; t++) {
			if (tags[t].tag == dyn.d_tag) {
				r->dt[t].set = true;
				r->dt[t].val = dyn.d_un.d_val;
				break;
			}
		}
	}
	return 0;
}

static void
add_vername(struct reader *r, bool def, unsigned ndx, const char *name)
{
	struct vername *vn = def ? VEC_PUSH(&r->vdef) : VEC_PUSH(&r->vneed);

	vn->ndx = ndx;
	vn->name = name;
}

/* DT_VERDEF: Elf_Verdef entries (20 bytes: version, flags, ndx, cnt,
 * hash, aux, next), each naming itself in its first Elf_Verdaux (8 bytes:
 * name, next). Same layout in both classes. count 0: until vd_next is 0,
 * which is also where glibc stops. */
static int
read_verdefs(struct reader *r, struct elfobj *out)
{
	const uint64_t count = r->dt[T_VERDEFNUM].set ?
	    r->dt[T_VERDEFNUM].val : 0;
	struct bytes b;
	size_t off = 0;

	if (dynstr(r) != 0 || dt_table(r, T_VERDEF, &b) != 0)
		return -1;
	for (uint64_t i = 0; count == 0 || i < count; i++) {
		unsigned flags, ndx, cnt;
		uint32_t aux, next;
		const char *name;

		if (b.n < 20 || off > b.n - 20)
			return damage(r, _("version definition %ju lies outside "
			    "its table"), (uintmax_t)i);
		flags = rd16(r, b.p + off + 2);
		ndx = rd16(r, b.p + off + 4);
		cnt = rd16(r, b.p + off + 6);
		aux = rd32(r, b.p + off + 12);
		next = rd32(r, b.p + off + 16);
		if (cnt > 0) {
			if (aux > b.n - off || b.n - off - aux < 8)
				return damage(r, _("the name of version definition "
				    "%ju lies outside its table"), (uintmax_t)i);
			if (string_at(r, &r->dynstr,
			    rd32(r, b.p + off + aux), "DT_VERDEF", &name) != 0)
				return -1;
			if (!(flags & VER_FLG_BASE))
				strv_push(&out->verdefs, name);
			add_vername(r, true, ndx & 0x7fff, name);
		}
		if (next == 0)
			break;
		if (next > b.n - off)
			return damage(r, _("version definition %ju points past "
			    "its table"), (uintmax_t)i);
		off += next;
	}
	return 0;
}

/* DT_VERNEED: Elf_Verneed entries (16 bytes: version, cnt, file, aux,
 * next), each with cnt Elf_Vernaux (16 bytes: hash, flags, other, name,
 * next). */
static int
read_verneeds(struct reader *r, struct elfobj *out)
{
	const uint64_t count = r->dt[T_VERNEEDNUM].set ?
	    r->dt[T_VERNEEDNUM].val : 0;
	struct bytes b;
	size_t off = 0;

	if (dynstr(r) != 0 || dt_table(r, T_VERNEED, &b) != 0)
		return -1;
	for (uint64_t i = 0; count == 0 || i < count; i++) {
		struct elfobj_verneed *vn;
		unsigned cnt;
		uint32_t aux, next;
		const char *file;
		size_t aoff;

		if (b.n < 16 || off > b.n - 16)
			return damage(r, _("version need %ju lies outside its "
			    "table"), (uintmax_t)i);
		cnt = rd16(r, b.p + off + 2);
		aux = rd32(r, b.p + off + 8);
		next = rd32(r, b.p + off + 12);
		if (string_at(r, &r->dynstr, rd32(r, b.p + off + 4),
		    "DT_VERNEED", &file) != 0)
			return -1;
		vn = VEC_PUSH(&out->verneeds);
		vn->file = xstrdup(file);
		if (aux > b.n - off)
			return damage(r, _("the versions of version need %ju lie "
			    "outside its table"), (uintmax_t)i);
		aoff = off + aux;
		for (unsigned j = 0; j < cnt; j++) {
			unsigned flags, other;
			uint32_t anext;
			const char *name;

			if (b.n - aoff < 16)
				return damage(r, _("version %u needed from %s lies "
				    "outside its table"), j, file);
			flags = rd16(r, b.p + aoff + 4);
			other = rd16(r, b.p + aoff + 6);
			anext = rd32(r, b.p + aoff + 12);
			if (string_at(r, &r->dynstr, rd32(r, b.p + aoff + 8),
			    "DT_VERNEED", &name) != 0)
				return -1;
			strv_push(&vn->names, name);
			if (flags & VER_FLG_WEAK)
				strv_push(&vn->weak, name);
			add_vername(r, false, other & 0x7fff, name);
			if (anext == 0)
				break;
			if (anext > b.n - aoff)
				return damage(r, _("version %u needed from %s "
				    "points past its table"), j, file);
			aoff += anext;
		}
		if (next == 0)
			break;
		if (next > b.n - off)
			return damage(r, _("version need %ju points past its "
			    "table"), (uintmax_t)i);
		off += next;
	}
	return 0;
}

/* The symbol table, its string table and its version table, however
 * they were found. */
struct symtab {
	Elf_Data	*syms;
	size_t		 n;
	struct bytes	 str;
	struct bytes	 versym;	/* empty when the file has none */
};

static int
shdr_of(struct reader *r, size_t ndx, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(r->e, ndx);

	if (scn == NULL || gelf_getshdr(scn, sh) == NULL)
		return damage(r, _("section %zu cannot be read: %s"), ndx,
		    elf_why(r));
	return 0;
}

/* .dynsym, its sh_link string table and .gnu.version. Returns 1 when the
 * file has no .dynsym section. */
static int
symtab_from_sections(struct reader *r, struct symtab *st)
{
	size_t shnum, symsize = gelf_fsize(r->e, ELF_T_SYM, 1, EV_CURRENT);
	GElf_Shdr sym, str, ver;
	bool have_sym = false, have_ver = false;

	memset(&sym, 0, sizeof sym);
	memset(&ver, 0, sizeof ver);

	if (elf_getshdrnum(r->e, &shnum) != 0)
		return damage(r, _("the section headers cannot be read: %s"),
		    elf_why(r));
	for (size_t i = 1; i < shnum; i++) {
		GElf_Shdr sh;

		if (shdr_of(r, i, &sh) != 0)
			return -1;
		if (sh.sh_type == SHT_DYNSYM && !have_sym) {
			sym = sh;
			have_sym = true;
		} else if (sh.sh_type == SHT_GNU_versym && !have_ver) {
			ver = sh;
			have_ver = true;
		}
	}
	if (!have_sym)
		return 1;
	if (sym.sh_entsize != symsize)
		return damage(r, _(".dynsym has entries of %ju bytes, not %zu"),
		    (uintmax_t)sym.sh_entsize, symsize);
	if (sym.sh_size / symsize > INT_MAX)
		return damage(r, _(".dynsym is too large"));
	st->n = sym.sh_size / symsize;
	if (chunk(r, sym.sh_offset, st->n * symsize, ELF_T_SYM, ".dynsym",
	    &st->syms) != 0)
		return -1;
	if (sym.sh_link == 0 || sym.sh_link >= shnum)
		return damage(r, _(".dynsym links to section %ju, which does not "
		    "exist"), (uintmax_t)sym.sh_link);
	if (shdr_of(r, sym.sh_link, &str) != 0 ||
	    chunk_bytes(r, str.sh_offset, str.sh_size, ".dynstr",
	    &st->str) != 0)
		return -1;
	if (have_ver && chunk_bytes(r, ver.sh_offset, ver.sh_size,
	    ".gnu.version", &st->versym) != 0)
		return -1;
	return 0;
}

/* The number of symbols DT_GNU_HASH covers: one past the highest index
 * any hash chain reaches. */
static int
gnu_hash_count(struct reader *r, uint64_t *count)
{
	const size_t word = gelf_getclass(r->e) == ELFCLASS64 ? 8 : 4;
	uint32_t nbuckets, symoffset, bloom, maxidx = 0;
	struct bytes b;
	uint64_t pos, chains;

	if (dt_table(r, T_GNU_HASH, &b) != 0)
		return -1;
	if (b.n < 16)
		return damage(r, _("DT_GNU_HASH is cut short"));
	nbuckets = rd32(r, b.p);
	symoffset = rd32(r, b.p + 4);
	bloom = rd32(r, b.p + 8);
	pos = 16 + (uint64_t)bloom * word;
	if (pos > b.n || ((uint64_t)b.n - pos) / 4 < nbuckets)
		return damage(r, _("DT_GNU_HASH is cut short"));
	for (uint32_t i = 0; i < nbuckets; i++) {
		uint32_t v = rd32(r, b.p + pos + 4 * (uint64_t)i);

		if (v > maxidx)
			maxidx = v;
	}
	if (maxidx < symoffset) {
		*count = symoffset;
		return 0;
	}
	/* Follow the last chain to its end (the entry with bit 0 set). */
	chains = pos + 4 * (uint64_t)nbuckets;
	for (uint64_t i = maxidx;; i++) {
		uint64_t at = chains + 4 * (i - symoffset);

		if (at > b.n || b.n - at < 4)
			return damage(r, _("DT_GNU_HASH is cut short"));
		if (rd32(r, b.p + at) & 1) {
			*count = i + 1;
			return 0;
		}
	}
}

/* DT_SYMTAB, DT_STRTAB and DT_VERSYM, counted by DT_HASH (its nchain)
 * or DT_GNU_HASH. */
static int
symtab_from_dynamic(struct reader *r, struct symtab *st)
{
	size_t symsize = gelf_fsize(r->e, ELF_T_SYM, 1, EV_CURRENT);
	uint64_t off, avail, count = 0;
	struct bytes b;

	if (!r->dt[T_SYMTAB].set)
		return damage(r, _("no dynamic symbol table (neither .dynsym "
		    "nor DT_SYMTAB)"));
	if (r->dt[T_SYMENT].set && r->dt[T_SYMENT].val != symsize)
		return damage(r, _("DT_SYMENT is %ju, not %zu"),
		    (uintmax_t)r->dt[T_SYMENT].val, symsize);
	if (r->dt[T_HASH].set) {
		if (dt_table(r, T_HASH, &b) != 0)
			return -1;
		if (b.n < 8)
			return damage(r, _("DT_HASH is cut short"));
		count = rd32(r, b.p + 4);
	} else if (r->dt[T_GNU_HASH].set) {
		if (gnu_hash_count(r, &count) != 0)
			return -1;
	} else {
		return damage(r, _("the number of dynamic symbols is unknown "
		    "(no section headers, DT_HASH or DT_GNU_HASH)"));
	}
	if (!map_vaddr(r, r->dt[T_SYMTAB].val, &off, &avail))
		return damage(r, _("%s (%#jx) is in no loadable segment"),
		    "DT_SYMTAB", (uintmax_t)r->dt[T_SYMTAB].val);
	if (count > avail / symsize || count > INT_MAX)
		return damage(r, _("%ju dynamic symbols do not fit in DT_SYMTAB"),
		    (uintmax_t)count);
	st->n = count;
	if (chunk(r, off, count * symsize, ELF_T_SYM, "DT_SYMTAB",
	    &st->syms) != 0 || dynstr(r) != 0)
		return -1;
	st->str = r->dynstr;
	if (r->dt[T_VERSYM].set && dt_table(r, T_VERSYM, &st->versym) != 0)
		return -1;
	return 0;
}

static const char *
find_vername(const struct reader *r, bool def, unsigned ndx)
{
	const struct vername *v = def ? r->vdef.v : r->vneed.v;
	size_t n = def ? r->vdef.n : r->vneed.n;

	for (size_t i = 0; i < n; i++)
		if (v[i].ndx == ndx)
			return v[i].name;
	return NULL;
}

/* The global and weak dynamic symbols with their versions. Local ones
 * (section symbols) are left out: the loader never binds to them. */
static int
read_symbols(struct reader *r, struct elfobj *out)
{
	struct symtab st;
	int rc;

	memset(&st, 0, sizeof st);
	rc = symtab_from_sections(r, &st);
	if (rc == -1) {
		/* Damaged section headers, which ld.so never reads: try
		 * what it does read. */
		FREE(&r->err);
		memset(&st, 0, sizeof st);
		rc = 1;
	}
	if (rc == 1)
		rc = symtab_from_dynamic(r, &st);
	if (rc != 0)
		return -1;
	if (st.versym.n > 0 && st.versym.n / 2 < st.n)
		return damage(r, _("the symbol version table has %zu entries for "
		    "%zu symbols"), st.versym.n / 2, st.n);
	for (size_t i = 1; i < st.n; i++) {
		struct elfobj_symbol *sym;
		const char *name, *ver = NULL;
		unsigned vs = 0;
		GElf_Sym s;

		if (gelf_getsym(st.syms, (int)i, &s) == NULL)
			return damage(r, _("dynamic symbol %zu cannot be read: %s"),
			    i, elf_why(r));
		if (GELF_ST_BIND(s.st_info) == STB_LOCAL)
			continue;
		if (string_at(r, &st.str, s.st_name, _("dynamic symbol"),
		    &name) != 0)
			return -1;
		if (st.versym.n > 0)
			vs = rd16(r, st.versym.p + 2 * i);
		if ((vs & 0x7fff) >= 2) {
			bool def = s.st_shndx != SHN_UNDEF;

			ver = find_vername(r, def, vs & 0x7fff);
			if (ver == NULL)
				ver = find_vername(r, !def, vs & 0x7fff);
			if (ver == NULL)
				return damage(r, _("symbol %s has version index %u, "
				    "which no version definition or need has"),
				    name, vs & 0x7fff);
		}
		sym = VEC_PUSH(&out->symbols);
		sym->name = xstrdup(name);
		sym->version = ver != NULL ? xstrdup(ver) : NULL;
		sym->defined = s.st_shndx != SHN_UNDEF;
		sym->weak = GELF_ST_BIND(s.st_info) == STB_WEAK;
		sym->hidden = ver != NULL && (vs & 0x8000) != 0;
	}
	return 0;
}

/* libelf refuses a file whose section header table is damaged or cut
 * off, which ld.so never reads. Such a file is read again with the
 * section header fields cleared in the private (copy-on-write) mapping. */
static Elf *
open_without_sections(struct reader *r, unsigned char *m)
{
	if (r->fsize < sizeof(Elf64_Ehdr) || memcmp(m, ELFMAG, SELFMAG) != 0 ||
	    (m[EI_CLASS] != ELFCLASS32 && m[EI_CLASS] != ELFCLASS64))
		return NULL;
	if (m[EI_CLASS] == ELFCLASS32) {
		memset(m + offsetof(Elf32_Ehdr, e_shoff), 0, 4);
		memset(m + offsetof(Elf32_Ehdr, e_shnum), 0, 4);
	} else {
		memset(m + offsetof(Elf64_Ehdr, e_shoff), 0, 8);
		memset(m + offsetof(Elf64_Ehdr, e_shnum), 0, 4);
	}
	return elf_memory((char *)m, (size_t)r->fsize);
}

static int
read_headers(struct reader *r, unsigned what, struct elfobj *out)
{
	const size_t phsize = gelf_fsize(r->e, ELF_T_PHDR, 1, EV_CURRENT);
	GElf_Phdr dyn, interp;
	bool have_interp = false;
	unsigned char *ident;
	GElf_Ehdr eh;
	size_t phnum;

	memset(&dyn, 0, sizeof dyn);
	memset(&interp, 0, sizeof interp);
	ident = (unsigned char *)elf_getident(r->e, NULL);
	if (gelf_getehdr(r->e, &eh) == NULL || ident == NULL)
		return damage(r, _("the ELF header cannot be read: %s"),
		    elf_why(r));
	out->elf_class = ident[EI_CLASS] == ELFCLASS32 ? 32 : 64;
	out->machine = eh.e_machine;
	out->type = eh.e_type;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	r->swap = ident[EI_DATA] != ELFDATA2LSB;
#else
	r->swap = ident[EI_DATA] != ELFDATA2MSB;
#endif
	if (elf_getphdrnum(r->e, &phnum) != 0)
		return damage(r, _("the program headers cannot be counted: %s"),
		    elf_why(r));
	/* libelf quietly counts fewer headers when the table runs past the
	 * end of the file; the loader would fail to read them. */
	if (phnum > 0 && (eh.e_phentsize != phsize || eh.e_phoff > r->fsize ||
	    (r->fsize - eh.e_phoff) / phsize < phnum))
		return damage(r, _("the program headers (offset %ju, %zu of %u "
		    "bytes) do not fit in the file"), (uintmax_t)eh.e_phoff,
		    phnum, (unsigned)eh.e_phentsize);
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(r->e, (int)i, &ph) == NULL)
			return damage(r, _("program header %zu cannot be read: %s"),
			    i, elf_why(r));
		switch (ph.p_type) {
		case PT_LOAD: {
			struct span *s = VEC_PUSH(&r->loads);

			s->vaddr = ph.p_vaddr;
			s->off = ph.p_offset;
			s->filesz = ph.p_filesz;
			break;
		}
		case PT_DYNAMIC:
			dyn = ph;
			out->has_dynamic = true;
			break;
		case PT_INTERP:
			interp = ph;
			have_interp = true;
			break;
		default:
			break;
		}
	}
	if (have_interp && read_interp(r, &interp, out) != 0)
		return -1;
	if (!out->has_dynamic)
		return 0;
	if (read_dynamic(r, &dyn) != 0)
		return -1;
	if (r->dt[T_SONAME].set && dyn_string(r, r->dt[T_SONAME].val,
	    "DT_SONAME", &out->soname) != 0)
		return -1;
	for (size_t i = 0; i < r->needed.n; i++) {
		char *s;

		if (dyn_string(r, r->needed.v[i], "DT_NEEDED", &s) != 0)
			return -1;
		strv_push_owned(&out->needed, s);
	}
	if (r->dt[T_RPATH].set && dyn_string(r, r->dt[T_RPATH].val,
	    "DT_RPATH", &out->rpath) != 0)
		return -1;
	if (r->dt[T_RUNPATH].set && dyn_string(r, r->dt[T_RUNPATH].val,
	    "DT_RUNPATH", &out->runpath) != 0)
		return -1;
	out->nodeflib = r->dt[T_FLAGS_1].set &&
	    (r->dt[T_FLAGS_1].val & DF_1_NODEFLIB) != 0;
	if (r->dt[T_VERDEF].set && read_verdefs(r, out) != 0)
		return -1;
	if (r->dt[T_VERNEED].set && read_verneeds(r, out) != 0)
		return -1;
	if ((what & ELFOBJ_SYMBOLS) && read_symbols(r, out) != 0)
		return -1;
	return 0;
}

/* Empties what one try of read_mapped() left, for the next try. */
static void
reader_reset(struct reader *r, struct elfobj *out)
{
	elfobj_free(out);
	FREE(&r->loads.v);
	FREE(&r->needed.v);
	FREE(&r->vdef.v);
	FREE(&r->vneed.v);
	FREE(&r->err);
	memset(&r->loads, 0, sizeof r->loads);
	memset(&r->needed, 0, sizeof r->needed);
	memset(&r->vdef, 0, sizeof r->vdef);
	memset(&r->vneed, 0, sizeof r->vneed);
	memset(r->dt, 0, sizeof r->dt);
	memset(&r->dynstr, 0, sizeof r->dynstr);
	r->have_dynstr = false;
	r->e = NULL;
	r->swap = false;
}

/* Whether the file is another one, or another size or age, than when
 * its reading started. */
static bool
file_changed(const struct stat *a, const struct stat *b)
{
	return a->st_ino != b->st_ino || a->st_dev != b->st_dev ||
	    a->st_size != b->st_size ||
	    a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	    a->st_mtim.tv_nsec != b->st_mtim.tv_nsec;
}

/* One try: map the file as it is now and read it under the guard. Sets
 * *changed when the file shrank or changed meanwhile. */
static void
read_mapped(struct reader *r, int fd, unsigned what, struct elfobj *out,
    bool *changed)
{
	struct stat before, after;
	struct elfobj_map map;
	unsigned char *m;
	char *map_why;
	bool hit;

	*changed = false;
	if (fstat(fd, &before) != 0) {
		damage(r, "%s", strerror(errno));
		return;
	}
	if (elfobj_map_begin(fd, r->path, &map, &map_why) != 0) {
		damage(r, "%s", map_why);
		free(map_why);
		return;
	}
	m = map.p;
	r->fsize = map.len;
	(void)elf_errno();
	r->e = elf_memory((char *)m, (size_t)r->fsize);
	if (r->e == NULL) {
		char *why = xstrdup(elf_why(r));

		r->e = open_without_sections(r, m);
		if (r->e == NULL) {
			(void)elf_why(r);
			damage(r, _("not a readable ELF file: %s"), why);
		}
		free(why);
	}
	/* gelf_fsize() indexes a table by the class without checking it. */
	if (r->e != NULL && (elf_kind(r->e) != ELF_K_ELF ||
	    (gelf_getclass(r->e) != ELFCLASS32 &&
	    gelf_getclass(r->e) != ELFCLASS64)))
		damage(r, _("not an ELF file"));
	else if (r->e != NULL)
		read_headers(r, what, out);
	if (r->e != NULL)
		elf_end(r->e);
	r->e = NULL;
	hit = elfobj_map_end(&map);
	*changed = hit || fstat(fd, &after) != 0 ||
	    file_changed(&before, &after);
}

int
elfobj_read(const struct sysroot *sr, const char *path, unsigned what,
    struct elfobj *out, char **err)
{
	struct reader r;
	bool changed = false;
	int fd, rc;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	*err = NULL;
	r.path = path;
	rc = sysroot_open_file(sr, path, &fd);
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, sysroot_strerror(rc));
		return -1;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		damage(&r, _("libelf is unusable: %s"), elf_why(&r));
		goto out;
	}
	for (int i = 0; i < READ_TRIES; i++) {
		if (i > 0)
			reader_reset(&r, out);
		read_mapped(&r, fd, what, out, &changed);
		if (!changed)
			break;
	}
	/* Whatever was read from a file that kept changing is not its
	 * content: say so instead of calling it damaged. */
	if (changed) {
		FREE(&r.err);
		damage(&r, _("the file changed while it was read (%d tries; it "
		    "is being written or replaced?)"), READ_TRIES);
	}
out:
	close(fd);
	free(r.loads.v);
	free(r.needed.v);
	free(r.vdef.v);
	free(r.vneed.v);
	if (r.err != NULL) {
		elfobj_free(out);
		*err = r.err;
		return -1;
	}
	return 0;
}

void
elfobj_free(struct elfobj *obj)
{
	FREE(&obj->interp);
	FREE(&obj->soname);
	FREE(&obj->rpath);
	FREE(&obj->runpath);
	strv_free(&obj->needed);
	strv_free(&obj->verdefs);
	for (size_t i = 0; i < obj->verneeds.n; i++) {
		free(obj->verneeds.v[i].file);
		strv_free(&obj->verneeds.v[i].names);
		strv_free(&obj->verneeds.v[i].weak);
	}
	free(obj->verneeds.v);
	for (size_t i = 0; i < obj->symbols.n; i++) {
		free(obj->symbols.v[i].name);
		free(obj->symbols.v[i].version);
	}
	free(obj->symbols.v);
	memset(obj, 0, sizeof *obj);
}

const struct elfobj_symbol *
elfobj_find_symbol(const struct elfobj *obj, const char *name,
    const char *version, bool defined)
{
	for (size_t i = 0; i < obj->symbols.n; i++) {
		const struct elfobj_symbol *s = &obj->symbols.v[i];

		if (s->defined != defined || strcmp(s->name, name) != 0)
			continue;
		if (version == NULL || (s->version != NULL &&
		    strcmp(s->version, version) == 0))
			return s;
	}
	return NULL;
}

const char *
elfobj_machine_name(unsigned machine, char *buf, size_t n)
{
	static const struct {
		unsigned	 em;
		const char	*name;
	} names[] = {
		{ EM_X86_64, "x86-64" },
		{ EM_386, "i386" },
		{ EM_AARCH64, "AArch64" },
		{ EM_ARM, "ARM" },
		{ EM_PPC64, "PowerPC64" },
		{ EM_PPC, "PowerPC" },
		{ EM_S390, "IBM S/390" },
		{ EM_RISCV, "RISC-V" },
		{ EM_LOONGARCH, "LoongArch" },
		{ EM_MIPS, "MIPS" },
		{ EM_SPARCV9, "SPARC V9" },
		{ EM_IA_64, "IA-64" },
		{ EM_CUDA, "NVIDIA CUDA" },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].em == machine)
			return names[i].name;
	snprintf(buf, n, _("machine %u"), machine);
	return buf;
}

