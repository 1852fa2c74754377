/* The sysroot layer; see sysroot.h.
 *
 * On the host every call goes straight to the kernel. Under a directory
 * root, paths are walked one component at a time with file descriptors:
 * each component is opened with openat(O_PATH | O_NOFOLLOW) from the
 * descriptor of the directory before it, starting from a descriptor of
 * the root taken once, and the operation acts on the descriptor the walk
 * ends with (fstat, readlinkat, and an open of that very name in the
 * directory already held, checked to be the same file). A name that was
 * checked is never looked up again from the root's path, so a directory
 * swapped for a symlink while cudawiz reads the tree cannot lead outside
 * it. Symlinks are expanded by hand so that they cannot leave the root
 * either; the walk gives up with ELOOP after 40 links, as Linux does, or
 * as soon as it expands the same link with the same rest of the path
 * again: that walk can only go round, and a tree with thousands of paths
 * through a loop would otherwise cost 40 readlinks each. */
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
#include "util/openreg.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/xalloc.h"

#define SYSROOT_MAXLINKS 40
/* How a component is held during a walk: the thing itself, never what a
 * symlink there points to, and no open(2) of a device or FIFO. */
#define WALK_FLAGS (O_PATH | O_NOFOLLOW | O_CLOEXEC)

void (*sysroot_walk_hook)(const char *walked);

/* A directory listing kept for the rest of the run. */
struct listing {
	int		 rc;
	struct strv	 names;		/* sorted */
};

/* Kept listings, found by path in constant time: doctor lists every
 * LD_LIBRARY_PATH directory, and a linear search made 10,000 of them
 * quadratic. */
struct listings {
	struct listing	*v;
	size_t		 n, cap;
	struct strmap	 index;		/* path listed -> index into v */
};

struct sysroot {
	char		*dir;		/* "/" or an absolute, canonical directory */
	bool		 host;
	int		 rootfd;	/* O_PATH descriptor of dir; -1 on the host */
	/* NULL unless sysroot_keep_listings() asked for it; a pointer, so
	 * that listing through a const sysroot can still fill it. */
	struct listings	*listings;
};

/* Where a walk under a directory root ended. */
struct found {
	int		 fd;		/* O_PATH: the thing itself */
	int		 parent;	/* O_PATH: the directory holding it; -1: fd is the root */
	char		 name[NAME_MAX + 1];	/* its name in parent */
	struct stat	 st;		/* of fd */
};

struct sysroot *
sysroot_new(const char *dir, char **err)
{
	struct sysroot *sr;
	char *canon;
	struct stat st;

	*err = NULL;
	sr = xcalloc(1, sizeof *sr);
	sr->rootfd = -1;
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
	sr->dir = canon;
	sr->host = strcmp(canon, "/") == 0;
	if (sr->host)
		return sr;
	sr->rootfd = open(canon, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (sr->rootfd < 0 || fstat(sr->rootfd, &st) != 0) {
		*err = xasprintf(_("root directory %s: %s"), dir, strerror(errno));
		sysroot_free(sr);
		return NULL;
	}
	return sr;
}

void
sysroot_free(struct sysroot *sr)
{
	if (sr == NULL)
		return;
	if (sr->listings != NULL) {
		for (size_t i = 0; i < sr->listings->n; i++)
			strv_free(&sr->listings->v[i].names);
		free(sr->listings->v);
		strmap_free(&sr->listings->index);
		free(sr->listings);
	}
	if (sr->rootfd >= 0 && close(sr->rootfd) != 0) {
		/* Nothing was written through it. */
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
	case SYSROOT_ECHANGED:
		return _("the file was replaced while it was being opened");
	default:
		return strerror(err);
	}
}

/* Closes a descriptor a walk opened; the root's stays open. */
static void
drop(const struct sysroot *sr, int *fd)
{
	if (*fd >= 0 && *fd != sr->rootfd && close(*fd) != 0) {
		/* An O_PATH descriptor: nothing to flush. */
	}
	*fd = -1;
}

static void
found_close(const struct sysroot *sr, struct found *f)
{
	drop(sr, &f->fd);
	drop(sr, &f->parent);
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
 * Opens the canonical path canon (every component a directory the walk
 * has been through) again from the root, after a "..": into *dir, its
 * parent into *parent and its last component into name. The parent is
 * found by name again, not with openat(dir, ".."), which would follow a
 * directory moved out of the root; every component is opened without
 * following a link, so one swapped in since is an error, not a way out.
 */
static int
reopen(const struct sysroot *sr, const struct strbuf *canon, int *parent,
    int *dir, char *name)
{
	const char *p = canon->len > 0 ? canon->buf : "";

	drop(sr, parent);
	drop(sr, dir);
	*dir = sr->rootfd;
	name[0] = '\0';
	while (*p == '/') {
		const char *end = strchr(p + 1, '/');
		size_t n = end != NULL ? (size_t)(end - p - 1) : strlen(p + 1);
		int fd;

		memcpy(name, p + 1, n);
		name[n] = '\0';
		fd = openat(*dir, name, WALK_FLAGS | O_DIRECTORY);
		if (fd < 0)
			return errno;
		drop(sr, parent);
		*parent = *dir;
		*dir = fd;
		p += n + 1;
	}
	return 0;
}

/*
 * The link held by fd, met at comp after the canonical path cur with
 * rest.buf[pos..] still to walk: puts the target in front of what is
 * left. Returns ELOOP for a walk that can only go round.
 */
static int
expand(int fd, const struct strbuf *cur, const char *comp, struct strbuf *rest,
    size_t pos, struct strv *expanded, int *links, bool *absolute)
{
	char target[PATH_MAX];
	struct strbuf nrest = STRBUF_INIT;
	char *state;
	ssize_t tl;

	if (++*links > SYSROOT_MAXLINKS)
		return ELOOP;
	state = xasprintf("%s/%s\n%s", cur->len > 0 ? cur->buf : "", comp,
	    rest->buf + pos + strspn(rest->buf + pos, "/"));
	if (strv_contains(expanded, state)) {
		free(state);
		return ELOOP;
	}
	strv_push_owned(expanded, state);
	/* The link held, not the name: it may have changed since. */
	tl = readlinkat(fd, "", target, sizeof target - 1);
	if (tl < 0)
		return errno;
	target[tl] = '\0';
	*absolute = target[0] == '/';
	strbuf_puts(&nrest, target);
	strbuf_putc(&nrest, '/');
	strbuf_add(&nrest, rest->buf + pos, rest->len - pos);
	strbuf_free(rest);
	*rest = nrest;
	return 0;
}

/*
 * Walks path inside a directory root. On success *f holds the thing the
 * path names, with every symlink expanded except the last component when
 * follow_last is false, and, when canon is not NULL, *canon is its path
 * inside the root ("/" for the root itself). Every component must exist.
 */
static int
walk(const struct sysroot *sr, const char *path, bool follow_last,
    struct found *f, char **canon)
{
	struct strbuf cur = STRBUF_INIT;	/* canonical so far, "" = "/" */
	struct strbuf rest = STRBUF_INIT;	/* what is left to walk */
	struct strv expanded = STRV_INIT;	/* "link\nrest" per expansion */
	struct stat st;
	int parent = -1, obj = sr->rootfd, fd = -1;
	char name[NAME_MAX + 1] = "";
	bool stale = false, have_st = false;
	size_t pos = 0;
	int links = 0, rc = 0;

	strbuf_puts(&rest, path);
	while (pos < rest.len) {
		size_t start, n;
		bool last, absolute = false;
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
			stale = true;
			have_st = false;
			continue;
		}
		if (cur.len + n + 2 > PATH_MAX) {
			rc = ENAMETOOLONG;
			goto out;
		}
		if (stale) {
			rc = reopen(sr, &cur, &parent, &obj, name);
			if (rc != 0)
				goto out;
			stale = false;
		}
		/* Most components before the last are plain directories:
		 * O_DIRECTORY says so without an fstat(2) (a link there
		 * fails with ENOTDIR, and is looked at below). */
		fd = last ? -1 : openat(obj, comp, WALK_FLAGS | O_DIRECTORY);
		if (fd >= 0) {
			have_st = false;
		} else if (!last && errno != ENOTDIR) {
			rc = errno;
			goto out;
		} else {
			fd = openat(obj, comp, WALK_FLAGS);
			if (fd < 0 || fstat(fd, &st) != 0) {
				rc = errno;
				goto out;
			}
			have_st = true;
		}
		if (have_st && S_ISLNK(st.st_mode) && (follow_last || !last)) {
			rc = expand(fd, &cur, comp, &rest, pos, &expanded, &links,
			    &absolute);
			drop(sr, &fd);
			/* st was the link's; the walk is back at obj. */
			have_st = false;
			if (rc != 0)
				goto out;
			if (absolute) {
				cur.len = 0;
				drop(sr, &parent);
				drop(sr, &obj);
				obj = sr->rootfd;
				name[0] = '\0';
			}
			if (cur.buf != NULL)
				cur.buf[cur.len] = '\0';
			pos = 0;
			continue;
		}
		if (have_st && !last && !S_ISDIR(st.st_mode)) {
			rc = ENOTDIR;
			goto out;
		}
		strbuf_putc(&cur, '/');
		strbuf_puts(&cur, comp);
		drop(sr, &parent);
		parent = obj;
		obj = fd;
		fd = -1;
		memcpy(name, comp, n + 1);
		if (sysroot_walk_hook != NULL)
			sysroot_walk_hook(cur.buf);
	}
	if (stale)
		rc = reopen(sr, &cur, &parent, &obj, name);
	if (rc == 0 && !have_st && fstat(obj, &st) != 0)
		rc = errno;
out:
	drop(sr, &fd);
	strbuf_free(&rest);
	strv_free(&expanded);
	if (rc != 0) {
		drop(sr, &parent);
		drop(sr, &obj);
		strbuf_free(&cur);
		return rc;
	}
	f->fd = obj;
	f->parent = parent;
	memcpy(f->name, name, sizeof f->name);
	f->st = st;
	if (canon != NULL) {
		if (cur.len == 0)
			strbuf_putc(&cur, '/');
		*canon = strbuf_take(&cur);
	} else {
		strbuf_free(&cur);
	}
	return 0;
}

int
sysroot_realpath(const struct sysroot *sr, const char *path, char **out)
{
	struct found f;
	int rc;

	if (sr->host) {
		char *p = realpath(path, NULL);

		if (p == NULL)
			return errno;
		*out = p;
		return 0;
	}
	rc = walk(sr, path, true, &f, out);
	if (rc == 0)
		found_close(sr, &f);
	return rc;
}

static int
stat_in_root(const struct sysroot *sr, const char *path, bool follow,
    struct stat *st)
{
	struct found f;
	int rc = walk(sr, path, follow, &f, NULL);

	if (rc != 0)
		return rc;
	*st = f.st;
	found_close(sr, &f);
	return 0;
}

int
sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st)
{
	if (sr->host)
		return stat(path, st) == 0 ? 0 : errno;
	return stat_in_root(sr, path, true, st);
}

int
sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st)
{
	if (sr->host)
		return lstat(path, st) == 0 ? 0 : errno;
	return stat_in_root(sr, path, false, st);
}

int
sysroot_readlink(const struct sysroot *sr, const char *path, char **target)
{
	char buf[PATH_MAX];
	struct found f;
	ssize_t n;
	int rc;

	if (sr->host) {
		n = readlink(path, buf, sizeof buf - 1);
		if (n < 0)
			return errno;
	} else {
		rc = walk(sr, path, false, &f, NULL);
		if (rc != 0)
			return rc;
		/* readlinkat(fd, "") of what is not a link says ENOENT;
		 * readlink(2) of a name says EINVAL. */
		n = S_ISLNK(f.st.st_mode) ?
		    readlinkat(f.fd, "", buf, sizeof buf - 1) : -1;
		rc = S_ISLNK(f.st.st_mode) ? errno : EINVAL;
		found_close(sr, &f);
		if (n < 0)
			return rc;
	}
	buf[n] = '\0';
	*target = xstrdup(buf);
	return 0;
}

int
sysroot_open_file(const struct sysroot *sr, const char *path, int *fdp)
{
	struct found f;
	struct stat st;
	int fd, rc;

	if (sr->host)
		return openreg(AT_FDCWD, path, OPENREG_FOLLOW, fdp, &st);
	rc = walk(sr, path, true, &f, NULL);
	if (rc != 0)
		return rc;
	/* The type of what the walk holds: a FIFO or a device is never
	 * opened. A regular file always has a parent and a name. */
	if (!S_ISREG(f.st.st_mode)) {
		found_close(sr, &f);
		return SYSROOT_ENOTREG;
	}
	/* By its name in the directory held, not following a link, and
	 * only if it is still the file the walk found. */
	rc = openreg(f.parent, f.name, 0, &fd, &st);
	if (rc == 0 && (st.st_dev != f.st.st_dev || st.st_ino != f.st.st_ino)) {
		close(fd);
		rc = SYSROOT_ECHANGED;
	}
	if (rc == OPENREG_ENOTREG)
		rc = SYSROOT_ECHANGED;
	found_close(sr, &f);
	if (rc == 0)
		*fdp = fd;
	return rc;
}

/* sysroot_open_file, then fstat: both readers size their buffer by it. */
static int
open_stat(const struct sysroot *sr, const char *path, int *fdp,
    struct stat *st)
{
	int rc = sysroot_open_file(sr, path, fdp);

	if (rc != 0)
		return rc;
	if (fstat(*fdp, st) != 0) {
		rc = errno;
		close(*fdp);
		return rc;
	}
	return 0;
}

int
sysroot_read_file(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *lenp)
{
	struct stat st;
	char *buf;
	size_t len = 0, size;
	int fd, rc = open_stat(sr, path, &fd, &st);

	if (rc != 0)
		return rc;
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

int
sysroot_read_tail(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *lenp)
{
	struct stat st;
	char *buf, *nl;
	off_t from = 0;
	ssize_t n;
	size_t len, start = 0;
	int fd, rc = open_stat(sr, path, &fd, &st);

	if (rc != 0)
		return rc;
	if ((unsigned long long)st.st_size > cap)
		from = st.st_size - (off_t)cap;
	buf = xmalloc(cap + 1);
	do
		n = pread(fd, buf, cap, from);
	while (n < 0 && errno == EINTR);
	rc = n < 0 ? errno : 0;
	close(fd);
	if (rc != 0) {
		free(buf);
		return rc;
	}
	len = (size_t)n;
	if (from > 0 && (nl = memchr(buf, '\n', len)) != NULL)
		start = (size_t)(nl - buf) + 1;
	else if (from > 0)
		start = len;
	memmove(buf, buf + start, len - start);
	len -= start;
	buf[len] = '\0';
	*data = buf;
	if (lenp != NULL)
		*lenp = len;
	return 0;
}

int
sysroot_read_head(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *lenp)
{
	struct stat st;
	char *buf;
	size_t len = 0;
	ssize_t n;
	int fd, rc = open_stat(sr, path, &fd, &st);

	if (rc != 0)
		return rc;
	buf = xmalloc(cap + 1);
	/* A /proc file says it is empty and is read to its end. */
	while (len < cap) {
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
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

/* Reads the names of the open directory dfd, which it closes. */
static int
list_fd(int dfd, struct strv *names)
{
	struct dirent *de;
	DIR *d = fdopendir(dfd);
	int rc;

	if (d == NULL) {
		rc = errno;
		close(dfd);
		return rc;
	}
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

/* Lists the directory a walk found: opened by its name in the parent
 * held, not following a link, and checked to be the directory walked to. */
static int
list_found(const struct sysroot *sr, const struct found *f, struct strv *names)
{
	struct stat st;
	int dfd;

	if (!S_ISDIR(f->st.st_mode))
		return ENOTDIR;
	if (f->parent < 0)
		dfd = openat(sr->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else
		dfd = openat(f->parent, f->name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ELOOP ? SYSROOT_ECHANGED : errno;
	if (fstat(dfd, &st) != 0 || st.st_dev != f->st.st_dev ||
	    st.st_ino != f->st.st_ino) {
		close(dfd);
		return SYSROOT_ECHANGED;
	}
	return list_fd(dfd, names);
}

/* Lists path; when listings are kept, each directory once. */
static int
list_kept(struct listings *ls, const char *key, int (*lister)(const void *,
    struct strv *), const void *arg, struct strv *names)
{
	struct listing *l;
	size_t *at = strmap_get(&ls->index, key);

	if (at == NULL) {
		strmap_put(&ls->index, key, ls->n);
		l = VEC_PUSH(ls);
		l->rc = lister(arg, &l->names);
	} else {
		l = &ls->v[*at];
	}
	for (size_t i = 0; i < l->names.n; i++)
		strv_push(names, l->names.v[i]);
	return l->rc;
}

static int
list_host(const void *path, struct strv *names)
{
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return dfd < 0 ? errno : list_fd(dfd, names);
}

struct list_arg {
	const struct sysroot	*sr;
	const struct found	*f;
};

static int
list_in_root(const void *arg, struct strv *names)
{
	const struct list_arg *a = arg;

	return list_found(a->sr, a->f, names);
}

/* The probes and the loader model look into the same big directories
 * (/usr/lib/x86_64-linux-gnu holds thousands of names) several times a
 * run; with listings kept, each is read from the kernel once. Under a
 * directory root a listing is kept under the canonical path the walk
 * gives, so every way to a directory shares one listing. */
int
sysroot_list_dir(const struct sysroot *sr, const char *path, struct strv *names)
{
	struct list_arg a;
	struct found f;
	char *key;
	int rc;

	if (sr->host)
		return sr->listings != NULL ?
		    list_kept(sr->listings, path, list_host, path, names) :
		    list_host(path, names);
	/* A path listed before, as given, needs no walk: the probes ask for
	 * the same directories by the same names many times a run (10,000
	 * LD_LIBRARY_PATH entries, walked again by each probe). The map may
	 * hold it beside canonical keys: a path that is some directory's
	 * canonical name resolves to that directory. */
	if (sr->listings != NULL &&
	    strmap_get(&sr->listings->index, path) != NULL)
		return list_kept(sr->listings, path, NULL, NULL, names);
	rc = walk(sr, path, true, &f, sr->listings != NULL ? &key : NULL);
	if (rc != 0)
		return rc;
	a.sr = sr;
	a.f = &f;
	if (sr->listings != NULL) {
		rc = list_kept(sr->listings, key, list_in_root, &a, names);
		strmap_put(&sr->listings->index, path,
		    *strmap_get(&sr->listings->index, key));
		free(key);
	} else {
		rc = list_in_root(&a, names);
	}
	found_close(sr, &f);
	return rc;
}

