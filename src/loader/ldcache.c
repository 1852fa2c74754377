/* The ld.so.cache reader and glibc 2.36's lookup in it; see ldcache.h.
 *
 * The layouts are glibc's (sysdeps/generic/dl-cache.h, elf/cache.c). The
 * numbers are in the byte order of the machine that wrote the file, which
 * must be this one's, as it must for the loader. The file is kept whole
 * and entries point into it; fields are read with memcpy, so nothing
 * assumes alignment. Where the loader quietly passes over something odd
 * (an unknown extension section, a glibc-hwcaps table it cannot use) so
 * does this reader; where the loader would read outside the file or
 * compare garbage, the file is damaged. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "loader/ldcache.h"
#include "util/xalloc.h"

#define OLD_MAGIC	"ld.so-1.7.0"
#define OLD_HEADER	16	/* magic (11 bytes), padding, nlibs */
#define OLD_NLIBS	12
#define OLD_ENTRY	12	/* flags, key, value */

#define NEW_MAGIC	"glibc-ld.so.cache1.1"
#define NEW_HEADER	48
#define NEW_NLIBS	20
#define NEW_FLAGS	28	/* one byte: the byte order mark */
#define NEW_EXTENSION	32
#define NEW_ENTRY	24	/* flags, key, value, osversion, hwcap */
/* struct cache_file_new is 8-byte aligned on 64-bit machines; ldconfig
 * pads the old part to an even count of entries so that 32-bit loaders,
 * which align it to 4, find it at the same place. */
#define NEW_ALIGN	8

#define ENDIAN_MASK	3
#define ENDIAN_LITTLE	2
#define ENDIAN_BIG	3

#define EXT_MAGIC	((uint32_t)-358342284)
#define EXT_HEADER	8	/* magic, count */
#define EXT_SECTION	16	/* tag, flags, offset, size */
#define EXT_GENERATOR	0
#define EXT_HWCAPS	1

/* The upper half of a glibc-hwcaps entry's hwcap: the extension bit and
 * the x86 ISA level the library needs. */
#define HWCAP_ISA_LEVEL_MASK	0x3ffu
/* x86's legacy platforms ("i586", "i686", "haswell", "xeon_phi"). */
#define HWCAP_PLATFORM_MASK	(UINT64_C(0xf) << 48)

/* Far above anything ldconfig writes, low enough that a hostile file
 * cannot make the reader allocate without bound. */
#define MAX_HWCAPS_NAMES	65536
#define MAX_HWCAPS_NAME		255

struct parse {
	const unsigned char	*p;
	size_t			 size;
	/* Offsets below this have a NUL at or after them in the file: a
	 * string starting there is terminated. */
	size_t			 terminated;
	const char		*path;
	char			**err;
};

static uint32_t
get32(const struct parse *ps, size_t off)
{
	uint32_t v;

	memcpy(&v, ps->p + off, sizeof v);
	return v;
}

static uint64_t
get64(const struct parse *ps, size_t off)
{
	uint64_t v;

	memcpy(&v, ps->p + off, sizeof v);
	return v;
}

__attribute__((format(printf, 2, 3)))
static int
damaged(const struct parse *ps, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	*ps->err = xasprintf(_("%s: damaged ld.so.cache: %s"), ps->path, what);
	free(what);
	return -1;
}

/* The string at base + off when the file holds all of it, else NULL. */
static const char *
string_at(const struct parse *ps, size_t base, uint32_t off)
{
	if (base > ps->size || off >= ps->size - base ||
	    base + off >= ps->terminated)
		return NULL;
	return (const char *)ps->p + base + off;
}

static int
bad_string(const struct parse *ps, size_t i, const char *what, size_t base,
    uint32_t off)
{
	if (base > ps->size || off >= ps->size - base)
		return damaged(ps, _("entry %zu: the %s's offset %" PRIu32
		    " lies outside the file (%zu bytes)"), i, what, off,
		    ps->size);
	return damaged(ps, _("entry %zu: the %s at offset %" PRIu32
	    " runs to the end of the file unterminated"), i, what, off);
}

/* count entries of esize bytes at first; their strings are relative to
 * base. */
static int
parse_entries(struct parse *ps, struct ldcache *c, size_t first, size_t count,
    size_t esize, size_t base)
{
	c->entries.v = xcalloc(count > 0 ? count : 1, sizeof *c->entries.v);
	c->entries.cap = count > 0 ? count : 1;
	for (size_t i = 0; i < count; i++) {
		struct ldcache_entry *e = &c->entries.v[i];
		size_t off = first + i * esize;
		uint32_t key = get32(ps, off + 4), value = get32(ps, off + 8);
		const char *k = string_at(ps, base, key);
		const char *v = string_at(ps, base, value);

		if (k == NULL)
			return bad_string(ps, i, _("name"), base, key);
		if (v == NULL)
			return bad_string(ps, i, _("path"), base, value);
		e->key = (char *)k;
		e->value = (char *)v;
		e->flags = (int32_t)get32(ps, off);
		if (esize == NEW_ENTRY) {
			e->osversion = get32(ps, off + 12);
			e->hwcap = get64(ps, off + 16);
		}
		c->entries.n = i + 1;
	}
	return 0;
}

static bool
hwcap_is_extension(uint64_t hwcap)
{
	return ((hwcap >> 32) & ~(uint64_t)HWCAP_ISA_LEVEL_MASK) ==
	    (LDCACHE_HWCAP_EXTENSION >> 32);
}

/* The glibc-hwcaps names: an array of file offsets of strings. glibc
 * drops a table that is empty or misaligned, and cannot match a name
 * outside the file; such names stay "" here so that indexes still hold. */
static int
parse_hwcaps(struct parse *ps, struct ldcache *c, uint32_t off, uint32_t size)
{
	size_t n = size / 4;

	if (size == 0 || off % 4 != 0 || size % 4 != 0)
		return 0;
	if (n > MAX_HWCAPS_NAMES)
		return damaged(ps, _("%zu glibc-hwcaps subdirectories (at most "
		    "%d are believable)"), n, MAX_HWCAPS_NAMES);
	for (size_t i = 0; i < n; i++) {
		const char *name = string_at(ps, 0, get32(ps, off + 4 * i));

		if (name == NULL || strnlen(name, MAX_HWCAPS_NAME + 1) >
		    MAX_HWCAPS_NAME)
			name = "";
		strv_push(&c->hwcaps_subdirs, name);
	}
	return 0;
}

/* The extension directory (offsets from the start of the file). glibc's
 * loader ignores a directory it cannot read; ldconfig -p refuses the file,
 * and so does this reader, the directory being where no ldconfig puts
 * one. Sections of unknown tags are skipped; of a repeated tag, the last
 * counts, as in glibc. */
static int
parse_extension(struct parse *ps, struct ldcache *c, uint32_t off)
{
	uint32_t count, gen_off = 0, gen_size = 0, hw_off = 0, hw_size = 0;
	bool have_gen = false, have_hw = false;

	if (off == 0)
		return 0;
	if (off % 4 != 0)
		return damaged(ps, _("the extension directory's offset %" PRIu32
		    " is not a multiple of 4"), off);
	if (off > ps->size || ps->size - off < EXT_HEADER)
		return damaged(ps, _("the extension directory at offset %" PRIu32
		    " lies outside the file (%zu bytes)"), off, ps->size);
	if (get32(ps, off) != EXT_MAGIC)
		return damaged(ps, _("the extension directory at offset %" PRIu32
		    " does not start with its magic number"), off);
	count = get32(ps, off + 4);
	if (count > (ps->size - off - EXT_HEADER) / EXT_SECTION)
		return damaged(ps, _("the extension directory's %" PRIu32
		    " sections run past the end of the file"), count);
	for (uint32_t i = 0; i < count; i++) {
		size_t s = off + EXT_HEADER + (size_t)i * EXT_SECTION;
		uint32_t tag = get32(ps, s), soff = get32(ps, s + 8),
		    ssize = get32(ps, s + 12);

		if ((uint64_t)soff + ssize > ps->size)
			return damaged(ps, _("extension section %" PRIu32 " (%"
			    PRIu32 " bytes at offset %" PRIu32 ") lies outside "
			    "the file"), i, ssize, soff);
		if (tag == EXT_GENERATOR) {
			have_gen = true;
			gen_off = soff;
			gen_size = ssize;
		} else if (tag == EXT_HWCAPS) {
			have_hw = true;
			hw_off = soff;
			hw_size = ssize;
		}
	}
	if (have_gen)
		c->generator = xstrndup((const char *)ps->p + gen_off, gen_size);
	if (have_hw)
		return parse_hwcaps(ps, c, hw_off, hw_size);
	return 0;
}

static int
parse_new(struct parse *ps, struct ldcache *c, size_t at)
{
	unsigned endian = ps->p[at + NEW_FLAGS];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	unsigned ours = ENDIAN_LITTLE;
#else
	unsigned ours = ENDIAN_BIG;
#endif
	size_t nlibs;
	int rc;

	/* glibc's cache_file_new_matches_endian(): 0 is "not recorded". */
	if (endian != 0 && (endian & ENDIAN_MASK) != ours)
		return damaged(ps, _("its byte order mark (%u) is not this "
		    "machine's (%u)"), endian, ours);
	nlibs = get32(ps, at + NEW_NLIBS);
	if (nlibs > (ps->size - at - NEW_HEADER) / NEW_ENTRY)
		return damaged(ps, _("%zu entries of %d bytes do not fit in "
		    "the %zu bytes after the header"), nlibs, NEW_ENTRY,
		    ps->size - at - NEW_HEADER);
	/* Strings are relative to the new header, in both layouts. */
	rc = parse_entries(ps, c, at + NEW_HEADER, nlibs, NEW_ENTRY, at);
	if (rc == 0)
		rc = parse_extension(ps, c, get32(ps, at + NEW_EXTENSION));
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < c->entries.n; i++) {
		struct ldcache_entry *e = &c->entries.v[i];
		uint32_t ix = (uint32_t)e->hwcap;

		if (hwcap_is_extension(e->hwcap) && ix < c->hwcaps_subdirs.n &&
		    c->hwcaps_subdirs.v[ix][0] != '\0')
			e->hwcaps_subdir = c->hwcaps_subdirs.v[ix];
	}
	return 0;
}

/* Whether the first n bytes of the file (all it has, when shorter) are
 * magic's start. */
static bool
has_magic(const struct parse *ps, const char *magic)
{
	size_t n = strlen(magic);

	return memcmp(ps->p, magic, ps->size < n ? ps->size : n) == 0;
}

static int
parse_layout(struct parse *ps, struct ldcache *c)
{
	size_t nlibs, at;

	if (ps->size == 0)
		return damaged(ps, _("the file is empty"));
	/* The new format is tried first, as glibc 2.36's loader does. */
	if (has_magic(ps, NEW_MAGIC)) {
		if (ps->size < NEW_HEADER)
			return damaged(ps, _("the header is cut short (%zu of "
			    "%d bytes)"), ps->size, NEW_HEADER);
		c->format = LDCACHE_NEW;
		return parse_new(ps, c, 0);
	}
	if (!has_magic(ps, OLD_MAGIC)) {
		*ps->err = xasprintf(_("%s: not an ld.so.cache: it starts with "
		    "neither \"%s\" nor \"%s\""), ps->path, NEW_MAGIC,
		    OLD_MAGIC);
		return -1;
	}
	if (ps->size < OLD_HEADER)
		return damaged(ps, _("the header is cut short (%zu of %d "
		    "bytes)"), ps->size, OLD_HEADER);
	nlibs = get32(ps, OLD_NLIBS);
	if (nlibs > (ps->size - OLD_HEADER) / OLD_ENTRY)
		return damaged(ps, _("%zu entries of %d bytes do not fit in "
		    "the %zu bytes after the header"), nlibs, OLD_ENTRY,
		    ps->size - OLD_HEADER);
	/* The new format hides in the old one's string table; without its
	 * magic there, the file is the old format alone. */
	at = (OLD_HEADER + nlibs * OLD_ENTRY + NEW_ALIGN - 1) &
	    ~(size_t)(NEW_ALIGN - 1);
	if (at <= ps->size && ps->size - at >= NEW_HEADER &&
	    memcmp(ps->p + at, NEW_MAGIC, strlen(NEW_MAGIC)) == 0) {
		c->format = LDCACHE_OLD_NEW;
		return parse_new(ps, c, at);
	}
	c->format = LDCACHE_OLD;
	/* Old strings are relative to the end of the old entries. */
	return parse_entries(ps, c, OLD_HEADER, nlibs, OLD_ENTRY,
	    OLD_HEADER + nlibs * OLD_ENTRY);
}

/* Takes data (len bytes; nothing is read past them). */
static int
parse_owned(char *data, size_t len, const char *path, struct ldcache *out,
    char **err)
{
	struct parse ps = {
		.p = (const unsigned char *)data, .size = len, .path = path,
		.err = err,
	};

	memset(out, 0, sizeof *out);
	out->data = data;
	out->size = len;
	for (size_t i = len; i > 0; i--) {
		if (data[i - 1] == '\0') {
			ps.terminated = i;
			break;
		}
	}
	*err = NULL;
	if (parse_layout(&ps, out) != 0) {
		ldcache_free(out);
		return -1;
	}
	return 0;
}

int
ldcache_parse(const void *data, size_t len, const char *path,
    struct ldcache *out, char **err)
{
	/* Exactly len bytes, so that a sanitizer sees any read past them. */
	char *copy = xmalloc(len > 0 ? len : 1);

	if (len > 0)
		memcpy(copy, data, len);
	return parse_owned(copy, len, path, out, err);
}

int
ldcache_read(const struct sysroot *sr, const char *path, struct ldcache *out,
    char **err)
{
	char *data;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	*err = NULL;
	rc = sysroot_read_file(sr, path, LDCACHE_MAX_SIZE, &data, &len);
	if (rc == SYSROOT_ETOOBIG) {
		*err = xasprintf(_("%s: larger than %zu MiB, not an ld.so.cache"),
		    path, LDCACHE_MAX_SIZE >> 20);
		return rc;
	}
	if (rc != 0) {
		*err = xasprintf("%s: %s", path, sysroot_strerror(rc));
		return rc;
	}
	return parse_owned(data, len, path, out, err);
}

void
ldcache_free(struct ldcache *c)
{
	if (c == NULL)
		return;
	FREE(&c->entries.v);
	strv_free(&c->hwcaps_subdirs);
	FREE(&c->generator);
	FREE(&c->data);
	memset(c, 0, sizeof *c);
}

int32_t
ldcache_abi_flags(int elf_class, unsigned machine)
{
	bool is64 = elf_class == 64 || elf_class == ELFCLASS64;
	bool is32 = elf_class == 32 || elf_class == ELFCLASS32;
	const int32_t libc6 = LDCACHE_FLAG_ELF_LIBC6;

	if (!is64 && !is32)
		return -1;
	switch (machine) {
	case EM_X86_64:
		return libc6 | (is64 ? LDCACHE_FLAG_X8664_LIB64 :
		    LDCACHE_FLAG_X8664_LIBX32);
	case EM_AARCH64:
		return is64 ? libc6 | LDCACHE_FLAG_AARCH64_LIB64 : -1;
	case EM_PPC64:
		return is64 ? libc6 | LDCACHE_FLAG_POWERPC_LIB64 : -1;
	case EM_S390:
		return libc6 | (is64 ? LDCACHE_FLAG_S390_LIB64 : 0);
	case EM_RISCV:
		/* lp64d; the soft-float ABI would need the ELF header's
		 * e_flags, which the caller does not give. */
		return is64 ? libc6 | LDCACHE_FLAG_RISCV_FLOAT_ABI_DOUBLE : -1;
	case EM_ARM:
		/* armhf, for the same reason. */
		return is32 ? libc6 | LDCACHE_FLAG_ARM_LIBHF : -1;
	case EM_386:
	case EM_PPC:
		return is32 ? libc6 : -1;
	default:
		return -1;
	}
}

/* elf/cache.c's print_entry(), as glibc 2.36's ldconfig -p prints. */
static const struct {
	int32_t		 flag;
	const char	*name;
} required_names[] = {
	{ 0x0100, ",64bit" },		/* SPARC */
	{ 0x0200, ",IA-64" },
	{ 0x0300, ",x86-64" },
	{ 0x0400, ",64bit" },		/* s390 */
	{ 0x0500, ",64bit" },		/* POWER */
	{ 0x0600, ",N32" },
	{ 0x0700, ",64bit" },		/* MIPS n64 */
	{ 0x0800, ",x32" },
	{ 0x0900, ",hard-float" },	/* ARM */
	{ 0x0a00, ",AArch64" },
	{ 0x0b00, ",soft-float" },	/* ARM */
	{ 0x0c00, ",nan2008" },
	{ 0x0d00, ",N32,nan2008" },
	{ 0x0e00, ",64bit,nan2008" },
	{ 0x0f00, ",soft-float" },	/* RISC-V */
	{ 0x1000, ",double-float" },	/* RISC-V */
	/* LoongArch's 0x1100 and 0x1200 are printed as numbers by 2.36. */
};

const char *
ldcache_flags_name(int32_t flags, char *buf, size_t n)
{
	static const char *const types[] = { "libc4", "ELF", "libc5", "libc6" };
	int32_t type = flags & LDCACHE_FLAG_TYPE_MASK;
	int32_t req = flags & LDCACHE_FLAG_REQUIRED_MASK;
	const char *tname = type < 4 ? types[type] : _("unknown");
	const char *rname = "";
	char num[16];

	for (size_t i = 0; i < sizeof required_names / sizeof *required_names;
	    i++)
		if (required_names[i].flag == req)
			rname = required_names[i].name;
	if (req != 0 && *rname == '\0') {
		snprintf(num, sizeof num, ",%d", (int)req);
		rname = num;
	}
	snprintf(buf, n, "%s%s", tname, rname);
	return buf;
}

const char *
ldcache_entry_describe(const struct ldcache_entry *e, char *buf, size_t n)
{
	char flags[64];

	ldcache_flags_name(e->flags, flags, sizeof flags);
	if (e->hwcaps_subdir != NULL)
		snprintf(buf, n, "%s, hwcap: \"%s\"", flags, e->hwcaps_subdir);
	else if (e->hwcap != 0)
		snprintf(buf, n, "%s, hwcap: 0x%016" PRIx64, flags, e->hwcap);
	else
		snprintf(buf, n, "%s", flags);
	return buf;
}

/* _dl_cache_check_flags(): exact, except that the generic loaders
 * (i386, 32-bit POWER and s390 …) take plain ELF entries too, and ARM
 * ones take entries marked neither hard- nor soft-float. */
static bool
flags_match(int32_t abi, int32_t flags)
{
	if (flags == abi)
		return true;
	if (abi == LDCACHE_FLAG_ELF_LIBC6)
		return flags == LDCACHE_FLAG_ELF;
	if (abi == (LDCACHE_FLAG_ARM_LIBHF | LDCACHE_FLAG_ELF_LIBC6) ||
	    abi == (LDCACHE_FLAG_ARM_LIBSF | LDCACHE_FLAG_ELF_LIBC6))
		return flags == LDCACHE_FLAG_ELF_LIBC6;
	return false;
}

/* _DL_CACHE_DEFAULT_ID: a plain entry with it ends the search. ARM's
 * loader keeps the generic one. */
static int32_t
default_id(int32_t abi)
{
	if (abi == (LDCACHE_FLAG_ARM_LIBHF | LDCACHE_FLAG_ELF_LIBC6) ||
	    abi == (LDCACHE_FLAG_ARM_LIBSF | LDCACHE_FLAG_ELF_LIBC6))
		return LDCACHE_FLAG_ELF_LIBC6;
	return abi;
}

static bool
abi_is_x86_64(int32_t abi)
{
	return abi == (LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIB64) ||
	    abi == (LDCACHE_FLAG_ELF_LIBC6 | LDCACHE_FLAG_X8664_LIBX32);
}

/* What the loader checks hwcap words against. */
struct caps {
	uint64_t	 hwcap;		/* legacy bits granted (GLRO(dl_hwcap) & mask) */
	uint64_t	 platform;	/* the legacy platform's bit; 0: none known */
	unsigned	 isa;		/* x86 ISA levels the CPU has, 1 << level; 0: no check */
};

/* x86's tables (sysdeps/x86/dl-procinfo.c), which are the only ones with
 * legacy capabilities a CUDA machine meets, and "tls". */
static const struct {
	const char	*name;
	unsigned	 bit;
	bool		 platform;
} legacy_caps[] = {
	{ "sse2", 0, false },
	{ "x86_64", 1, false },
	{ "avx512_1", 2, false },
	{ "i586", 48, true },
	{ "i686", 49, true },
	{ "haswell", 50, true },
	{ "xeon_phi", 51, true },
	{ "tls", 63, false },
};

static void
grant_legacy(struct caps *caps, const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof legacy_caps / sizeof *legacy_caps; i++) {
		if (strlen(legacy_caps[i].name) != len ||
		    memcmp(legacy_caps[i].name, name, len) != 0)
			continue;
		if (!legacy_caps[i].platform)
			caps->hwcap |= UINT64_C(1) << legacy_caps[i].bit;
		else if (caps->platform == 0)
			caps->platform = UINT64_C(1) << legacy_caps[i].bit;
	}
}

static void
caps_init(struct caps *caps, int32_t abi, const struct strv *active,
    const struct ldcache_cpu *cpu)
{
	const struct strv *legacy = cpu != NULL ? cpu->legacy : NULL;

	memset(caps, 0, sizeof *caps);
	/* The loader always lets "tls" through, and on x86-64 its hwcap
	 * word always has HWCAP_X86_64. */
	caps->hwcap = LDCACHE_HWCAP_TLS;
	if (abi_is_x86_64(abi)) {
		caps->hwcap |= UINT64_C(1) << 1;
		/* Every x86-64 CPU has the baseline; the glibc-hwcaps names
		 * the loader supports say which levels above it. */
		caps->isa = 1;
		for (size_t i = 0; active != NULL && i < active->n; i++) {
			if (strcmp(active->v[i], "x86-64-v2") == 0)
				caps->isa |= 1u << 1;
			else if (strcmp(active->v[i], "x86-64-v3") == 0)
				caps->isa |= 1u << 2;
			else if (strcmp(active->v[i], "x86-64-v4") == 0)
				caps->isa |= 1u << 3;
		}
		if (cpu != NULL && cpu->x86_isa != 0)
			caps->isa = cpu->x86_isa;
	}
	for (size_t i = 0; legacy != NULL && i < legacy->n; i++) {
		const char *s = legacy->v[i];

		while (*s != '\0') {
			size_t len = strcspn(s, "/");

			grant_legacy(caps, s, len);
			s += len;
			s += *s == '/';
		}
	}
}

/* dl_cache_hwcap_isa_level_compatible(), on x86 only. */
static bool
isa_ok(const struct caps *caps, uint64_t hwcap)
{
	unsigned level = (unsigned)(hwcap >> 32) & HWCAP_ISA_LEVEL_MASK;

	if (caps->isa == 0)
		return true;
	return level < 32 && (caps->isa & (1u << level)) != 0;
}

/* glibc 2.36's test of a legacy entry's hwcap word. */
static bool
legacy_ok(const struct caps *caps, uint64_t hwcap)
{
	uint64_t plat = hwcap & HWCAP_PLATFORM_MASK;

	if ((hwcap & ~(caps->hwcap | HWCAP_PLATFORM_MASK)) != 0)
		return false;
	return plat == 0 || plat == caps->platform;
}

/* glibc_hwcaps_priorities_init(): the cache's names, which ldconfig sorts,
 * merged with the loader's sorted by name; the priority of name k is the
 * loader's rank of it (1 is best), 0 when the merge does not meet it, as
 * it does not when the cache's names are out of order. */
static uint32_t
hwcaps_priority(const struct ldcache *c, uint32_t k, const struct strv *active,
    const size_t *sorted)
{
	size_t i = 0, j = 0;

	while (i < c->hwcaps_subdirs.n && j < active->n && i <= k) {
		const char *l = c->hwcaps_subdirs.v[i];
		int cmp = *l == '\0' ? -1 : strcmp(l, active->v[sorted[j]]);

		if (cmp == 0) {
			if (i == k)
				return (uint32_t)sorted[j] + 1;
			i++;
			j++;
		} else if (cmp < 0) {
			i++;
		} else {
			j++;
		}
	}
	return 0;
}

static size_t *
sort_active(const struct strv *active)
{
	size_t *v = xreallocarray(NULL, active->n, sizeof *v);

	for (size_t i = 0; i < active->n; i++) {
		size_t j = i;

		while (j > 0 && strcmp(active->v[v[j - 1]], active->v[i]) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = i;
	}
	return v;
}

/* glibc's _dl_cache_libcmp(), to the sign of its result: runs of digits
 * compare as numbers (in 32 bits, wrapping as glibc's int does), a digit
 * sorts after any other byte, other bytes compare as x86's signed char.
 * ldconfig sorts the entries in descending order of it. */
static int
libcmp(const char *p1, const char *p2)
{
	while (*p1 != '\0') {
		bool d1 = *p1 >= '0' && *p1 <= '9', d2 = *p2 >= '0' && *p2 <= '9';

		if (d1 && d2) {
			uint32_t v1 = 0, v2 = 0;

			while (*p1 >= '0' && *p1 <= '9')
				v1 = v1 * 10 + (uint32_t)(*p1++ - '0');
			while (*p2 >= '0' && *p2 <= '9')
				v2 = v2 * 10 + (uint32_t)(*p2++ - '0');
			if (v1 != v2)
				return (int32_t)(v1 - v2) < 0 ? -1 : 1;
		} else if (d1) {
			return 1;
		} else if (d2) {
			return -1;
		} else if (*p1 != *p2) {
			return (signed char)*p1 - (signed char)*p2;
		} else {
			p1++;
			p2++;
		}
	}
	return -(signed char)*p2;
}

/* The entries glibc's search_cache() walks for a name: it bisects the
 * entries (which ldconfig sorts), steps back to the first of the name,
 * then forward while the name holds, up to the bound the bisection left.
 * In a file out of order it misses entries, and so does this. */
struct run {
	const struct ldcache	*c;
	const char		*name;
	size_t			 pos, left, end;	/* end 0: no entry */
};

static void
run_init(struct run *r, const struct ldcache *c, const char *name)
{
	long left = 0, right = (long)c->entries.n - 1;

	memset(r, 0, sizeof *r);
	r->c = c;
	r->name = name;
	while (left <= right) {
		long middle = left + (right - left) / 2;
		int cmp = libcmp(name, c->entries.v[middle].key);

		if (cmp == 0) {
			left = middle;
			while (middle > 0 &&
			    libcmp(name, c->entries.v[middle - 1].key) == 0)
				middle--;
			r->pos = (size_t)middle;
			r->left = (size_t)left;
			r->end = (size_t)right + 1;
			return;
		}
		if (cmp < 0)
			left = middle + 1;
		else
			right = middle - 1;
	}
}

static const struct ldcache_entry *
run_next(struct run *r)
{
	const struct ldcache_entry *e;

	if (r->pos >= r->end)
		return NULL;
	e = &r->c->entries.v[r->pos];
	/* Past the entry the bisection met, the name must be tested. */
	if (r->pos > r->left && libcmp(r->name, e->key) != 0) {
		r->end = 0;
		return NULL;
	}
	r->pos++;
	return e;
}

/* search_cache() in glibc 2.36's elf/dl-cache.c, over the entries of the
 * name. The kernel version an entry needs is not checked: glibc 2.36's
 * ldconfig records none, and any kernel running CUDA is newer than the
 * ones older ones recorded. */
const struct ldcache_entry *
ldcache_lookup_cpu(const struct ldcache *c, const char *name,
    int32_t abi_flags, const struct strv *active, const struct ldcache_cpu *cpu)
{
	const struct ldcache_entry *e, *best = NULL;
	bool has_hwcap;
	uint32_t best_prio = 0;
	size_t *sorted = NULL;
	struct caps caps;
	struct run run;

	if (c == NULL || name == NULL || abi_flags < 0)
		return NULL;
	has_hwcap = c->format != LDCACHE_OLD;
	caps_init(&caps, abi_flags, active, cpu);
	run_init(&run, c, name);
	while ((e = run_next(&run)) != NULL) {
		bool named = false;

		if (!flags_match(abi_flags, e->flags))
			continue;
		if (has_hwcap) {
			named = hwcap_is_extension(e->hwcap);
			if (named && !isa_ok(&caps, e->hwcap))
				continue;
			/* ldconfig puts glibc-hwcaps entries first: the first
			 * plain one ends a search that found one. */
			if (!named && best != NULL)
				break;
			if (!named && !legacy_ok(&caps, e->hwcap))
				continue;
			if (named) {
				uint32_t prio;

				if (active == NULL || active->n == 0)
					continue;
				if (sorted == NULL)
					sorted = sort_active(active);
				prio = hwcaps_priority(c, (uint32_t)e->hwcap,
				    active, sorted);
				if (prio == 0 ||
				    (best != NULL && prio >= best_prio))
					continue;
				best_prio = prio;
			}
		}
		best = e;
		if (!named && e->flags == default_id(abi_flags))
			break;
	}
	free(sorted);
	return best;
}

const struct ldcache_entry *
ldcache_lookup(const struct ldcache *c, const char *name, int32_t abi_flags,
    const struct strv *active)
{
	return ldcache_lookup_cpu(c, name, abi_flags, active, NULL);
}
