#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"
#include "winload/winname.h"

/* Path components walked at most: a deeper path is refused (ELOOP)
 * rather than listed directory by directory without end. */
#define WINNAME_DEPTH_MAX	64

static int
fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

bool
winname_eq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (fold((unsigned char)*a) != fold((unsigned char)*b))
			return false;
	return *a == *b;
}

bool
winname_eqn(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n && a[i] != '\0' && b[i] != '\0'; i++)
		if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
			return false;
	return i == n && b[i] == '\0';
}

const char *
winname_pick(const struct strv *names, const char *name)
{
	const char *hit = NULL;

	for (size_t i = 0; i < names->n; i++) {
		if (strcmp(names->v[i], name) == 0)
			return names->v[i];
		if (hit == NULL && winname_eq(names->v[i], name))
			hit = names->v[i];
	}
	return hit;
}

int
winname_resolve(const struct sysroot *sr, const char *path, char **out)
{
	struct strv parts = STRV_INIT, done = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	int err = 0;

	*out = NULL;
	strv_split(&parts, path, "/");
	if (parts.n > WINNAME_DEPTH_MAX) {
		strv_free(&parts);
		return ELOOP;
	}
	for (size_t i = 0; i < parts.n && err == 0; i++) {
		const char *p = parts.v[i];
		struct strv names = STRV_INIT;
		const char *hit;
		char *dir;

		if (p[0] == '\0' || strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			/* Never above the drive's root, as on Windows. */
			if (done.n > 0)
				free(done.v[--done.n]);
			continue;
		}
		strbuf_free(&sb);
		for (size_t j = 0; j < done.n; j++)
			strbuf_printf(&sb, "%s%s", j > 0 ? "/" : "", done.v[j]);
		dir = sb.len > 0 ? strbuf_take(&sb) : xstrdup("/");
		err = sysroot_list_dir(sr, dir, &names);
		free(dir);
		if (err == 0) {
			hit = winname_pick(&names, p);
			if (hit != NULL)
				strv_push(&done, hit);
			else
				err = ENOENT;
		}
		strv_free(&names);
	}
	if (err == 0) {
		strbuf_free(&sb);
		strbuf_puts(&sb, "");
		for (size_t j = 0; j < done.n; j++)
			strbuf_printf(&sb, "%s%s", j > 0 ? "/" : "", done.v[j]);
		*out = strbuf_take(&sb);
	}
	strbuf_free(&sb);
	strv_free(&parts);
	strv_free(&done);
	return err;
}

char *
winname_windows_path(char drive, const char *tree)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_printf(&sb, "%c:\\", drive != 0 ? drive : 'C');
	for (const char *s = tree; *s != '\0'; s++)
		strbuf_putc(&sb, *s == '/' ? '\\' : *s);
	return strbuf_take(&sb);
}

const char *
winname_base(const char *path)
{
	const char *b = path;

	for (const char *s = path; *s != '\0'; s++)
		if (*s == '/' || *s == '\\')
			b = s + 1;
	return b;
}

char *
winname_dir(const char *path)
{
	const char *b = winname_base(path);
	size_t n = b > path ? (size_t)(b - path - 1) : 0;

	if (n == 2 && path[1] == ':')
		n = 3;
	return xstrndup(path, n);
}

char *
winname_suffix_version(const char *v)
{
	size_t n;

	if (strncmp(v, "64_", 3) == 0)
		v += 3;
	n = strlen(v);
	if (n == 0 || n > 4 || strspn(v, "0123456789") != n)
		return NULL;
	if (n == 1)
		return xstrdup(v);
	return xasprintf("%.*s.%c", (int)(n - 1), v, v[n - 1]);
}
