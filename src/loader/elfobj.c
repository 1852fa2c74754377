/* Placeholder until the ELF reader lands; see elfobj.h. */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elfobj.h"
#include "util/xalloc.h"

enum elfobj_verdict
elfobj_check(const struct sysroot *sr, const char *path, int elf_class,
    unsigned machine, char **why)
{
	(void)sr; (void)path; (void)elf_class; (void)machine;
	if (why != NULL)
		*why = xstrdup("not implemented");
	return ELFOBJ_FATAL;
}

int
elfobj_read(const struct sysroot *sr, const char *path, unsigned what,
    struct elfobj *out, char **err)
{
	(void)sr; (void)what;
	memset(out, 0, sizeof *out);
	*err = xasprintf("%s: not implemented", path);
	return -1;
}

void
elfobj_free(struct elfobj *obj)
{
	(void)obj;
}

const struct elfobj_symbol *
elfobj_find_symbol(const struct elfobj *obj, const char *name,
    const char *version, bool defined)
{
	(void)obj; (void)name; (void)version; (void)defined;
	return NULL;
}

const char *
elfobj_machine_name(unsigned machine, char *buf, size_t n)
{
	snprintf(buf, n, "machine %u", machine);
	return buf;
}
