/* atomic_out (atomicfile.h): a stream caught in memory, then written by
 * atomic_write_file(), the system's back end (atomicfile.c or
 * atomicfile_win.c). One file for both systems, over util/memstream.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/atomicfile.h"
#include "util/memstream.h"
#include "util/xalloc.h"

FILE *
atomic_out_open(struct atomic_out *ao, const char *path)
{
	*ao = (struct atomic_out){ .path = path };
	return memstream_open(&ao->ms);
}

int
atomic_out_commit(struct atomic_out *ao, char **err)
{
	int rc;

	if (memstream_close(&ao->ms) != 0) {
		*err = xasprintf(_("cannot write %s: %s"), ao->path,
		    strerror(errno));
		rc = -1;
	} else
		rc = atomic_write_file(ao->path, ao->ms.buf, ao->ms.len, err);
	free(ao->ms.buf);
	*ao = (struct atomic_out){ 0 };
	return rc;
}

void
atomic_out_abort(struct atomic_out *ao)
{
	if (ao->ms.fp != NULL && memstream_close(&ao->ms) == 0)
		free(ao->ms.buf);
	*ao = (struct atomic_out){ 0 };
}
