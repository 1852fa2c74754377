/* Opening a file cudawiz reads, and only a regular file. Opening a FIFO
 * for reading waits for a writer, reading one waits for data, and opening
 * a device node can have effects of its own (a tape rewinds, a modem
 * line hangs up): what the name points to is looked at first, with
 * fstatat(2), and only a regular file is opened, then checked again
 * through the descriptor, in case the name was replaced in between. */
#ifndef CUDAWIZ_OPENREG_H
#define CUDAWIZ_OPENREG_H

#include <sys/stat.h>

/* Not a regular file: the stat buffer says what it is. The same value
 * as SYSROOT_ENOTREG. */
#define OPENREG_ENOTREG		(-1)
/* The name pointed to another file by the time it was opened. The same
 * value as SYSROOT_ECHANGED. */
#define OPENREG_ECHANGED	(-3)

/* Follow a symbolic link in the last component (the type is checked on
 * its target); without it a link there is refused as not a regular file. */
#define OPENREG_FOLLOW		0x1

/* Opens name (relative to dirfd, or AT_FDCWD) read-only, non-blocking and
 * close-on-exec into *fdp, after checking that it is a regular file; *st
 * describes the file opened, or on OPENREG_ENOTREG what the name points
 * to. Returns 0, an errno value or one of the codes above; never
 * opens anything but a regular file it has just looked at. */
int		 openreg(int dirfd, const char *name, int flags, int *fdp,
		    struct stat *st);
/* Words for an error of openreg(): for OPENREG_ENOTREG what the file is
 * ("is a FIFO, not a regular file"), from st. */
const char	*openreg_strerror(int err, const struct stat *st);

#endif
