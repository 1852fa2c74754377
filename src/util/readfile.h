/* Reading a whole file that someone else wrote (a cached matrix, a
 * host's report): only a regular file is opened (openreg.h), never more
 * than a cap is read, and a file that changed while it was read is
 * refused rather than taken half old, half new. */
#ifndef CUDAWIZ_READFILE_H
#define CUDAWIZ_READFILE_H

#include <stddef.h>

/* Reads path (a symbolic link to a regular file will do) into *data,
 * NUL-terminated, *len bytes, the caller frees. Returns 0; 1 when path
 * does not exist; or -1 with *why (the caller frees) saying why, in a
 * sentence that does not repeat the path: "is a FIFO, not a regular
 * file", "larger than 16777216 bytes". */
int	readfile_capped(const char *path, size_t max, char **data,
	    size_t *len, char **why);

#endif
