/* Writing a whole buffer to a file descriptor: write(2) may take fewer
 * bytes than asked (a pipe, a signal), and every writer must go on. */
#ifndef CUDAWIZ_FDIO_H
#define CUDAWIZ_FDIO_H

#include <stddef.h>

/* Writes all len bytes of buf, again after EINTR and short writes.
 * 0, or -1 with errno set (EIO when write(2) took nothing). */
int	write_full(int fd, const void *buf, size_t len);

#endif
