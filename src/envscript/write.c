/* Writing scripts to files: atomically, never silently replacing what
 * was there (a backup that is never itself overwritten), never through a
 * symlink unless asked, and leaving nothing behind when it fails; the
 * conda pair; the one line --install-rc adds to an rc file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "envscript/writer.h"
#include "i18n.h"
#include "util/fdio.h"
#include "util/openreg.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

/* A copy for filesystems without hard links; O_EXCL so an existing
 * backup is never replaced. -1 with errno (EEXIST: try the next name). */
static int
copy_to(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, saved;
	ssize_t r;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 07777);
	if (out < 0) {
		saved = errno;
		close(in);
		errno = saved;
		return -1;
	}
	while ((r = read(in, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (write_full(out, buf, (size_t)r) != 0)
			goto fail;
	}
	if (fsync(out) != 0)
		goto fail;
	close(in);
	if (close(out) != 0) {
		saved = errno;
		unlink(to);
		errno = saved;
		return -1;
	}
	return 0;
fail:
	saved = errno;
	close(in);
	close(out);
	unlink(to);
	errno = saved;
	return -1;
}

/* Keeps target as target.bak, .bak.1, .bak.2 …: a hard link where the
 * filesystem has them (atomic, and the old inode is exactly the old file
 * once the new one is renamed over the name), else a copy. */
static char *
make_backup(const char *target, mode_t mode, char **err)
{
	for (unsigned i = 0; i < 10000; i++) {
		char *bak = i == 0 ? xasprintf("%s.bak", target) :
		    xasprintf("%s.bak.%u", target, i);

		if (link(target, bak) == 0)
			return bak;
		if (errno == EPERM || errno == ENOTSUP || errno == EXDEV ||
		    errno == EMLINK || errno == ENOSYS) {
			if (copy_to(target, bak, mode) == 0)
				return bak;
		}
		if (errno != EEXIST) {
			*err = xasprintf(_("cannot keep a backup of %s as %s: %s"),
			    target, bak, strerror(errno));
			free(bak);
			return NULL;
		}
		free(bak);
	}
	*err = xasprintf(_("cannot keep a backup of %s: too many backups "
	    "already (%s.bak.*)"), target, target);
	return NULL;
}

/* Puts text at target (no symlink) atomically; old: its stat when it
 * exists (backed up, mode and owner kept), else NULL. */
static int
commit_file(const char *target, const char *text, const struct stat *old,
    char **backup, char **err)
{
	char *dir = path_dirname(target), *tmp, *bak = NULL;
	size_t len = strlen(text);
	mode_t mode;
	int fd, dfd;

	tmp = xasprintf("%s/.%s.cudawiz-XXXXXX", dir, path_basename(target));
	fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xasprintf(_("cannot write %s: cannot create a file in %s: %s"),
		    target, dir, strerror(errno));
		goto fail_nofd;
	}
	if (old != NULL) {
		mode = old->st_mode & 07777;
		/* Root editing a user's rc file keeps it the user's; where we
		 * may not, the file is still right, so this is best effort. */
		if (fchown(fd, old->st_uid, old->st_gid) != 0 && errno != EPERM)
			goto fail_io;
	} else {
		mode_t um = umask(022);

		umask(um);
		mode = 0666 & ~um;
	}
	if (fchmod(fd, mode) != 0 || write_full(fd, text, len) != 0 ||
	    fsync(fd) != 0)
		goto fail_io;
	if (close(fd) != 0) {
		fd = -1;
		goto fail_io;
	}
	fd = -1;
	if (old != NULL && (bak = make_backup(target, old->st_mode, err)) == NULL)
		goto fail;
	if (rename(tmp, target) != 0) {
		*err = xasprintf(_("cannot write %s: %s"), target, strerror(errno));
		if (bak != NULL)
			unlink(bak);
		FREE(&bak);
		goto fail;
	}
	/* The rename is durable once the directory is on disk. Some
	 * filesystems cannot fsync a directory (EINVAL); the file is in
	 * place either way, so that is not an error. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd) != 0 && errno != EINVAL && errno != EROFS) {
			*err = xasprintf(_("cannot write %s: syncing %s: %s"), target,
			    dir, strerror(errno));
			close(dfd);
			free(tmp);
			free(dir);
			*backup = bak;
			return -1;
		}
		close(dfd);
	}
	*backup = bak;
	free(tmp);
	free(dir);
	return 0;
fail_io:
	*err = xasprintf(_("cannot write %s: %s"), target, strerror(errno));
	if (fd >= 0)
		close(fd);
fail:
	unlink(tmp);
fail_nofd:
	free(tmp);
	free(dir);
	return -1;
}

/* Where to write: path itself, or with follow the file a symlink at path
 * points to. *exists tells whether there is a file to back up. */
static char *
resolve_target(const char *path, bool follow, struct stat *st, bool *exists,
    char **err)
{
	char *target;

	*exists = false;
	if (*path == '\0') {
		*err = xstrdup(_("cannot write a file with an empty name"));
		return NULL;
	}
	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return xstrdup(path);
		*err = xasprintf(_("cannot write %s: %s"), path, strerror(errno));
		return NULL;
	}
	if (S_ISLNK(st->st_mode)) {
		if (!follow) {
			*err = xasprintf(_("not writing %s: it is a symbolic link "
			    "(--force writes the file it points to)"), path);
			return NULL;
		}
		target = realpath(path, NULL);
		if (target == NULL) {
			*err = xasprintf(_("cannot write %s: following the symbolic "
			    "link: %s"), path, strerror(errno));
			return NULL;
		}
		if (stat(target, st) != 0) {
			*err = xasprintf(_("cannot write %s: %s"), target,
			    strerror(errno));
			free(target);
			return NULL;
		}
	} else {
		target = xstrdup(path);
	}
	if (S_ISDIR(st->st_mode)) {
		*err = xasprintf(_("cannot write %s: %s"), target, strerror(EISDIR));
		free(target);
		return NULL;
	}
	if (!S_ISREG(st->st_mode)) {
		*err = xasprintf(_("not writing %s: it is not a regular file"),
		    target);
		free(target);
		return NULL;
	}
	*exists = true;
	return target;
}

int
script_write_file(const char *path, const char *text, bool force,
    char **backup, char **err)
{
	struct stat st;
	bool exists;
	char *target;
	int rc;

	*backup = NULL;
	target = resolve_target(path, force, &st, &exists, err);
	if (target == NULL)
		return -1;
	rc = commit_file(target, text, exists ? &st : NULL, backup, err);
	free(target);
	return rc;
}

/* mkdir -p, 0777 & ~umask for each directory made. */
static int
make_dirs(const char *path, char **err)
{
	char *p = xstrdup(path);
	struct stat st;

	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			*err = xasprintf(_("cannot create the directory %s: %s"), p,
			    strerror(errno));
			free(p);
			return -1;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
		int e = errno;

		if (stat(p, &st) == 0)
			e = ENOTDIR;
		*err = xasprintf(_("cannot create the directory %s: %s"), p,
		    strerror(e));
		free(p);
		return -1;
	}
	free(p);
	return 0;
}

int
script_write_conda(const char *prefix, const struct env_plan *p,
    const struct script_text *t, bool force, char **act, char **deact,
    char **err)
{
	struct stat st;
	char *adir, *ddir, *a, *d, *bak = NULL;

	*act = *deact = NULL;
	if (t->deactivate == NULL) {
		*err = xstrdup(_("the conda format writes two scripts; this text "
		    "has no deactivate script"));
		return -1;
	}
	if (stat(prefix, &st) != 0 || !S_ISDIR(st.st_mode)) {
		int e = errno;

		if (stat(prefix, &st) == 0)
			e = ENOTDIR;
		*err = xasprintf(_("cannot write into the conda environment %s: %s"),
		    prefix, strerror(e));
		return -1;
	}
	/* The name is checked by script_render; checked again here because
	 * it becomes a file name. */
	if (p->name == NULL || *p->name == '\0' || strchr(p->name, '/') != NULL ||
	    *p->name == '.') {
		*err = xasprintf(_("cannot write into %s: the plan's name '%s' is "
		    "not a file name"), prefix, p->name != NULL ? p->name : "");
		return -1;
	}
	adir = xasprintf("%s/etc/conda/activate.d", prefix);
	ddir = xasprintf("%s/etc/conda/deactivate.d", prefix);
	a = xasprintf("%s/cudawiz-%s.sh", adir, p->name);
	d = xasprintf("%s/cudawiz-%s.sh", ddir, p->name);
	/* deactivate.d first: alone it does nothing (it checks that the
	 * activation ran), while an activation without its way back would
	 * change the environment for good. */
	if (make_dirs(adir, err) != 0 || make_dirs(ddir, err) != 0 ||
	    script_write_file(d, t->deactivate, force, &bak, err) != 0) {
		free(bak);
		goto fail;
	}
	FREE(&bak);
	if (script_write_file(a, t->text, force, &bak, err) != 0)
		goto fail;
	free(bak);
	free(adir);
	free(ddir);
	*act = a;
	*deact = d;
	return 0;
fail:
	free(adir);
	free(ddir);
	free(a);
	free(d);
	return -1;
}

/* The line --install-rc adds. */
static char *
rc_line(const char *script, enum script_format fmt, char **err)
{
	const struct script_writer *w = script_writer(fmt);
	struct strbuf sb = STRBUF_INIT;

	if (strchr(script, '\n') != NULL || strchr(script, '\r') != NULL) {
		*err = xasprintf(_("cannot add a line sourcing '%s' to an rc file: "
		    "its name holds a line break"), script);
		return NULL;
	}
	if ((unsigned)fmt >= SCRIPT_NFORMATS || w->rc_file == NULL) {
		*err = xasprintf(_("--install-rc works for sh, fish and csh scripts, "
		    "not %s"), w->name);
		return NULL;
	}
	strbuf_puts(&sb, w->source_verb);
	if (w->quote(&sb, script) != 0) {
		/* Only csh's quoting can fail. */
		strbuf_free(&sb);
		*err = xasprintf(_("cannot add a line sourcing '%s' to a csh "
		    "rc file: csh cannot quote that name"), script);
		return NULL;
	}
	strbuf_printf(&sb, " # cudawiz-env %s", script);
	return strbuf_take(&sb);
}

/* The whole file, or NULL with *err; a missing file reads as "". Only
 * a regular file is opened (openreg): path was checked to be one, but
 * a FIFO put at its name since would make open() and read() wait for a
 * writer for ever. path is resolve_target()'s, no link to follow. */
static char *
read_file(const char *path, bool *missing, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char buf[65536];
	ssize_t r;
	int fd, rc;

	*missing = false;
	rc = openreg(AT_FDCWD, path, 0, &fd, &st);
	if (rc != 0) {
		if (rc == ENOENT) {
			*missing = true;
			return xstrdup("");
		}
		*err = xasprintf(_("cannot read %s: %s"), path,
		    openreg_strerror(rc, &st));
		return NULL;
	}
	while ((r = read(fd, buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			*err = xasprintf(_("cannot read %s: %s"), path,
			    strerror(errno));
			close(fd);
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_add(&sb, buf, (size_t)r);
	}
	close(fd);
	return strbuf_take(&sb);
}

static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *s = text; s != NULL && *s != '\0';) {
		const char *e = strchr(s, '\n');
		size_t len = e != NULL ? (size_t)(e - s) : strlen(s);

		if (len > 0 && s[len - 1] == '\r')
			len--;
		if (len == n && memcmp(s, line, n) == 0)
			return true;
		s = e != NULL ? e + 1 : NULL;
	}
	return false;
}

/* Takes the lock on target's lock file (TARGET.cudawiz-lock, made 0600
 * and never removed: removing it would let a waiting run lock a file
 * that is no longer there). The rc file itself cannot be the lock: the
 * rename puts a new inode at its name, and a run that opened the old
 * one would hold a lock nobody else sees. Waits up to RC_LOCK_TRIES x
 * RC_LOCK_WAIT_NS for a run that holds it. The fd, or -1 with *err. */
#define RC_LOCK_TRIES	1000
#define RC_LOCK_WAIT_NS	10000000L	/* 10 ms: 10 s in all */
static int
lock_rc(const char *target, const struct stat *rc_st, char **err)
{
	char *path = xasprintf("%s.cudawiz-lock", target);
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO planted there is not waited on; O_NOFOLLOW:
	 * a link planted there creates nothing elsewhere. */
	fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC, 0600);
	if (fd < 0) {
		*err = xasprintf(_("cannot lock %s: cannot open %s: %s"), target,
		    path, strerror(errno));
		free(path);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*err = xasprintf(_("cannot lock %s: %s is not a regular file"),
		    target, path);
		goto fail;
	}
	/* Root editing a user's rc file: the lock file stays the user's, so
	 * the user's own later runs can open it. Best effort, as for the rc
	 * file itself. */
	if (rc_st != NULL && st.st_uid != rc_st->st_uid &&
	    fchown(fd, rc_st->st_uid, rc_st->st_gid) != 0 && errno != EPERM) {
		*err = xasprintf(_("cannot lock %s: %s: %s"), target, path,
		    strerror(errno));
		goto fail;
	}
	for (int i = 0;; i++) {
		struct timespec ts = { 0, RC_LOCK_WAIT_NS };

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			*err = xasprintf(_("cannot lock %s: %s: %s"), target, path,
			    strerror(errno));
			goto fail;
		}
		if (i + 1 >= RC_LOCK_TRIES) {
			*err = xasprintf(_("cannot lock %s: another run has held "
			    "%s for %ld seconds; try again when it is done"),
			    target, path,
			    (long)(RC_LOCK_TRIES * RC_LOCK_WAIT_NS / 1000000000L));
			goto fail;
		}
		(void)nanosleep(&ts, NULL);
	}
	free(path);
	return fd;
fail:
	close(fd);
	free(path);
	return -1;
}

int
script_install_rc(const char *rc, const char *script, enum script_format fmt,
    bool *changed, char **backup, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	bool exists, missing;
	char *line, *target, *old = NULL, *dir;
	int ret = -1, lock = -1;

	*changed = false;
	*backup = NULL;
	line = rc_line(script, fmt, err);
	if (line == NULL)
		return -1;
	/* rc files are often links into a dotfiles repository: written
	 * through, so the link and the repository stay as they are. */
	target = resolve_target(rc, true, &st, &exists, err);
	if (target == NULL) {
		free(line);
		return -1;
	}
	if (!exists) {
		dir = path_dirname(target);
		if (make_dirs(dir, err) != 0) {
			free(dir);
			goto out;
		}
		free(dir);
	}
	/* Read, append and rename under the lock, so two runs never both
	 * append to the same old text (the later rename would drop the
	 * earlier line while both report success). What resolve_target
	 * saw may have changed while waiting: looked at again. */
	lock = lock_rc(target, exists ? &st : NULL, err);
	if (lock < 0)
		goto out;
	free(target);
	target = resolve_target(rc, true, &st, &exists, err);
	if (target == NULL)
		goto out;
	old = read_file(target, &missing, err);
	if (old == NULL)
		goto out;
	if (has_line(old, line)) {
		ret = 0;
		goto out;
	}
	strbuf_puts(&sb, old);
	if (sb.len > 0 && sb.buf[sb.len - 1] != '\n')
		strbuf_putc(&sb, '\n');
	strbuf_printf(&sb, "%s\n", line);
	if (commit_file(target, strbuf_str(&sb), exists ? &st : NULL, backup,
	    err) == 0) {
		*changed = true;
		ret = 0;
	}
out:
	if (lock >= 0)
		close(lock);	/* lets the lock go */
	strbuf_free(&sb);
	free(old);
	free(target);
	free(line);
	return ret;
}

bool
script_target_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}
