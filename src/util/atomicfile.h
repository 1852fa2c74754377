/* Reports written to a file under their final name in one step: the
 * bytes go to a temporary file in the same directory, are synced, then
 * renamed over the name. A reader (node_exporter's textfile collector,
 * a fleet job collecting reports) sees the old file or the new one,
 * never a part, and a failed run leaves the old one and no temporary.
 * On Windows the rename is MoveFileExW's with MOVEFILE_REPLACE_EXISTING
 * and the sync FlushFileBuffers (atomicfile_win.c). There is no backup: a report is rewritten on every run (scripts, which
 * a person may have edited, go through envscript/write.c instead). */
#ifndef CUDAWIZ_ATOMICFILE_H
#define CUDAWIZ_ATOMICFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/memstream.h"

/* Writes data[0..len) as path. A file already there keeps its mode;
 * a new one gets 0644 less the umask (the collector reads as another
 * user). 0, or -1 with *err (the caller frees) naming path and why;
 * path stays as it was. */
int	atomic_write_file(const char *path, const char *data, size_t len,
	    char **err);

/* The same for a presenter that writes to a stream: the stream
 * collects the bytes in memory (util/memstream.h) until commit hands
 * them to atomic_write_file() (atomicout.c, on both systems). */
struct atomic_out {
	struct memstream	 ms;
	const char		*path;
};

/* NULL (errno set) when the stream cannot be made. */
FILE	*atomic_out_open(struct atomic_out *ao, const char *path);
/* Closes the stream and writes the file; frees what open made either
 * way. A stream that saw a write error is not committed. */
int	atomic_out_commit(struct atomic_out *ao, char **err);
/* Forgets the bytes; nothing is written. */
void	atomic_out_abort(struct atomic_out *ao);

#endif
