/* Fatbinary architectures (issue 5: in progress). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "loader/fatbin.h"
#include "util/xalloc.h"

int
fatbin_read(const struct sysroot *sr, const char *path,
    struct fatbin_archs *out, char **err)
{
	(void)sr;
	memset(out, 0, sizeof *out);
	*err = xasprintf("%s: fatbinary reading is not built yet", path);
	return -1;
}

void
fatbin_archs_free(struct fatbin_archs *a)
{
	strv_free(&a->sass);
	strv_free(&a->ptx);
	memset(a, 0, sizeof *a);
}

bool
fatbin_arch_cc(const char *arch, char *buf, size_t n)
{
	(void)arch;
	(void)buf;
	(void)n;
	return false;
}
