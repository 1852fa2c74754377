/* Reading a whole file under a cap; see readfile.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "util/openreg.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Whether the file open as st is still the same one, unchanged. */
static int
same_file(int fd, const struct stat *st, size_t got)
{
	struct stat now;

	if (fstat(fd, &now) != 0)
		return errno;
	if (now.st_ino != st->st_ino || now.st_dev != st->st_dev ||
	    (size_t)now.st_size != got ||
	    now.st_mtim.tv_sec != st->st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != st->st_mtim.tv_nsec)
		return -1;
	return 0;
}

int
readfile_capped(const char *path, size_t max, char **data, size_t *len,
    char **why)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd, rc;

	*data = NULL;
	*len = 0;
	*why = NULL;
	/* A FIFO would block and a device never end, or do something when
	 * opened: only a regular file is opened (a link to one will do). */
	rc = openreg(AT_FDCWD, path, OPENREG_FOLLOW, &fd, &st);
	if (rc == ENOENT)
		return 1;
	if (rc != 0) {
		*why = xstrdup(openreg_strerror(rc, &st));
		return -1;
	}
	/* Refused before a byte is read: a 20 GB file costs nothing. */
	if (st.st_size > 0 && (size_t)st.st_size > max)
		*why = xasprintf(_("larger than %zu bytes"), max);
	while (*why == NULL) {
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*why = xstrdup(strerror(errno));
			break;
		}
		if (n == 0)
			break;
		if ((size_t)n > max - sb.len) {
			*why = xasprintf(_("larger than %zu bytes"), max);
			break;
		}
		strbuf_add(&sb, buf, (size_t)n);
	}
	/* A file /proc-like in size (0, yet it has bytes) is fine; one
	 * rewritten or grown while it was read is not what either writer
	 * meant. */
	if (*why == NULL && st.st_size != 0 &&
	    (rc = same_file(fd, &st, sb.len)) != 0)
		*why = rc > 0 ? xstrdup(strerror(rc)) :
		    xstrdup(_("changed while it was being read"));
	if (close(fd) != 0 && *why == NULL)
		*why = xstrdup(strerror(errno));
	if (*why != NULL) {
		strbuf_free(&sb);
		return -1;
	}
	*len = sb.len;
	*data = strbuf_take(&sb);
	return 0;
}
