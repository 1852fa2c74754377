/* What the probing commands (and the wizard) share; see cmd.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cmd.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "sysroot/sysroot.h"

int
cmd_open(const struct cli_opts *opts, struct matrix **m, struct sysroot **sr,
    char **note)
{
	char *err = NULL, *n = NULL;

	*m = select_matrix(opts->matrix_file, &n, &err);
	if (*m == NULL)
		goto fail;
	*sr = sysroot_new(opts->root, &err);
	if (*sr == NULL) {
		matrix_free(*m);
		*m = NULL;
		goto fail;
	}
	sysroot_keep_listings(*sr);
	if (note != NULL)
		*note = n;
	else
		free(n);
	return 0;
fail:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	free(n);
	return -1;
}

time_t
cmd_matrix_checked(void)
{
	struct cache_meta meta = { 0 };
	char *path, *err = NULL;
	time_t checked = 0;

	path = cache_matrix_path(&err);
	if (path != NULL && cache_meta_load(path, &meta, &err) == 0)
		checked = meta.checked;
	cache_meta_free(&meta);
	free(path);
	free(err);
	return checked;
}
