/* Placeholder until the cache reader lands; see ldcache.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loader/ldcache.h"
#include "util/xalloc.h"

int
ldcache_read(const struct sysroot *sr, const char *path, struct ldcache *out,
    char **err)
{
	(void)sr;
	memset(out, 0, sizeof *out);
	*err = xasprintf("%s: not implemented", path);
	return -1;
}

void
ldcache_free(struct ldcache *c)
{
	(void)c;
}

int32_t
ldcache_abi_flags(int elf_class, unsigned machine)
{
	(void)elf_class; (void)machine;
	return -1;
}

const char *
ldcache_flags_name(int32_t flags, char *buf, size_t n)
{
	snprintf(buf, n, "0x%x", (unsigned)flags);
	return buf;
}

const struct ldcache_entry *
ldcache_lookup(const struct ldcache *c, const char *name, int32_t abi_flags,
    const struct strv *active)
{
	(void)c; (void)name; (void)abi_flags; (void)active;
	return NULL;
}
