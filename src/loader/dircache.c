/* The resolver's directory cache: every directory stat'ed and listed at
 * most once per world (or per session), its sorted listing searched
 * before any open(2); see resolve.c. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/resolve.h"
#include "loader/resolve_int.h"
#include "util/envp.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/xalloc.h"


struct dir_entry *
rv_dir_get(struct dir_cache *dc, const struct sysroot *sr, const char *path)
{
	struct dir_entry *d;
	struct stat st;
	size_t *ix = strmap_get(&dc->index, path);
	int rc;

	if (ix != NULL)
		return dc->dirs.v[*ix];
	d = xcalloc(1, sizeof *d);
	*(struct dir_entry **)VEC_PUSH(&dc->dirs) = d;
	(void)strmap_put(&dc->index, path, dc->dirs.n - 1);
	d->path = xstrdup(path);
	/* "" is the current directory. */
	if (sysroot_stat(sr, path[0] != '\0' ? path : ".", &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		d->state = DIR_MISSING;
		return d;
	}
	/* Listing and sorting /usr/lib/x86_64-linux-gnu costs more than the
	 * few open(2)s a search makes there: big directories (by the size
	 * the file system reports for them) are probed name by name. */
	if (st.st_size > DIR_LIST_MAX) {
		d->state = DIR_UNLISTED;
		return d;
	}
	rc = sysroot_list_dir(sr, path[0] != '\0' ? path : ".", &d->names);
	/* Search permission without read permission: names are unknown,
	 * so every candidate is tried, as the loader does. */
	d->state = rc == 0 ? DIR_LISTED : DIR_UNLISTED;
	return d;
}

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

bool
rv_dir_may_have(const struct dir_entry *d, const char *name)
{
	if (d->state == DIR_MISSING)
		return false;
	if (d->state == DIR_UNLISTED)
		return true;
	return d->names.n > 0 && bsearch(name, d->names.v, d->names.n,
	    sizeof *d->names.v, cmp_name) != NULL;
}

void
rv_dir_cache_free(struct dir_cache *dc)
{
	for (size_t i = 0; i < dc->dirs.n; i++) {
		free(dc->dirs.v[i]->path);
		strv_free(&dc->dirs.v[i]->names);
		free(dc->dirs.v[i]);
	}
	free(dc->dirs.v);
	strmap_free(&dc->index);
	memset(dc, 0, sizeof *dc);
}

