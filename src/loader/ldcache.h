/* /etc/ld.so.cache, read directly.
 *
 * Three layouts exist: glibc's current one ("glibc-ld.so.cache1.1"), the
 * old one ("ld.so-1.7.0") alone, and the old one with the new one appended
 * after it (what ldconfig wrote for years by default). The new format may
 * carry an extension naming glibc-hwcaps subdirectories; entries that point
 * into one carry its name. Every offset and count in the file is checked
 * against its size: a damaged cache is an error with a reason.
 *
 * The lookup is glibc's _dl_load_cache_lookup(): entries for the name whose
 * flags match the loader's ABI, a glibc-hwcaps entry for an active
 * subdirectory first (in the loader's priority order), then a plain entry. */
#ifndef CUDAWIZ_LDCACHE_H
#define CUDAWIZ_LDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

/* The flags word of an entry (glibc's sysdeps/generic/ldconfig.h): the
 * low byte is the kind of library, the next one the ABI it needs. */
#define LDCACHE_FLAG_TYPE_MASK		0x00ff
#define LDCACHE_FLAG_ELF		0x0001
#define LDCACHE_FLAG_ELF_LIBC6		0x0003
#define LDCACHE_FLAG_REQUIRED_MASK	0xff00
#define LDCACHE_FLAG_SPARC_LIB64	0x0100
#define LDCACHE_FLAG_IA64_LIB64		0x0200
#define LDCACHE_FLAG_X8664_LIB64	0x0300
#define LDCACHE_FLAG_S390_LIB64		0x0400
#define LDCACHE_FLAG_POWERPC_LIB64	0x0500
#define LDCACHE_FLAG_X8664_LIBX32	0x0800
#define LDCACHE_FLAG_ARM_LIBHF		0x0900
#define LDCACHE_FLAG_AARCH64_LIB64	0x0a00
#define LDCACHE_FLAG_ARM_LIBSF		0x0b00
#define LDCACHE_FLAG_RISCV_FLOAT_ABI_DOUBLE 0x1000

/* The hwcap word of a new-format entry: with only this bit set in the
 * upper half (ISA level bits aside), the low 32 bits index the
 * glibc-hwcaps subdirectory names of the extension. */
#define LDCACHE_HWCAP_EXTENSION		(UINT64_C(1) << 62)
/* The legacy "tls" subdirectory. */
#define LDCACHE_HWCAP_TLS		(UINT64_C(1) << 63)

/* The largest cache read, far above any real one (~60 KiB for 1000 libraries). */
#define LDCACHE_MAX_SIZE		((size_t)64 << 20)

enum ldcache_format {
	LDCACHE_NEW = 0,	/* glibc-ld.so.cache1.1 only */
	LDCACHE_OLD,		/* ld.so-1.7.0 only */
	LDCACHE_OLD_NEW,	/* ld.so-1.7.0 followed by glibc-ld.so.cache1.1 */
};

struct ldcache_entry {
	char		*key;		/* "libcudart.so.12" */
	char		*value;		/* "/usr/local/cuda-12.4/lib64/libcudart.so.12" */
	int32_t		 flags;		/* FLAG_ELF_LIBC6 | FLAG_X8664_LIB64, … */
	uint64_t	 hwcap;		/* the entry's hwcap word (new format) */
	const char	*hwcaps_subdir;	/* "x86-64-v3" when it is a glibc-hwcaps entry, else NULL (points into hwcaps_subdirs) */
	uint32_t	 osversion;	/* the required kernel (new format; glibc 2.36's ldconfig writes 0) */
};

/* key and value point into data, which the cache owns: they are not
 * freed one by one. Of an old format with the new one after it, entries
 * are the new part's, as glibc uses only that. Lookups bisect the entries
 * in file order, as glibc does (ldconfig sorts them). */
struct ldcache {
	enum ldcache_format	 format;
	struct {
		struct ldcache_entry	*v;
		size_t			 n, cap;
	} entries;			/* in file order (sorted as ldconfig wrote them) */
	struct strv		 hwcaps_subdirs;	/* from the extension; "" for a name the file does not hold */
	char			*generator;	/* "ldconfig (Debian GLIBC 2.36-9) stable release version 2.36"; NULL when absent */
	char			*data;		/* the file */
	size_t			 size;
};

/* Reads the cache at path inside the sysroot. Returns 0, or an errno or
 * SYSROOT_* code with *err set (ENOENT: there is no cache, not an error of
 * the file), or -1 with *err naming the damage (SYSROOT_ENOTREG is -1
 * too: only the message tells them apart). On success *err is NULL; on
 * failure out holds nothing to free. */
int	ldcache_read(const struct sysroot *sr, const char *path,
	    struct ldcache *out, char **err);
/* The same for a file already in memory (copied; path only names it in
 * messages). Returns 0 or -1. */
int	ldcache_parse(const void *data, size_t len, const char *path,
	    struct ldcache *out, char **err);
void	ldcache_free(struct ldcache *c);

/* The flags word an entry must carry for a loader of this class and
 * machine (glibc's _DL_CACHE_DEFAULT_ID for it); -1 when unknown. */
int32_t	ldcache_abi_flags(int elf_class, unsigned machine);
/* "libc6,x86-64" as ldconfig -p prints the flags; into buf of size n. */
const char *ldcache_flags_name(int32_t flags, char *buf, size_t n);
/* All ldconfig -p prints between the parentheses of an entry:
 * "libc6,x86-64, hwcap: \"x86-64-v3\"". */
const char *ldcache_entry_describe(const struct ldcache_entry *e, char *buf,
	    size_t n);

/* glibc's lookup: the entry for name with the flags glibc's check takes
 * for abi_flags (exactly them, except that the generic loaders, i386's
 * among them, also take plain ELF entries), preferring an
 * entry in an active glibc-hwcaps subdirectory (active lists them in
 * priority order, best first; NULL or empty: none active). NULL when the
 * cache has none.
 *
 * Entries of libraries in legacy hwcap subdirectories ("tls", "haswell",
 * "x86_64" …) count only for the capabilities every CPU of the ABI has:
 * "tls" always, "x86_64" for x86-64 and x32. The x86 ISA level an entry
 * in a glibc-hwcaps subdirectory needs is judged from the active names:
 * "x86-64-v3" active means the CPU has v3. */
const struct ldcache_entry *ldcache_lookup(const struct ldcache *c,
	    const char *name, int32_t abi_flags, const struct strv *active);

/* What the loader knows of the CPU, for the entries that depend on it. */
struct ldcache_cpu {
	/* The legacy subdirectories it supports, as `ld.so --help` lists
	 * them ("haswell", "tls", "avx512_1", "x86_64"). "tls/haswell/x86_64"
	 * counts as each of its parts and unknown names ("glibc-hwcaps",
	 * "x86-64-v3") are passed over, so a profile's subdirectory list may
	 * be given as it is. NULL: only what every CPU of the ABI has. */
	const struct strv	*legacy;
	/* The x86 ISA levels the CPU has, as GNU_PROPERTY_X86_ISA_1 bits
	 * (x86.cpu_features.isa_1 in `ld.so --list-diagnostics`). glibc
	 * holds glibc-hwcaps entries to it, and computes it before
	 * GLIBC_TUNABLES can take subdirectories away. 0: judged from the
	 * active subdirectories. */
	unsigned		 x86_isa;
};

/* ldcache_lookup() with what the loader knows of the CPU (NULL: as
 * ldcache_lookup()). */
const struct ldcache_entry *ldcache_lookup_cpu(const struct ldcache *c,
	    const char *name, int32_t abi_flags, const struct strv *active,
	    const struct ldcache_cpu *cpu);

#endif
