/* Opening regular files only; see openreg.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "util/openreg.h"

int
openreg(int dirfd, const char *name, int flags, int *fdp, struct stat *st)
{
	bool follow = (flags & OPENREG_FOLLOW) != 0;
	struct stat got;
	int fd, rc;

	if (fstatat(dirfd, name, st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0)
		return errno;
	if (!S_ISREG(st->st_mode))
		return OPENREG_ENOTREG;
	/* O_NONBLOCK and O_NOCTTY: should a FIFO or a terminal be put
	 * there after the check, opening it neither waits nor takes it
	 * as the controlling terminal; the fstat below refuses it. */
	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	    (follow ? 0 : O_NOFOLLOW));
	if (fd < 0) {
		/* A link put there since the check. */
		if (errno == ELOOP && !follow)
			return OPENREG_ECHANGED;
		return errno;
	}
	if (fstat(fd, &got) != 0) {
		rc = errno;
		close(fd);
		return rc;
	}
	if (!S_ISREG(got.st_mode) || got.st_dev != st->st_dev ||
	    got.st_ino != st->st_ino) {
		rc = S_ISREG(got.st_mode) ? OPENREG_ECHANGED : OPENREG_ENOTREG;
		*st = got;
		close(fd);
		return rc;
	}
	*st = got;
	*fdp = fd;
	return 0;
}

const char *
openreg_strerror(int err, const struct stat *st)
{
	if (err == OPENREG_ECHANGED)
		return _("was replaced while it was being opened");
	if (err != OPENREG_ENOTREG)
		return strerror(err);
	switch (st->st_mode & S_IFMT) {
	case S_IFIFO:
		return _("is a FIFO, not a regular file");
	case S_IFCHR:
		return _("is a character device, not a regular file");
	case S_IFBLK:
		return _("is a block device, not a regular file");
	case S_IFDIR:
		return _("is a directory, not a regular file");
	case S_IFSOCK:
		return _("is a socket, not a regular file");
	case S_IFLNK:
		return _("is a symbolic link, not a regular file");
	default:
		return _("is not a regular file");
	}
}
