/* Whole files put in place by rename(2); see atomicfile.h. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "util/atomicfile.h"
#include "util/fdio.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

int
atomic_write_file(const char *path, const char *data, size_t len,
    char **err)
{
	char *dir = path_dirname(path), *tmp;
	struct stat st;
	mode_t mode;
	int fd, dfd, saved;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			*err = xasprintf(_("cannot write %s: it is a directory"),
			    path);
			free(dir);
			return -1;
		}
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(022);

		umask(um);
		mode = 0644 & ~um;
	}
	tmp = xasprintf("%s/.%s.cudawiz-XXXXXX", dir, path_basename(path));
	fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xasprintf(_("cannot write %s: cannot create a file in %s: %s"),
		    path, dir, strerror(errno));
		free(tmp);
		free(dir);
		return -1;
	}
	if (fchmod(fd, mode) != 0 || write_full(fd, data, len) != 0 ||
	    fsync(fd) != 0) {
		saved = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		saved = errno;
		goto fail;
	}
	if (rename(tmp, path) != 0) {
		saved = errno;
		goto fail;
	}
	/* Durable once the directory is; some filesystems cannot sync one
	 * (EINVAL), and the file is in place either way. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	free(tmp);
	free(dir);
	return 0;
fail:
	unlink(tmp);
	*err = xasprintf(_("cannot write %s: %s"), path, strerror(saved));
	free(tmp);
	free(dir);
	return -1;
}
