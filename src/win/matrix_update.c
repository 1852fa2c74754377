/* matrix update in the Windows program: refused, never tried. The
 * Windows build has no libcurl and is offline throughout (as if every
 * command had --offline); the matrix is the one built in, or --matrix
 * FILE. The interface is matrix/update.h's, so src/cmd_matrix.c is the
 * Linux one. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/update.h"
#include "util/xalloc.h"

enum matrix_update_result
matrix_update_run(const struct matrix_update_opts *o,
    struct matrix_update *u)
{
	(void)o;
	*u = (struct matrix_update){ .notes = STRV_INIT };
	u->result = MATRIX_UPDATE_REFUSED;
	u->err = xstrdup(_("the Windows build is offline (it has no libcurl): "
	    "it uses the built-in matrix, or --matrix FILE; fetch a newer "
	    "matrix with the Linux cudawiz ('cudawiz matrix update', then "
	    "'cudawiz matrix path') and give it with --matrix"));
	return u->result;
}

void
matrix_update_free(struct matrix_update *u)
{
	free(u->src.v);
	strv_free(&u->notes);
	matrix_free(u->m);
	free(u->path);
	free(u->err);
	*u = (struct matrix_update){ .notes = STRV_INIT };
}
