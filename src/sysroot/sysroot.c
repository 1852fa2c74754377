/* The sysroot layer; see sysroot.h.
 *
 * On the host every call goes straight to the kernel. Under a directory
 * root, paths are walked one component at a time with lstat(2), and
 * symlinks are expanded by hand so that they cannot leave the root; the
 * walk gives up with ELOOP after 40 links, as Linux does, or as soon as
 * it expands the same link with the same rest of the path again: that
 * walk can only go round, and a tree with thousands of paths through a
 * loop would otherwise cost 40 lstat(2)s and readlink(2)s each. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SYSROOT_MAXLINKS 40

/* A directory listing kept for the rest of the run. */
struct listing {
	char		*path;		/* the host path listed */
	int		 rc;
	struct strv	 names;		/* sorted */
};

struct listings {
	struct listing	*v;
	size_t		 n, cap;
};

struct sysroot {
	char		*dir;		/* "/" or an absolute, canonical directory */
	bool		 host;
	/* NULL unless sysroot_keep_listings() asked for it; a pointer, so
	 * that listing through a const sysroot can still fill it. */
	struct listings	*listings;
};

struct sysroot *
sysroot_new(const char *dir, char **err)
{
	struct sysroot *sr;
	char *canon;
	struct stat st;

	*err = NULL;
	sr = xcalloc(1, sizeof *sr);
	if (dir == NULL || *dir == '\0' || strcmp(dir, "/") == 0) {
		sr->dir = xstrdup("/");
		sr->host = true;
		return sr;
	}
	canon = realpath(dir, NULL);
	if (canon == NULL) {
		*err = xasprintf(_("root directory %s: %s"), dir, strerror(errno));
		free(sr);
		return NULL;
	}
	if (stat(canon, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*err = xasprintf(_("root directory %s: %s"), dir,
		    strerror(ENOTDIR));
		free(canon);
		free(sr);
		return NULL;
	}
	sr->host = strcmp(canon, "/") == 0;
	sr->dir = canon;
	return sr;
}

void
sysroot_free(struct sysroot *sr)
{
	if (sr == NULL)
		return;
	if (sr->listings != NULL) {
		for (size_t i = 0; i < sr->listings->n; i++) {
			free(sr->listings->v[i].path);
			strv_free(&sr->listings->v[i].names);
		}
		free(sr->listings->v);
		free(sr->listings);
	}
	free(sr->dir);
	free(sr);
}

void
sysroot_keep_listings(struct sysroot *sr)
{
	if (sr->listings == NULL)
		sr->listings = xcalloc(1, sizeof *sr->listings);
}

bool
sysroot_is_host(const struct sysroot *sr)
{
	return sr->host;
}

const char *
sysroot_dir(const struct sysroot *sr)
{
	return sr->dir;
}

const char *
sysroot_strerror(int err)
{
	switch (err) {
	case SYSROOT_ENOTREG:
		return _("not a regular file");
	case SYSROOT_ETOOBIG:
		return _("file is larger than expected");
	default:
		return strerror(err);
	}
}

/* Drops the last component of the canonical path held in sb ("" is "/"). */
static void
canon_up(struct strbuf *sb)
{
	char *slash;

	if (sb->len == 0)
		return;
	slash = strrchr(sb->buf, '/');
	sb->len = slash != NULL ? (size_t)(slash - sb->buf) : 0;
	sb->buf[sb->len] = '\0';
}

/*
 * Walks path inside a directory root. On success *canon is the path inside
 * the root ("/" for the root itself) with every symlink expanded, except the
 * last component when follow_last is false. Every component but the last
 * must exist; the last must exist only when must_exist is set.
 */
static int
walk(const struct sysroot *sr, const char *path, bool follow_last,
    bool must_exist, char **canon)
{
	struct strbuf cur = STRBUF_INIT;	/* canonical so far, "" = "/" */
	struct strbuf rest = STRBUF_INIT;	/* what is left to walk */
	struct strbuf host = STRBUF_INIT;
	struct strv expanded = STRV_INIT;	/* "link\nrest" per expansion */
	size_t pos = 0;
	int links = 0, rc = 0;

	strbuf_puts(&rest, path);
	while (pos < rest.len) {
		size_t start, n;
		bool last;
		struct stat st;
		char comp[NAME_MAX + 1];

		while (pos < rest.len && rest.buf[pos] == '/')
			pos++;
		if (pos == rest.len)
			break;
		start = pos;
		while (pos < rest.len && rest.buf[pos] != '/')
			pos++;
		n = pos - start;
		if (n > NAME_MAX) {
			rc = ENAMETOOLONG;
			goto out;
		}
		memcpy(comp, rest.buf + start, n);
		comp[n] = '\0';
		last = strspn(rest.buf + pos, "/") == rest.len - pos;

		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			canon_up(&cur);
			continue;
		}
		if (cur.len + n + 2 > PATH_MAX) {
			rc = ENAMETOOLONG;
			goto out;
		}
		host.len = 0;
		strbuf_puts(&host, sr->dir);
		strbuf_add(&host, cur.buf != NULL ? cur.buf : "", cur.len);
		strbuf_putc(&host, '/');
		strbuf_puts(&host, comp);

		if (last && !follow_last && !must_exist) {
			strbuf_putc(&cur, '/');
			strbuf_puts(&cur, comp);
			break;
		}
		if (lstat(host.buf, &st) != 0) {
			rc = errno;
			if (rc == ENOENT && last && !must_exist) {
				rc = 0;
				strbuf_putc(&cur, '/');
				strbuf_puts(&cur, comp);
			}
			goto out;
		}
		if (S_ISLNK(st.st_mode) && (follow_last || !last)) {
			char target[PATH_MAX];
			ssize_t tl;
			struct strbuf nrest = STRBUF_INIT;
			char *state;

			if (++links > SYSROOT_MAXLINKS) {
				rc = ELOOP;
				goto out;
			}
			state = xasprintf("%s\n%s", host.buf, rest.buf + pos +
			    strspn(rest.buf + pos, "/"));
			if (strv_contains(&expanded, state)) {
				free(state);
				rc = ELOOP;
				goto out;
			}
			strv_push_owned(&expanded, state);
			tl = readlink(host.buf, target, sizeof target - 1);
			if (tl < 0) {
				rc = errno;
				goto out;
			}
			target[tl] = '\0';
			if (target[0] == '/')
				cur.len = 0;
			if (cur.buf != NULL)
				cur.buf[cur.len] = '\0';
			strbuf_puts(&nrest, target);
			strbuf_putc(&nrest, '/');
			strbuf_add(&nrest, rest.buf + pos, rest.len - pos);
			strbuf_free(&rest);
			rest = nrest;
			pos = 0;
			continue;
		}
		if (!last && !S_ISDIR(st.st_mode)) {
			rc = ENOTDIR;
			goto out;
		}
		strbuf_putc(&cur, '/');
		strbuf_puts(&cur, comp);
	}
out:
	strbuf_free(&rest);
	strbuf_free(&host);
	strv_free(&expanded);
	if (rc != 0) {
		strbuf_free(&cur);
		return rc;
	}
	if (cur.len == 0)
		strbuf_putc(&cur, '/');
	*canon = strbuf_take(&cur);
	return 0;
}

/* The host path of a path inside the root, links resolved as asked. */
static int
host_path(const struct sysroot *sr, const char *path, bool follow_last,
    char **out)
{
	char *canon;
	int rc;

	if (sr->host) {
		*out = xstrdup(path);
		return 0;
	}
	rc = walk(sr, path, follow_last, false, &canon);
	if (rc != 0)
		return rc;
	*out = xasprintf("%s%s", sr->dir, canon);
	free(canon);
	return 0;
}

int
sysroot_realpath(const struct sysroot *sr, const char *path, char **out)
{
	if (sr->host) {
		char *p = realpath(path, NULL);

		if (p == NULL)
			return errno;
		*out = p;
		return 0;
	}
	return walk(sr, path, true, true, out);
}

int
sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st)
{
	char *hp;
	int rc = host_path(sr, path, true, &hp);

	if (rc != 0)
		return rc;
	rc = stat(hp, st) == 0 ? 0 : errno;
	free(hp);
	return rc;
}

int
sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st)
{
	char *hp;
	int rc = host_path(sr, path, false, &hp);

	if (rc != 0)
		return rc;
	rc = lstat(hp, st) == 0 ? 0 : errno;
	free(hp);
	return rc;
}

int
sysroot_readlink(const struct sysroot *sr, const char *path, char **target)
{
	char buf[PATH_MAX];
	char *hp;
	ssize_t n;
	int rc = host_path(sr, path, false, &hp);

	if (rc != 0)
		return rc;
	n = readlink(hp, buf, sizeof buf - 1);
	rc = n < 0 ? errno : 0;
	free(hp);
	if (rc != 0)
		return rc;
	buf[n] = '\0';
	*target = xstrdup(buf);
	return 0;
}

int
sysroot_open_file(const struct sysroot *sr, const char *path, int *fdp)
{
	struct stat st;
	char *hp;
	int fd, rc = host_path(sr, path, true, &hp);

	if (rc != 0)
		return rc;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(hp, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	rc = fd < 0 ? errno : 0;
	free(hp);
	if (rc != 0)
		return rc;
	if (fstat(fd, &st) != 0) {
		rc = errno;
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return SYSROOT_ENOTREG;
	}
	*fdp = fd;
	return 0;
}

int
sysroot_read_file(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *lenp)
{
	struct stat st;
	char *buf;
	size_t len = 0, size;
	int fd, rc = sysroot_open_file(sr, path, &fd);

	if (rc != 0)
		return rc;
	if (fstat(fd, &st) != 0) {
		rc = errno;
		close(fd);
		return rc;
	}
	if (st.st_size > 0 && (unsigned long long)st.st_size > cap) {
		close(fd);
		return SYSROOT_ETOOBIG;
	}
	/* /proc and /sys files report a size of 0 (or 4096): read to EOF. */
	size = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
	if (size > cap + 1)
		size = cap + 1;
	buf = xmalloc(size + 1);
	for (;;) {
		ssize_t n;

		if (len == size) {
			if (size > cap)
				break;
			size = size * 2 > cap + 1 ? cap + 1 : size * 2;
			buf = xreallocarray(buf, size + 1, 1);
		}
		n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (rc == 0 && len > cap)
		rc = SYSROOT_ETOOBIG;
	if (rc != 0) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*data = buf;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

static int
list_host_dir(const char *hp, struct strv *names)
{
	struct dirent *de;
	DIR *d = opendir(hp);
	int rc;

	if (d == NULL)
		return errno;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		strv_push(names, de->d_name);
		errno = 0;
	}
	rc = errno;
	closedir(d);
	strv_sort(names);
	return rc;
}

static void
strv_copy_into(struct strv *dst, const struct strv *src)
{
	for (size_t i = 0; i < src->n; i++)
		strv_push(dst, src->v[i]);
}

/* The probes and the loader model look into the same big directories
 * (/usr/lib/x86_64-linux-gnu holds thousands of names) several times a
 * run; with listings kept, each is read from the kernel once. */
int
sysroot_list_dir(const struct sysroot *sr, const char *path, struct strv *names)
{
	struct listing *l;
	char *hp;
	int rc = host_path(sr, path, true, &hp);

	if (rc != 0)
		return rc;
	if (sr->listings == NULL) {
		rc = list_host_dir(hp, names);
		free(hp);
		return rc;
	}
	for (size_t i = 0; i < sr->listings->n; i++) {
		l = &sr->listings->v[i];
		if (strcmp(l->path, hp) == 0) {
			free(hp);
			strv_copy_into(names, &l->names);
			return l->rc;
		}
	}
	l = VEC_PUSH(sr->listings);
	l->path = hp;
	l->rc = list_host_dir(hp, &l->names);
	strv_copy_into(names, &l->names);
	return l->rc;
}

bool
sysroot_is_dir(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool
sysroot_exists(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == 0;
}
