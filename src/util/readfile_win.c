/* Reading a whole file under a cap; see readfile.h. The Windows back end
 * (the Windows program only, src/win/win.mk): Windows has no FIFOs or
 * devices among the files it reads here, so a regular file is all it
 * checks for before reading, through the C runtime in binary mode. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int
readfile_capped(const char *path, size_t max, char **data, size_t *len,
    char **why)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[65536];
	size_t n;
	FILE *fp;

	*data = NULL;
	*len = 0;
	*why = NULL;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return 1;
		*why = xstrdup(strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xstrdup(_("not a regular file"));
		return -1;
	}
	if (st.st_size > 0 && (size_t)st.st_size > max) {
		*why = xasprintf(_("larger than %zu bytes"), max);
		return -1;
	}
	if ((fp = fopen(path, "rb")) == NULL) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	while (*why == NULL && (n = fread(buf, 1, sizeof buf, fp)) > 0) {
		if (n > max - sb.len)
			*why = xasprintf(_("larger than %zu bytes"), max);
		else
			strbuf_add(&sb, buf, n);
	}
	if (*why == NULL && ferror(fp))
		*why = xstrdup(strerror(errno != 0 ? errno : EIO));
	if (fclose(fp) != 0 && *why == NULL)
		*why = xstrdup(strerror(errno));
	if (*why != NULL) {
		strbuf_free(&sb);
		return -1;
	}
	*len = sb.len;
	*data = strbuf_take(&sb);
	return 0;
}
