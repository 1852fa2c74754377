/* A stream whose bytes end in memory: what a presenter writes is caught
 * whole, for the HTML page's JSON block (present/html.c), an atomic
 * report file (util/atomicfile.h) or a filter (cmd_doctor.c's safeout).
 * On Linux it is open_memstream(); the Windows C runtime has none, and
 * its FILE cannot be given one (no fopencookie), so memstream_win.c backs
 * the stream with a temporary file deleted on close and reads the bytes
 * back then. The bytes are therefore there after memstream_close() only,
 * never after a mere fflush (docs/DECISIONS.md "One memory stream"). */
#ifndef CUDAWIZ_UTIL_MEMSTREAM_H
#define CUDAWIZ_UTIL_MEMSTREAM_H

#include <stddef.h>
#include <stdio.h>

struct memstream {
	FILE	*fp;
	char	*buf;		/* after close: the bytes, NUL-terminated */
	size_t	 len;
};

/* The stream to write to (ms->fp), or NULL with errno set and nothing
 * to close. */
FILE	*memstream_open(struct memstream *ms);
/* Closes the stream: 0 with ms->buf (the caller frees) and ms->len, or
 * -1 with errno set, ms->buf NULL and nothing to free (a write error
 * the stream saw counts). */
int	 memstream_close(struct memstream *ms);

#endif
