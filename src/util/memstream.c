/* See memstream.h: POSIX's open_memstream(). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/memstream.h"

FILE *
memstream_open(struct memstream *ms)
{
	ms->buf = NULL;
	ms->len = 0;
	ms->fp = open_memstream(&ms->buf, &ms->len);
	return ms->fp;
}

int
memstream_close(struct memstream *ms)
{
	int bad = ferror(ms->fp) != 0;

	if (fclose(ms->fp) != 0 || bad) {
		if (bad)
			errno = EIO;
		free(ms->buf);
		ms->buf = NULL;
		ms->len = 0;
		ms->fp = NULL;
		return -1;
	}
	ms->fp = NULL;
	return 0;
}
