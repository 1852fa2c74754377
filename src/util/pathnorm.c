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

bool
path_under(const char *path, const char *dir)
{
	char *np, *nd;
	size_t n;
	bool in;

	if (path == NULL || dir == NULL || path[0] == '\0' || dir[0] == '\0')
		return false;
	np = path_normalise(path);
	nd = path_normalise(dir);
	n = strlen(nd);
	/* "/" holds only itself (see pathnorm.h); it is also the one normal
	 * form ending with a slash, which the test below would miss. */
	if (strcmp(nd, "/") == 0)
		in = strcmp(np, "/") == 0;
	else
		in = strncmp(np, nd, n) == 0 && (np[n] == '/' || np[n] == '\0');
	free(np);
	free(nd);
	return in;
}

char *
path_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	bool slash = dl == 0 || dir[dl - 1] != '/';
	char *p = xmalloc(dl + slash + nl + 1);

	/* memcpy, not printf: package listings join thousands of names. */
	memcpy(p, dir, dl);
	if (slash)
		p[dl] = '/';
	memcpy(p + dl + slash, name, nl + 1);
	return p;
}

const char *
path_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}
