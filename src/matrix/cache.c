/* The matrix cache on disk; see cache.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "util/atomicfile.h"
#include "util/fdio.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/pathnorm.h"
#include "util/readfile.h"
#include "util/xalloc.h"

/* Longest URL, ETag or Last-Modified the sidecar keeps; see fetch.c. */
#define META_FIELD_MAX 2048
#define META_MAX_BYTES ((size_t)1 << 20)

char *
cache_meta_path(const char *matrix_path)
{
	return xasprintf("%s.etag", matrix_path);
}

int
cache_read_file(const char *path, size_t max, char **data, size_t *len,
    char **err)
{
	char *why;
	int rc = readfile_capped(path, max, data, len, &why);

	*err = NULL;
	if (rc < 0) {
		*err = xasprintf("%s: %s", path, why);
		free(why);
	}
	return rc;
}

int
cache_load(const char *path, struct matrix **m, char **err)
{
	char *data, *why;
	size_t len;
	int rc;

	*m = NULL;
	rc = cache_read_file(path, CACHE_READ_MAX, &data, &len, err);
	if (rc != 0)
		return rc > 0 ? 0 : -1;
	*m = matrix_parse(data, len, &why);
	free(data);
	if (*m == NULL) {
		*err = xasprintf("%s: %s", path, why);
		free(why);
		return -1;
	}
	matrix_set_source(*m, MATRIX_CACHE, path);
	return 0;
}

/* What the sidecar may hold, and what may go back out as a header:
 * printable ASCII, so no tab (the separator) and no CR or LF. */
static bool
field_ok(const char *s)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++)
		if ((unsigned char)s[n] < 0x20 || (unsigned char)s[n] > 0x7e)
			return false;
	return n > 0 && n <= META_FIELD_MAX;
}

static char *
field_or_null(const char *s)
{
	return s != NULL && field_ok(s) ? xstrdup(s) : NULL;
}

void
cache_meta_set(struct cache_meta *meta, const char *url, const char *etag,
    const char *last_modified)
{
	struct cache_validator *v = NULL;

	if (!field_ok(url))
		return;
	for (size_t i = 0; i < meta->n; i++)
		if (strcmp(meta->v[i].url, url) == 0)
			v = &meta->v[i];
	if (v == NULL) {
		v = VEC_PUSH(meta);
		v->url = xstrdup(url);
	}
	free(v->etag);
	free(v->last_modified);
	v->etag = field_or_null(etag);
	v->last_modified = field_or_null(last_modified);
}

const struct cache_validator *
cache_meta_find(const struct cache_meta *meta, const char *url)
{
	for (size_t i = 0; i < meta->n; i++)
		if (strcmp(meta->v[i].url, url) == 0)
			return &meta->v[i];
	return NULL;
}

void
cache_meta_free(struct cache_meta *meta)
{
	for (size_t i = 0; i < meta->n; i++) {
		free(meta->v[i].url);
		free(meta->v[i].etag);
		free(meta->v[i].last_modified);
	}
	FREE(&meta->v);
	meta->n = meta->cap = 0;
	meta->checked = 0;
}

static void
meta_parse_line(struct cache_meta *meta, const char *line)
{
	struct strv f = STRV_INIT;
	char *end;

	strv_split(&f, line, "\t");
	if (f.n == 2 && strcmp(f.v[0], "checked") == 0) {
		long long t;

		errno = 0;
		t = strtoll(f.v[1], &end, 10);
		if (errno == 0 && *end == '\0' && end != f.v[1] && t > 0)
			meta->checked = (time_t)t;
	} else if (f.n == 4 && strcmp(f.v[0], "url") == 0) {
		cache_meta_set(meta, f.v[1], f.v[2][0] ? f.v[2] : NULL,
		    f.v[3][0] ? f.v[3] : NULL);
	}
	strv_free(&f);
}

int
cache_meta_load(const char *path, struct cache_meta *meta, char **err)
{
	char *side = cache_meta_path(path), *data;
	struct strv lines = STRV_INIT;
	size_t len;
	int rc;

	memset(meta, 0, sizeof *meta);
	rc = cache_read_file(side, META_MAX_BYTES, &data, &len, err);
	free(side);
	if (rc != 0)
		return rc > 0 ? 0 : -1;
	/* A NUL inside would hide the rest of a line from the checks. */
	if (strlen(data) == len) {
		strv_split(&lines, data, "\n");
		for (size_t i = 0; i < lines.n; i++)
			if (lines.v[i][0] != '#')
				meta_parse_line(meta, lines.v[i]);
	}
	strv_free(&lines);
	free(data);
	return 0;
}

static char *
meta_text(const struct cache_meta *meta)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "# cudawiz: where matrix.json came from "
	    "(URL, ETag, Last-Modified; tab-separated)\n");
	if (meta->checked > 0)
		strbuf_printf(&sb, "checked\t%lld\n", (long long)meta->checked);
	for (size_t i = 0; i < meta->n; i++)
		strbuf_printf(&sb, "url\t%s\t%s\t%s\n", meta->v[i].url,
		    meta->v[i].etag ? meta->v[i].etag : "",
		    meta->v[i].last_modified ? meta->v[i].last_modified : "");
	return strbuf_take(&sb);
}

/* mkdir -p with mode 0700 for what is created, as the XDG spec asks. */
static int
make_dirs(const char *dir, char **err)
{
	char *p = xstrdup(dir);
	struct stat st;
	int rc = 0;

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		{
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0700) != 0 && errno != EEXIST) {
				*err = xasprintf(_("cannot create the cache "
				    "directory %s: %s"), p, strerror(errno));
				rc = -1;
			} else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
				*err = xasprintf(_("cannot create the cache "
				    "directory %s: %s"), p, strerror(ENOTDIR));
				rc = -1;
			}
			*s = c;
		}
		if (rc != 0 || *s == '\0')
			break;
	}
	free(p);
	return rc;
}

/* Writes data to a new temporary file beside target, flushed to disk.
 * Returns its name, or NULL with *err set and nothing left behind. */
static char *
write_temp(const char *target, const char *data, size_t len, char **err)
{
	char *tmp = xasprintf("%s.XXXXXX", target);
	int fd, saved = 0;

	fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xasprintf(_("cannot create a file beside %s: %s"), target,
		    strerror(errno));
		free(tmp);
		return NULL;
	}
	if (write_full(fd, data, len) != 0)
		saved = errno;
	if (saved == 0 && fsync(fd) != 0)
		saved = errno;
	if (close(fd) != 0 && saved == 0)
		saved = errno;
	if (saved != 0) {
		*err = xasprintf(_("cannot write %s: %s"), tmp, strerror(saved));
		if (unlink(tmp) != 0) {
			/* Nothing more to do: the name is random and the old
			 * file is untouched either way. */
		}
		free(tmp);
		return NULL;
	}
	return tmp;
}

/* Makes the renames durable; a failure only risks the rename being lost
 * in a crash, never a torn file. */
static int
sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

static void
discard(char *tmp)
{
	if (tmp != NULL && unlink(tmp) != 0) {
		/* A leftover temporary file is harmless: the next store
		 * picks another name. */
	}
	free(tmp);
}

#ifdef _WIN32
/* Windows: rename() does not replace an existing file, and the path's
 * separator is a backslash (cachedir_win.c). Each file goes through
 * atomicfile_win.c (MoveFileExW with MOVEFILE_REPLACE_EXISTING), the
 * matrix first: validators beside an older matrix only cost a full
 * download, while new ones beside the old matrix could keep it. */
static int
store_win(const char *path, const char *doc, size_t len, const char *side,
    const char *text, char **err)
{
	const char *sep = strrchr(path, '\\');
	char *dir = sep != NULL ? xstrndup(path, (size_t)(sep - path)) :
	    xstrdup(".");
	char *why;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		*err = xasprintf(_("cannot create the cache directory %s: %s"),
		    dir, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	if (doc != NULL && atomic_write_file(path, doc, len, err) != 0)
		return -1;
	if (atomic_write_file(side, text, strlen(text), &why) != 0) {
		if (doc == NULL) {
			*err = why;
			return -1;
		}
		*err = xasprintf(_("the matrix was replaced, but not its "
		    "validators %s: %s"), side, why);
		free(why);
		if (remove(side) != 0) {
			/* They describe an older download, which a server
			 * answers with the full document anyway. */
		}
		return 1;
	}
	return 0;
}
#endif

int
cache_store(const char *path, const char *doc, size_t len,
    const struct cache_meta *meta, char **err)
{
	char *dir, *side, *text, *why, *tmp = NULL, *tmp_side = NULL;
	struct matrix *m;
	int rc = -1;

	*err = NULL;
	m = matrix_parse(doc, len, &why);
	if (m == NULL) {
		*err = xasprintf(_("the new matrix does not validate: %s"), why);
		free(why);
		return -1;
	}
	matrix_free(m);
	side = cache_meta_path(path);
	text = meta_text(meta);
#ifdef _WIN32
	rc = store_win(path, doc, len, side, text, err);
	free(text);
	free(side);
	(void)dir;
	return rc;
#endif
	dir = path_dirname(path);
	if (make_dirs(dir, err) != 0)
		goto out;
	tmp = write_temp(path, doc, len, err);
	if (tmp == NULL)
		goto out;
	tmp_side = write_temp(side, text, strlen(text), err);
	if (tmp_side == NULL)
		goto out;
	if (rename(tmp, path) != 0) {
		*err = xasprintf(_("cannot replace %s: %s"), path, strerror(errno));
		goto out;
	}
	FREE(&tmp);
	rc = 0;
	if (rename(tmp_side, side) != 0) {
		*err = xasprintf(_("the matrix was replaced, but not its "
		    "validators %s: %s"), side, strerror(errno));
		/* Old validators beside a new matrix could make the next
		 * update keep it when it should not: drop them. */
		if (unlink(side) != 0 && errno != ENOENT) {
			/* Then they describe an older download, which a
			 * server answers with the full document anyway. */
		}
		rc = 1;
		goto out;
	}
	FREE(&tmp_side);
	if (sync_dir(dir) != 0) {
		*err = xasprintf(_("the cache in %s was replaced, but flushing "
		    "the directory failed: %s"), dir, strerror(errno));
		rc = 1;
	}
out:
	discard(tmp);
	discard(tmp_side);
	free(text);
	free(side);
	free(dir);
	return rc;
}

int
cache_store_meta(const char *path, const struct cache_meta *meta, char **err)
{
	char *dir = path_dirname(path), *side = cache_meta_path(path);
	char *text = meta_text(meta), *tmp = NULL;
	int rc = -1;

	*err = NULL;
#ifdef _WIN32
	rc = store_win(path, NULL, 0, side, text, err);
	free(text);
	free(side);
	free(dir);
	return rc;
#endif
	if (make_dirs(dir, err) != 0)
		goto out;
	tmp = write_temp(side, text, strlen(text), err);
	if (tmp == NULL)
		goto out;
	if (rename(tmp, side) != 0) {
		*err = xasprintf(_("cannot replace %s: %s"), side, strerror(errno));
		goto out;
	}
	FREE(&tmp);
	rc = 0;
out:
	discard(tmp);
	free(text);
	free(side);
	free(dir);
	return rc;
}
