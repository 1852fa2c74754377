/* Where the matrix cache lies (cache.h): the XDG cache directory. The
 * Windows program has its own (cachedir_win.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "matrix/cache.h"
#include "util/homedir.h"
#include "util/xalloc.h"

char *
cache_dir(char **err)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = home_dir();

	*err = NULL;
	/* The XDG spec: an empty or relative value is invalid and ignored. */
	if (xdg != NULL && xdg[0] == '/')
		return xasprintf("%s/%s", xdg, PACKAGE);
	if (home != NULL)
		return xasprintf("%s/.cache/%s", strcmp(home, "/") == 0 ? "" : home,
		    PACKAGE);
	*err = xstrdup(_("no cache directory: neither XDG_CACHE_HOME nor HOME "
	    "is an absolute path"));
	return NULL;
}

char *
cache_matrix_path(char **err)
{
	char *dir = cache_dir(err), *path;

	if (dir == NULL)
		return NULL;
	path = xasprintf("%s/matrix.json", dir);
	free(dir);
	return path;
}
