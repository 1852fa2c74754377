/* The PE/COFF reader (see pe.h).
 *
 * A PE image is read the way the Windows loader finds its parts: the DOS
 * header's e_lfanew leads to the "PE\0\0" signature, the COFF header and
 * the optional header, whose data directories give the RVAs of the
 * import, export, resource and delay-load directories; the section table
 * turns an RVA into a file offset. Only those parts are read, with
 * pread(2) through one 64 KiB window (names lie one after another, so
 * they come from few reads), so a DLL of hundreds of megabytes costs a
 * few reads of its headers and tables.
 *
 * Every count read from the file is held against the space it claims
 * and against a fixed limit before anything is read for it; the resource
 * tree is walked to its fixed depth of three with each directory seen
 * once, and the version resource's blocks each move forwards by at least
 * their header, so every loop ends. The first damage found is the answer,
 * with what was being read and where. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "pe/pe.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define WINDOW		(64u << 10)
/* The Windows loader takes at most 96 sections; linkers never write more,
 * but a file may claim up to 65535. */
#define MAX_SECTIONS	96
#define MAX_DLLS	4096		/* import or delay-load entries */
#define MAX_EXPORTS	(1u << 20)
#define MAX_DLL_NAME	260		/* MAX_PATH */
#define MAX_SYM_NAME	4096		/* C++ names run long */
#define MAX_RES_ENTRIES	4096		/* in one resource directory */
#define MAX_VERSION	65535		/* wLength is 16 bits */

#define DIR_EXPORT	0
#define DIR_IMPORT	1
#define DIR_RESOURCE	2
#define DIR_DELAY	13
#define NDIRS		16

#define RT_VERSION	16
#define LANG_EN_US	0x409
#define VS_FFI_SIGNATURE	0xfeef04bdu

struct section {
	uint32_t	va, span, rawptr;
};

struct reader {
	const char		*path;
	int			 fd;	/* -1 when reading mem */
	const unsigned char	*mem;
	uint64_t		 size;
	uint64_t		 spent;	/* bytes read, against PE_READ_CAP */
	unsigned char		*win;
	uint64_t		 win_off;
	size_t			 win_len;
	uint32_t		 headers;	/* SizeOfHeaders */
	uint64_t		 image_base;
	struct section		 sec[MAX_SECTIONS];
	unsigned		 nsec;
	struct {
		uint32_t	rva, size;
	} dir[NDIRS];
	char			*err;
};

static uint16_t
le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

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

/* len bytes at off from the file or the buffer into dst, counted against
 * the cap. A file that ends sooner than it did at the start was cut
 * while it was read. */
static int
fetch(struct reader *r, uint64_t off, void *dst, size_t len)
{
	size_t got = 0;

	if (r->spent + len > PE_READ_CAP)
		return damage(r, _("reading it needs more than %u MiB (the "
		    "most read from one file)"), PE_READ_CAP >> 20);
	r->spent += len;
	if (r->fd < 0) {
		memcpy(dst, r->mem + off, len);
		return 0;
	}
	while (got < len) {
		ssize_t n = pread(r->fd, (char *)dst + got, len - got,
		    (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return damage(r, _("cannot read it: %s"),
			    strerror(errno));
		if (n == 0)
			return damage(r, _("the file became shorter while it "
			    "was read"));
		got += (size_t)n;
	}
	return 0;
}

/* The len bytes (at most WINDOW) at file offset off, valid until the
 * next call; what names them in the message when they are not all in
 * the file. */
static const unsigned char *
at(struct reader *r, uint64_t off, size_t len, const char *what)
{
	size_t n;

	if (r->err != NULL)
		return NULL;
	if (off > r->size || len > r->size - off) {
		damage(r, _("%s is cut off: it needs bytes %#llx to %#llx, "
		    "and the file ends at %#llx"), what,
		    (unsigned long long)off, (unsigned long long)(off + len),
		    (unsigned long long)r->size);
		return NULL;
	}
	if (r->win_len > 0 && off >= r->win_off &&
	    off + len <= r->win_off + r->win_len)
		return r->win + (off - r->win_off);
	n = r->size - off < WINDOW ? (size_t)(r->size - off) : WINDOW;
	r->win_len = 0;
	if (fetch(r, off, r->win, n) != 0)
		return NULL;
	r->win_off = off;
	r->win_len = n;
	return r->win;
}

/* The file offset of rva, and how many bytes from there the image maps
 * from the file without a gap (the rest of its section's raw data, or of
 * the headers). -1 when no section holds it. */
static int
rva_off(const struct reader *r, uint32_t rva, uint64_t *off, uint64_t *avail)
{
	if (rva < r->headers) {
		*off = rva;
		*avail = r->headers - rva;
		return 0;
	}
	for (unsigned i = 0; i < r->nsec; i++) {
		const struct section *s = &r->sec[i];

		if (rva >= s->va && rva - s->va < s->span) {
			*off = (uint64_t)s->rawptr + (rva - s->va);
			*avail = s->span - (rva - s->va);
			return 0;
		}
	}
	return -1;
}

/* len bytes at rva (len at most WINDOW), inside one section. */
static const unsigned char *
rva_at(struct reader *r, uint64_t rva, size_t len, const char *what)
{
	uint64_t off, avail;

	if (r->err != NULL)
		return NULL;
	if (rva > UINT32_MAX || rva_off(r, (uint32_t)rva, &off, &avail) != 0) {
		damage(r, _("%s at RVA %#llx lies outside the file's sections"),
		    what, (unsigned long long)rva);
		return NULL;
	}
	if (len > avail) {
		damage(r, _("%s at RVA %#llx runs past the end of its section"),
		    what, (unsigned long long)rva);
		return NULL;
	}
	return at(r, off, len, what);
}

/* The NUL-terminated string at rva, at most max bytes before the NUL. */
static char *
rva_str(struct reader *r, uint32_t rva, size_t max, const char *what)
{
	const unsigned char *p, *nul;
	uint64_t off, avail;
	size_t n;

	if (r->err != NULL)
		return NULL;
	if (rva_off(r, rva, &off, &avail) != 0) {
		damage(r, _("%s at RVA %#x lies outside the file's sections"),
		    what, (unsigned)rva);
		return NULL;
	}
	n = avail < max + 1 ? (size_t)avail : max + 1;
	/* A name near the end of a section cut short by the file's end
	 * needs only the bytes up to its NUL. */
	if (off < r->size && r->size - off < n)
		n = (size_t)(r->size - off);
	if (n == 0)
		n = 1;
	if ((p = at(r, off, n, what)) == NULL)
		return NULL;
	if ((nul = memchr(p, 0, n)) == NULL) {
		damage(r, _("%s at RVA %#x has no end within %zu bytes"), what,
		    (unsigned)rva, n);
		return NULL;
	}
	return xstrndup((const char *)p, (size_t)(nul - p));
}

static void
push_dll(struct strv *sv, char *name)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcasecmp(sv->v[i], name) == 0) {
			free(name);
			return;
		}
	strv_push_owned(sv, name);
}

static int
read_headers(struct reader *r, struct peobj *out)
{
	const unsigned char *p;
	uint32_t lfanew, ndir, dirs_at;
	uint64_t opt_off, sec_off;
	unsigned nsec, opt_size, magic;

	if (r->size < 64 || (p = at(r, 0, 64, _("the DOS header"))) == NULL ||
	    p[0] != 'M' || p[1] != 'Z')
		return damage(r, _("not a PE file (no MZ header)"));
	lfanew = le32(p + 0x3c);
	p = at(r, lfanew, 24, _("the PE signature and COFF header"));
	if (p == NULL)
		return -1;
	if (memcmp(p, "PE\0\0", 4) != 0)
		return damage(r, _("not a PE file (no PE signature at offset "
		    "%#x)"), (unsigned)lfanew);
	out->machine = le16(p + 4);
	nsec = le16(p + 6);
	opt_size = le16(p + 20);
	out->characteristics = le16(p + 22);
	out->dll = (out->characteristics & 0x2000) != 0;
	opt_off = (uint64_t)lfanew + 24;
	if (opt_size < 2)
		return damage(r, _("the optional header is missing (its size "
		    "is %u)"), opt_size);
	if ((p = at(r, opt_off, opt_size, _("the optional header"))) == NULL)
		return -1;
	magic = le16(p);
	if (magic == 0x10b) {
		dirs_at = 96;
		if (opt_size < dirs_at)
			goto short_opt;
		r->image_base = le32(p + 28);
		ndir = le32(p + 92);
	} else if (magic == 0x20b) {
		dirs_at = 112;
		if (opt_size < dirs_at)
			goto short_opt;
		out->pe32plus = true;
		r->image_base = le64(p + 24);
		ndir = le32(p + 108);
	} else {
		return damage(r, _("unknown optional header magic %#x (neither "
		    "PE32 nor PE32+)"), magic);
	}
	out->image_base = r->image_base;
	out->subsystem = le16(p + 68);
	r->headers = le32(p + 60);
	/* The loader reads only the directories both the count and the
	 * header's size hold. */
	if (ndir > NDIRS)
		ndir = NDIRS;
	if (ndir > (opt_size - dirs_at) / 8)
		ndir = (opt_size - dirs_at) / 8;
	for (uint32_t i = 0; i < ndir; i++) {
		r->dir[i].rva = le32(p + dirs_at + 8 * i);
		r->dir[i].size = le32(p + dirs_at + 8 * i + 4);
	}

	if (nsec > MAX_SECTIONS)
		return damage(r, _("the section table claims %u sections (the "
		    "loader takes at most %u)"), nsec, MAX_SECTIONS);
	sec_off = opt_off + opt_size;
	if ((p = at(r, sec_off, (size_t)nsec * 40,
	    _("the section table"))) == NULL)
		return -1;
	for (unsigned i = 0; i < nsec; i++) {
		const unsigned char *s = p + 40 * i;
		uint32_t vsize = le32(s + 8), raw = le32(s + 16);
		struct section *sc = &r->sec[r->nsec];

		sc->va = le32(s + 12);
		sc->rawptr = le32(s + 20);
		/* Raw data past the virtual size is padding the loader does
		 * not map; a zero virtual size (old linkers) means all. */
		sc->span = vsize != 0 && vsize < raw ? vsize : raw;
		if (sc->span > 0)
			r->nsec++;
	}
	return 0;

short_opt:
	return damage(r, _("the optional header is %u bytes, too short for "
	    "its data directories"), opt_size);
}

/* The DLL names of one import table: entries of esize bytes from rva,
 * until one without a name. The loader walks the import directory to its
 * empty entry whatever the directory's size says; nothing walks the
 * delay-load directory (each import's helper holds its own entry), so
 * there a size, when given, ends the list too: GNU ld leaves that
 * directory empty, and an entry placed there by hand may have code
 * after it rather than an empty entry. */
static int
read_dll_list(struct reader *r, uint32_t rva, uint32_t size, size_t esize,
    bool delay, struct strv *out)
{
	const char *what = delay ? _("the delay-load directory")
	    : _("the import directory");
	uint32_t *names = NULL;
	size_t n = 0;
	int rc = -1;

	names = xreallocarray(NULL, MAX_DLLS, sizeof *names);
	for (;;) {
		const unsigned char *e;
		uint64_t name;

		if (delay && size != 0 && (n + 1) * esize > size)
			break;
		e = rva_at(r, (uint64_t)rva + n * esize, esize, what);
		if (e == NULL)
			goto out;
		name = le32(e + (delay ? 4 : 12));
		if (name == 0)
			break;
		/* Entries of VC6's delay-load helper hold addresses, not
		 * RVAs (bit 0 of grAttrs clear). */
		if (delay && (le32(e) & 1) == 0) {
			if (name < r->image_base ||
			    name - r->image_base > UINT32_MAX) {
				damage(r, _("%s: entry %zu names its DLL at "
				    "address %#llx, outside the image"), what,
				    n, (unsigned long long)name);
				goto out;
			}
			name -= r->image_base;
		}
		if (n == MAX_DLLS) {
			damage(r, _("%s lists more than %u DLLs (no closing "
			    "empty entry?)"), what, MAX_DLLS);
			goto out;
		}
		names[n++] = (uint32_t)name;
	}
	for (size_t i = 0; i < n; i++) {
		char *s = rva_str(r, names[i], MAX_DLL_NAME,
		    delay ? _("a delay-loaded DLL's name")
		    : _("an imported DLL's name"));

		if (s == NULL)
			goto out;
		push_dll(out, s);
	}
	rc = 0;
out:
	free(names);
	return rc;
}

static int
read_exports(struct reader *r, struct peobj *out)
{
	const unsigned char *p;
	uint32_t name, nnames, names_rva;
	uint64_t off, avail;
	unsigned char *tab;
	int rc = -1;

	if (r->dir[DIR_EXPORT].rva == 0)
		return 0;
	p = rva_at(r, r->dir[DIR_EXPORT].rva, 40, _("the export directory"));
	if (p == NULL)
		return -1;
	name = le32(p + 12);
	nnames = le32(p + 24);
	names_rva = le32(p + 32);
	if (nnames > MAX_EXPORTS)
		return damage(r, _("the export directory claims %u names (more "
		    "than %u)"), (unsigned)nnames, MAX_EXPORTS);
	if (name != 0 && (out->export_dll = rva_str(r, name, MAX_DLL_NAME,
	    _("the export directory's DLL name"))) == NULL)
		return -1;
	if (nnames == 0)
		return 0;
	if (rva_off(r, names_rva, &off, &avail) != 0)
		return damage(r, _("the export name table at RVA %#x lies "
		    "outside the file's sections"), (unsigned)names_rva);
	if (avail < (uint64_t)nnames * 4 || off > r->size ||
	    r->size - off < (uint64_t)nnames * 4)
		return damage(r, _("the export name table at RVA %#x (%u "
		    "names) runs past the end of its section or the file"),
		    (unsigned)names_rva, (unsigned)nnames);
	tab = xmalloc((size_t)nnames * 4);
	if (fetch(r, off, tab, (size_t)nnames * 4) != 0)
		goto out;
	for (uint32_t i = 0; i < nnames; i++) {
		char *s = rva_str(r, le32(tab + 4 * i), MAX_SYM_NAME,
		    _("an exported name"));

		if (s == NULL)
			goto out;
		strv_push_owned(&out->exports, s);
	}
	rc = 0;
out:
	free(tab);
	return rc;
}

/* The resource tree, read from the resource section. */
struct res {
	uint64_t	base;		/* file offset of the root directory */
	uint64_t	avail;		/* bytes of the section from there */
	uint32_t	seen[4];	/* directories visited, by offset */
	unsigned	nseen;
};

/* In the directory at rel, the target (OffsetToData) of the entry with
 * the numeric id; failing that, with first, of the first entry. 1
 * found, 0 not, -1 damage. */
static int
res_find(struct reader *r, struct res *rs, uint32_t rel, long id, bool first,
    uint32_t *target)
{
	bool have_first = false;

	const unsigned char *p;
	unsigned named, n;

	for (unsigned i = 0; i < rs->nseen; i++)
		if (rs->seen[i] == rel)
			return damage(r, _("the resource tree loops: the "
			    "directory at offset %#x is reached again"),
			    (unsigned)rel);
	if (rs->nseen < sizeof rs->seen / sizeof rs->seen[0])
		rs->seen[rs->nseen++] = rel;
	if (rel > rs->avail || rs->avail - rel < 16)
		return damage(r, _("a resource directory at offset %#x lies "
		    "outside the resource section"), (unsigned)rel);
	if ((p = at(r, rs->base + rel, 16, _("a resource directory"))) == NULL)
		return -1;
	named = le16(p + 12);
	n = named + le16(p + 14);
	if (n > MAX_RES_ENTRIES || (uint64_t)n * 8 > rs->avail - rel - 16)
		return damage(r, _("the resource directory at offset %#x "
		    "claims %u entries, more than its section holds"),
		    (unsigned)rel, n);
	for (unsigned i = 0; i < n; i++) {
		const unsigned char *e = at(r, rs->base + rel + 16 + 8 * i, 8,
		    _("a resource directory entry"));
		uint32_t name;

		if (e == NULL)
			return -1;
		name = le32(e);
		if ((name & 0x80000000u) == 0 && (long)(name & 0xffff) == id) {
			*target = le32(e + 4);
			return 1;
		}
		if (first && !have_first) {
			*target = le32(e + 4);
			have_first = true;
		}
	}
	return have_first ? 1 : 0;
}

/* One block of a VS_VERSIONINFO: wLength, wValueLength, wType, a
 * UTF-16 key, padding to 4, a value, padding, child blocks. */
struct vblock {
	size_t		end;		/* just past the block */
	size_t		value;		/* offset of the value */
	size_t		vlen;		/* wValueLength as stored */
	char		key[40];	/* ASCII; '?' for anything else */
};

static size_t
align4(size_t x)
{
	return (x + 3) & ~(size_t)3;
}

static int
vblock(const unsigned char *b, size_t lim, size_t off, struct vblock *v)
{
	size_t len, k = 0;

	if (off > lim || lim - off < 6)
		return -1;
	len = le16(b + off);
	if (len < 6 || len > lim - off)
		return -1;
	v->end = off + len;
	v->vlen = le16(b + off + 2);
	for (off += 6;; off += 2) {
		unsigned c;

		if (v->end - off < 2)
			return -1;
		if ((c = le16(b + off)) == 0)
			break;
		if (k + 1 < sizeof v->key)
			v->key[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	v->key[k] = '\0';
	v->value = align4(off + 2);
	if (v->value > v->end)
		v->value = v->end;
	return 0;
}

/* UTF-16LE from off to the first NUL or end, as UTF-8; a lone
 * surrogate becomes U+FFFD. */
static char *
utf16_to_utf8(const unsigned char *b, size_t off, size_t end)
{
	struct strbuf sb = STRBUF_INIT;

	while (end - off >= 2) {
		uint32_t c = le16(b + off);
		char u[4];
		size_t n;

		off += 2;
		if (c == 0)
			break;
		if (c >= 0xd800 && c < 0xdc00 && end - off >= 2 &&
		    le16(b + off) >= 0xdc00 && le16(b + off) < 0xe000) {
			c = 0x10000 + ((c - 0xd800) << 10) +
			    (le16(b + off) - 0xdc00u);
			off += 2;
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		if (c < 0x80) {
			u[0] = (char)c;
			n = 1;
		} else if (c < 0x800) {
			u[0] = (char)(0xc0 | c >> 6);
			u[1] = (char)(0x80 | (c & 0x3f));
			n = 2;
		} else if (c < 0x10000) {
			u[0] = (char)(0xe0 | c >> 12);
			u[1] = (char)(0x80 | (c >> 6 & 0x3f));
			u[2] = (char)(0x80 | (c & 0x3f));
			n = 3;
		} else {
			u[0] = (char)(0xf0 | c >> 18);
			u[1] = (char)(0x80 | (c >> 12 & 0x3f));
			u[2] = (char)(0x80 | (c >> 6 & 0x3f));
			u[3] = (char)(0x80 | (c & 0x3f));
			n = 4;
		}
		strbuf_add(&sb, u, n);
	}
	return strbuf_take(&sb);
}

static char *
four_part(uint32_t ms, uint32_t ls)
{
	return xasprintf("%u.%u.%u.%u", (unsigned)(ms >> 16),
	    (unsigned)(ms & 0xffff), (unsigned)(ls >> 16),
	    (unsigned)(ls & 0xffff));
}

/* The first string table's strings of a StringFileInfo block. */
static int
version_strings(struct reader *r, const unsigned char *b,
    const struct vblock *sfi, struct peobj *out)
{
	struct vblock tab, s;

	if (sfi->value >= sfi->end)
		return 0;
	if (vblock(b, sfi->end, sfi->value, &tab) != 0)
		return damage(r, _("the version resource's string table at "
		    "byte %zu is damaged"), sfi->value);
	for (size_t off = tab.value; off < tab.end; off = align4(s.end)) {
		char **slot = NULL;

		if (vblock(b, tab.end, off, &s) != 0)
			return damage(r, _("the version resource's string at "
			    "byte %zu is damaged"), off);
		if (strcmp(s.key, "FileVersion") == 0)
			slot = &out->file_version_str;
		else if (strcmp(s.key, "ProductVersion") == 0)
			slot = &out->product_version_str;
		else if (strcmp(s.key, "ProductName") == 0)
			slot = &out->product_name;
		if (slot != NULL && *slot == NULL)
			*slot = utf16_to_utf8(b, s.value, s.end);
	}
	return 0;
}

static int
parse_version(struct reader *r, const unsigned char *b, size_t len,
    struct peobj *out)
{
	struct vblock root, c;

	if (vblock(b, len, 0, &root) != 0)
		return damage(r, _("the version resource is damaged (its first "
		    "block does not fit its %zu bytes)"), len);
	if (strcmp(root.key, "VS_VERSION_INFO") != 0)
		return damage(r, _("the version resource starts with \"%s\", "
		    "not VS_VERSION_INFO"), root.key);
	out->has_version = true;
	if (root.vlen >= 52 && root.end - root.value >= 52) {
		const unsigned char *f = b + root.value;

		if (le32(f) != VS_FFI_SIGNATURE)
			return damage(r, _("the version resource's "
			    "VS_FIXEDFILEINFO has signature %#x, not %#x"),
			    (unsigned)le32(f), VS_FFI_SIGNATURE);
		out->file_version = four_part(le32(f + 8), le32(f + 12));
		out->product_version = four_part(le32(f + 16), le32(f + 20));
	}
	for (size_t off = align4(root.value + root.vlen); off < root.end;
	    off = align4(c.end)) {
		if (vblock(b, root.end, off, &c) != 0)
			return damage(r, _("the version resource's block at "
			    "byte %zu is damaged"), off);
		if (strcmp(c.key, "StringFileInfo") == 0 &&
		    out->product_name == NULL && out->file_version_str == NULL &&
		    version_strings(r, b, &c, out) != 0)
			return -1;
	}
	return 0;
}

static int
read_version(struct reader *r, struct peobj *out)
{
	struct res rs = { 0 };
	uint32_t t, data_rva, size;
	uint64_t off, avail;
	const unsigned char *p;
	unsigned char *buf;
	int rc;

	if (r->dir[DIR_RESOURCE].rva == 0)
		return 0;
	if (rva_off(r, r->dir[DIR_RESOURCE].rva, &rs.base, &rs.avail) != 0)
		return damage(r, _("the resource directory at RVA %#x lies "
		    "outside the file's sections"),
		    (unsigned)r->dir[DIR_RESOURCE].rva);
	/* Type, then name, then language: below RT_VERSION the first name
	 * (a DLL carries one version resource) and in it US English, the
	 * language NVIDIA's DLLs carry, or else the first language (Wine's
	 * kernel32.dll has one for each it speaks, Arabic first). */
	if ((rc = res_find(r, &rs, 0, RT_VERSION, false, &t)) <= 0)
		return rc;
	for (int level = 0; level < 2; level++) {
		if ((t & 0x80000000u) == 0)
			return damage(r, _("the resource tree ends in data at "
			    "level %d of 3 below RT_VERSION"), level + 1);
		if ((rc = res_find(r, &rs, t & 0x7fffffffu,
		    level == 1 ? LANG_EN_US : -1, true, &t)) < 0)
			return -1;
		if (rc == 0)
			return 0;
	}
	if ((t & 0x80000000u) != 0) {
		for (unsigned i = 0; i < rs.nseen; i++)
			if (rs.seen[i] == (t & 0x7fffffffu))
				return damage(r, _("the resource tree loops: "
				    "the directory at offset %#x is reached "
				    "again"), (unsigned)(t & 0x7fffffffu));
		return damage(r, _("the resource tree is deeper than three "
		    "levels below RT_VERSION"));
	}
	if (t > rs.avail || rs.avail - t < 16 ||
	    (p = at(r, rs.base + t, 16, _("a resource data entry"))) == NULL)
		return r->err != NULL ? -1 : damage(r, _("the version "
		    "resource's data entry at offset %#x lies outside the "
		    "resource section"), (unsigned)t);
	data_rva = le32(p);
	size = le32(p + 4);
	if (size > MAX_VERSION)
		return damage(r, _("the version resource claims %u bytes (more "
		    "than %u)"), (unsigned)size, MAX_VERSION);
	if (rva_off(r, data_rva, &off, &avail) != 0 || avail < size ||
	    off > r->size || r->size - off < size)
		return damage(r, _("the version resource at RVA %#x (%u bytes) "
		    "lies outside the file's sections or the file"),
		    (unsigned)data_rva, (unsigned)size);
	buf = xmalloc(size > 0 ? size : 1);
	rc = fetch(r, off, buf, size);
	if (rc == 0)
		rc = parse_version(r, buf, size, out);
	free(buf);
	return rc;
}

static int
parse(struct reader *r, unsigned what, struct peobj *out)
{
	r->win = xmalloc(WINDOW);
	if (read_headers(r, out) != 0 ||
	    (r->dir[DIR_IMPORT].rva != 0 &&
	    read_dll_list(r, r->dir[DIR_IMPORT].rva, r->dir[DIR_IMPORT].size,
	    20, false,
	    &out->imports) != 0) ||
	    (r->dir[DIR_DELAY].rva != 0 &&
	    read_dll_list(r, r->dir[DIR_DELAY].rva, r->dir[DIR_DELAY].size,
	    32, true,
	    &out->delay_imports) != 0) ||
	    ((what & PE_EXPORTS) != 0 && read_exports(r, out) != 0) ||
	    read_version(r, out) != 0) {
		/* Every failing step has set the message. */
	}
	free(r->win);
	r->win = NULL;
	return r->err != NULL ? -1 : 0;
}

static int
finish(struct reader *r, struct peobj *out, char **err)
{
	if (r->err != NULL) {
		pe_free(out);
		*err = r->err;
		return -1;
	}
	return 0;
}

int
pe_read_mem(const void *buf, size_t len, const char *name, unsigned what,
    struct peobj *out, char **err)
{
	struct reader r;

	memset(out, 0, sizeof *out);
	memset(&r, 0, sizeof r);
	*err = NULL;
	r.path = name;
	r.fd = -1;
	r.mem = buf;
	r.size = len;
	parse(&r, what, out);
	return finish(&r, out, err);
}

/* The Windows C runtime's stat keeps whole seconds only. */
static bool
same_mtime(const struct stat *a, const struct stat *b)
{
#ifdef _WIN32
	return a->st_mtime == b->st_mtime;
#else
	return a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
#endif
}

int
pe_read(const struct sysroot *sr, const char *path, unsigned what,
    struct peobj *out, char **err)
{
	struct reader r;
	struct stat before, after;
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
	if (fstat(fd, &before) != 0) {
		damage(&r, _("cannot read it: %s"), strerror(errno));
	} else {
		r.fd = fd;
		r.size = (uint64_t)before.st_size;
		parse(&r, what, out);
		/* Parts read before and after a rewrite do not make one
		 * file. */
		if (r.err == NULL && (fstat(fd, &after) != 0 ||
		    after.st_size != before.st_size ||
		    !same_mtime(&before, &after)))
			damage(&r, _("the file changed while it was read"));
	}
	close(fd);
	return finish(&r, out, err);
}

void
pe_free(struct peobj *obj)
{
	strv_free(&obj->imports);
	strv_free(&obj->delay_imports);
	strv_free(&obj->exports);
	FREE(&obj->export_dll);
	FREE(&obj->file_version);
	FREE(&obj->product_version);
	FREE(&obj->file_version_str);
	FREE(&obj->product_version_str);
	FREE(&obj->product_name);
	memset(obj, 0, sizeof *obj);
}

bool
pe_exports(const struct peobj *obj, const char *name)
{
	return strv_contains(&obj->exports, name);
}

bool
pe_imports(const struct peobj *obj, const char *dll)
{
	for (size_t i = 0; i < obj->imports.n; i++)
		if (strcasecmp(obj->imports.v[i], dll) == 0)
			return true;
	for (size_t i = 0; i < obj->delay_imports.n; i++)
		if (strcasecmp(obj->delay_imports.v[i], dll) == 0)
			return true;
	return false;
}

const char *
pe_machine_name(unsigned machine, char *buf, size_t n)
{
	switch (machine) {
	case PE_MACHINE_AMD64:
		return "x86-64";
	case PE_MACHINE_I386:
		return "i386";
	case PE_MACHINE_ARM64:
		return "ARM64";
	default:
		snprintf(buf, n, _("machine %#x"), machine);
		return buf;
	}
}
