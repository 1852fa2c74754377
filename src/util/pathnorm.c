/* Textual path normalisation; see pathnorm.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

char *
path_normalise(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	if (path[0] == '/')
		strbuf_putc(&sb, '/');
	while (*p != '\0') {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (!(n == 1 && p[0] == '.')) {
			if (sb.len > 0 && sb.buf[sb.len - 1] != '/')
				strbuf_putc(&sb, '/');
			strbuf_add(&sb, p, n);
		}
		p += n;
	}
	/* A relative path made only of "." components is the directory itself. */
	if (sb.len == 0 && path[0] != '\0')
		strbuf_putc(&sb, '.');
	return strbuf_take(&sb);
}

char *
path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

bool
path_same(const char *a, const char *b)
{
	char *na, *nb;
	bool same;

	if (a == NULL || b == NULL)
		return false;
	na = path_normalise(a);
	nb = path_normalise(b);
	same = strcmp(na, nb) == 0;

	free(na);
	free(nb);
	return same;
}
