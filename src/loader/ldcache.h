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
};

struct ldcache {
	enum ldcache_format	 format;
	struct {
		struct ldcache_entry	*v;
		size_t			 n, cap;
	} entries;			/* in file order (sorted as ldconfig wrote them) */
	struct strv		 hwcaps_subdirs;	/* from the extension */
};

/* Reads the cache at path inside the sysroot. Returns 0, or an errno or
 * SYSROOT_* code with *err set (ENOENT: there is no cache, not an error of
 * the file), or -1 with *err naming the damage. */
int	ldcache_read(const struct sysroot *sr, const char *path,
	    struct ldcache *out, char **err);
void	ldcache_free(struct ldcache *c);

/* The flags word an entry must carry for a loader of this class and
 * machine (glibc's _DL_CACHE_DEFAULT_ID for it); -1 when unknown. */
int32_t	ldcache_abi_flags(int elf_class, unsigned machine);
/* "libc6,x86-64" as ldconfig -p prints the flags; into buf of size n. */
const char *ldcache_flags_name(int32_t flags, char *buf, size_t n);

/* glibc's lookup: the entry for name with exactly abi_flags, preferring an
 * entry in an active glibc-hwcaps subdirectory (active lists them in
 * priority order, best first; NULL or empty: none active). NULL when the
 * cache has none. */
const struct ldcache_entry *ldcache_lookup(const struct ldcache *c,
	    const char *name, int32_t abi_flags, const struct strv *active);

#endif
