/* The ownership walk of trustpath.h: components are resolved one by one
 * with lstat and readlink (never realpath, which would hide the links'
 * own directories), so every directory a name passes through is judged,
 * not only the one it ends in. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/trustpath.h"
#include "util/xalloc.h"

/* The kernel's limit on links followed in one resolution (ELOOP). */
#define TRUSTPATH_MAX_LINKS	40

struct walk {
	const uid_t		*uids;
	size_t			 nuids;
	struct trustpath_why	*why;
};

static bool
fail(struct walk *w, enum trustpath_fault fault, const char *path,
    unsigned long id, int err)
{
	w->why->fault = fault;
	w->why->path = xstrdup(path);
	w->why->id = id;
	w->why->err = err;
	return false;
}

static bool
trusted_uid(const struct walk *w, uid_t uid)
{
	for (size_t i = 0; i < w->nuids; i++)
		if (w->uids[i] == uid)
			return true;
	return false;
}

/* One node that is no symlink: its owner, then its write bits, which a
 * sticky directory may have (its entries' owners decide). */
static bool
judge(struct walk *w, const char *path, const struct stat *st)
{
	bool sticky = S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) != 0;

	if (!trusted_uid(w, st->st_uid))
		return fail(w, TRUSTPATH_OWNER, path, (unsigned long)st->st_uid, 0);
	if (sticky)
		return true;
	if ((st->st_mode & S_IWOTH) != 0)
		return fail(w, TRUSTPATH_OTHER, path, 0, 0);
	if ((st->st_mode & S_IWGRP) != 0)
		return fail(w, TRUSTPATH_GROUP, path, (unsigned long)st->st_gid, 0);
	return true;
}

/* dir's parent; "/" stays "/". */
static void
up(char **dir)
{
	char *slash = strrchr(*dir, '/');

	if (slash == *dir)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
}

/* Replaces *rest (whose first component, the link, ends at *next) by
 * target followed by what came after the link. */
static void
splice(char **rest, const char *next, const char *target)
{
	char *n = xasprintf("%s/%s", target, next);

	free(*rest);
	*rest = n;
}

static char *
read_link(const char *path, const struct stat *st)
{
	size_t size = st->st_size > 0 && st->st_size < PATH_MAX ?
	    (size_t)st->st_size + 1 : PATH_MAX;
	char *buf = xmalloc(size);
	ssize_t n = readlink(path, buf, size);

	if (n >= 0 && (size_t)n >= size)
		errno = ENAMETOOLONG;
	if (n < 0 || (size_t)n >= size) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* The walk proper: cur is the resolved directory so far (a real path,
 * already judged), rest what is left to resolve. */
static bool
walk(struct walk *w, char *rest)
{
	char *cur = xstrdup("/");
	unsigned links = 0;
	bool ok = true;
	struct stat st;
	size_t pos = 0;

	if (lstat("/", &st) != 0)
		ok = fail(w, TRUSTPATH_ERROR, "/", 0, errno);
	else
		ok = judge(w, "/", &st);
	while (ok) {
		char *comp, *path, *target;
		size_t len;

		while (rest[pos] == '/')
			pos++;
		if (rest[pos] == '\0')
			break;
		len = strcspn(rest + pos, "/");
		comp = xstrndup(rest + pos, len);
		pos += len;
		if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0) {
			if (comp[1] == '.')
				up(&cur);
			free(comp);
			continue;
		}
		path = path_join(cur, comp);
		free(comp);
		if (lstat(path, &st) != 0) {
			ok = fail(w, TRUSTPATH_ERROR, path, 0, errno);
		} else if (S_ISLNK(st.st_mode)) {
			/* A link's mode means nothing; its owner can replace
			 * it in a sticky directory. */
			if (!trusted_uid(w, st.st_uid))
				ok = fail(w, TRUSTPATH_OWNER, path,
				    (unsigned long)st.st_uid, 0);
			else if (++links > TRUSTPATH_MAX_LINKS)
				ok = fail(w, TRUSTPATH_ERROR, path, 0, ELOOP);
			else if ((target = read_link(path, &st)) == NULL)
				ok = fail(w, TRUSTPATH_ERROR, path, 0, errno);
			else {
				if (target[0] == '/') {
					free(cur);
					cur = xstrdup("/");
				}
				splice(&rest, rest + pos, target);
				pos = 0;
				free(target);
			}
		} else if ((ok = judge(w, path, &st))) {
			if (!S_ISDIR(st.st_mode) && rest[pos + strspn(rest + pos,
			    "/")] != '\0')
				ok = fail(w, TRUSTPATH_ERROR, path, 0, ENOTDIR);
			free(cur);
			cur = path;
			path = NULL;
		}
		free(path);
	}
	free(cur);
	free(rest);
	return ok;
}

bool
trustpath_check(const char *path, const uid_t *uids, size_t n,
    struct trustpath_why *why)
{
	struct walk w = { uids, n, why };
	char *rest;

	memset(why, 0, sizeof *why);
	if (path == NULL || *path == '\0')
		return fail(&w, TRUSTPATH_ERROR, "", 0, ENOENT);
	if (path[0] == '/') {
		rest = xstrdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (cwd == NULL)
			return fail(&w, TRUSTPATH_ERROR, ".", 0, errno);
		rest = xasprintf("%s/%s", cwd, path);
		free(cwd);
	}
	return walk(&w, rest);
}

char *
trustpath_words(const struct trustpath_why *why)
{
	const char *p = why->path != NULL ? why->path : "?";

	switch (why->fault) {
	case TRUSTPATH_OK:
		break;
	case TRUSTPATH_OWNER:
		return xasprintf(_("%s is writable by uid %lu"), p, why->id);
	case TRUSTPATH_GROUP:
		return xasprintf(_("%s is writable by group %lu"), p, why->id);
	case TRUSTPATH_OTHER:
		return xasprintf(_("%s is writable by every user"), p);
	case TRUSTPATH_ERROR:
		return xasprintf(_("%s cannot be checked: %s"), p,
		    strerror(why->err));
	}
	return xasprintf(_("%s is owned by a trusted user"), p);
}

void
trustpath_why_free(struct trustpath_why *why)
{
	free(why->path);
	memset(why, 0, sizeof *why);
}
