/* See source.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "envplan/source.h"
#include "envscript/writer.h"
#include "i18n.h"
#include "util/envp.h"
#include "util/openreg.h"
#include "util/runcap.h"
#include "util/strv.h"
#include "util/xalloc.h"

/* Between whatever the script printed and the environment dump. */
#define MARK		"@@cudawiz-env-check@@"
#define OUT_CAP		(16u * 1024 * 1024)
#define HEAD_BYTES	4096

/* The variables this file adds for the shell; never part of the result. */
static const char *const own_vars[] = { "CW_FILE=", "CW_MARK=", "CW_INIT=",
    "CW_DIR=", "CW_NAME=" };

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool
name_fits(const struct script_writer *w, const char *base)
{
	if (w->file_name != NULL && strcmp(base, w->file_name) == 0)
		return true;
	for (size_t i = 0; w->suffixes != NULL && w->suffixes[i] != NULL; i++)
		if (ends_with(base, w->suffixes[i]))
			return true;
	return false;
}

/* The first row (of the guess_last rows when last, else of the others)
 * whose name fits base, else whose head starts text. */
static bool
guess_format(const char *base, const char *text, bool last,
    enum script_format *fmt)
{
	for (int by_head = 0; by_head < 2; by_head++)
		for (int f = 0; f < SCRIPT_NFORMATS; f++) {
			const struct script_writer *w =
			    script_writer((enum script_format)f);

			if (w->guess_last != last)
				continue;
			if (by_head ? w->head != NULL && strncmp(text, w->head,
			    strlen(w->head)) == 0 : name_fits(w, base)) {
				*fmt = (enum script_format)f;
				return true;
			}
		}
	return false;
}

int
script_file_format(const char *file, enum script_format *fmt, char **err)
{
	char buf[HEAD_BYTES + 1], word[32];
	const char *base = strrchr(file, '/'), *at;
	struct stat st;
	ssize_t got;
	size_t n = 0;
	int fd;
	/* Only a regular file: a FIFO would make open() and read() wait
	 * for a writer (cmd_env_check looked, but the name may have been
	 * replaced since). */
	int rc = openreg(AT_FDCWD, file, OPENREG_FOLLOW, &fd, &st);

	base = base != NULL ? base + 1 : file;
	if (rc != 0) {
		*err = xasprintf("%s: %s", file, openreg_strerror(rc, &st));
		return -1;
	}
	do {
		got = read(fd, buf, HEAD_BYTES);
	} while (got < 0 && errno == EINTR);
	close(fd);
	if (got < 0) {
		*err = xasprintf("%s: %s", file, strerror(errno));
		return -1;
	}
	buf[got] = '\0';
	/* A NUL ends the search: this is text or it is nothing of ours. */
	at = strstr(buf, "cudawiz-format:");
	if (at != NULL) {
		at += strlen("cudawiz-format:");
		while (*at == ' ' || *at == '\t')
			at++;
		while (n + 1 < sizeof word && (at[n] >= 'a' && at[n] <= 'z'))
			n++;
		memcpy(word, at, n);
		word[n] = '\0';
		if (script_format_parse(word, fmt))
			return 0;
		*err = xasprintf(_("%s says it is for '%s', a format this cudawiz "
		    "does not know; name its shell with --shell"), file, word);
		return -1;
	}
	if (guess_format(base, buf, false, fmt) ||
	    guess_format(base, buf, true, fmt))
		return 0;
	*err = xasprintf(_("%s has no 'cudawiz-format:' line and its name "
	    "does not say which shell it is for; name it with --shell"), file);
	return -1;
}

static bool
executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* name on envp's PATH (the shell the user would get), else in /bin and
 * /usr/bin. */
static char *
find_prog(char *const *envp, const char *name)
{
	const char *path = envp_get(envp, "PATH");
	struct strv dirs = STRV_INIT;
	char *found = NULL;

	strv_split(&dirs, path != NULL ? path : "", ":");
	strv_push(&dirs, "/usr/bin");
	strv_push(&dirs, "/bin");
	for (size_t i = 0; i < dirs.n && found == NULL; i++) {
		char *p;

		if (dirs.v[i][0] != '/')
			continue;	/* never a relative entry: the cwd */
		p = xasprintf("%s/%s", dirs.v[i], name);
		if (executable(p))
			found = p;
		else
			free(p);
	}
	strv_free(&dirs);
	return found;
}

/* The module system's bash init file: its home's, else the first of the
 * usual places that is there. */
static char *
module_init(char *const *envp, const struct script_modsys *ms)
{
	const char *pkg = envp_get(envp, ms->home_var);
	char *own = pkg != NULL ? xasprintf("%s/init/bash", pkg) : NULL;
	const char *f = own != NULL && access(own, R_OK) == 0 ? own : NULL;
	char *r;

	for (size_t i = 0; f == NULL && ms->inits[i] != NULL; i++)
		if (access(ms->inits[i], R_OK) == 0)
			f = ms->inits[i];
	r = f != NULL ? xstrdup(f) : NULL;
	free(own);
	return r;
}

/* The POSIX shell to use: the user's own when it is one. */
static char *
posix_shell(char *const *envp)
{
	static const char *const ok[] = { "bash", "zsh", "dash", "ksh", "mksh",
	    "ksh93", "sh" };
	const char *sh = envp_get(envp, "SHELL"), *base;

	if (sh != NULL && (base = strrchr(sh, '/')) != NULL) {
		for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
			if (strcmp(base + 1, ok[i]) == 0 && executable(sh))
				return xstrdup(sh);
	}
	return find_prog(envp, "sh");
}

struct how {
	char		*shell;
	struct strv	 argv;
	struct strv	 extra;		/* NAME=VALUE added to the environment */
};

/* A modulefile: the init file and the module's directory and name, for
 * module_run_args. */
static int
module_env(const char *file, const struct script_writer *w,
    char *const *envp, struct how *h, char **err)
{
	char *init = module_init(envp, w->run.modsys), *dir = xstrdup(file);
	char *slash;
	const char *base;
	size_t n;

	if (init == NULL) {
		free(dir);
		*err = xasprintf(_("cannot check %s: %s is not installed "
		    "(no init/bash of it found)"), file, w->run.modsys->name);
		return -1;
	}
	slash = strrchr(dir, '/');
	*slash = '\0';
	base = slash + 1;
	n = strlen(base);
	if (w->module_ext != NULL && ends_with(base, w->module_ext))
		n -= strlen(w->module_ext);
	strv_pushf(&h->extra, "CW_INIT=%s", init);
	strv_pushf(&h->extra, "CW_DIR=%s", *dir != '\0' ? dir : "/");
	strv_pushf(&h->extra, "CW_NAME=%.*s", (int)n, base);
	free(init);
	free(dir);
	return 0;
}

/* The shell and its argv for fmt's row (writer.h). */
static int
plan_run(const char *file, enum script_format fmt, char *const *envp,
    struct how *h, char **err)
{
	const struct script_writer *w = script_writer(fmt);
	const struct script_run *r = &w->run;

	if (r->modsys != NULL && module_env(file, w, envp, h, err) != 0)
		return -1;
	if (r->progs == NULL)
		h->shell = posix_shell(envp);
	for (size_t i = 0; r->progs != NULL && r->progs[i] != NULL &&
	    h->shell == NULL; i++)
		h->shell = find_prog(envp, r->progs[i]);
	strv_push(&h->argv, r->argv0 != NULL ? r->argv0 :
	    h->shell != NULL ? h->shell : r->want);
	for (size_t i = 0; r->args[i] != NULL; i++)
		strv_push(&h->argv, r->args[i]);
	if (h->shell == NULL) {
		*err = xasprintf(_("cannot check %s: it is a %s script and %s is "
		    "not installed"), file, w->name, r->want);
		return -1;
	}
	return 0;
}

static bool
own_var(const char *entry)
{
	for (size_t i = 0; i < sizeof own_vars / sizeof *own_vars; i++)
		if (strncmp(entry, own_vars[i], strlen(own_vars[i])) == 0)
			return true;
	return false;
}

/* The NUL-separated dump after the last mark. */
static bool
take_env(const struct strbuf *out, struct sourced *s)
{
	const char *mark = "\n" MARK "\n", *from = NULL;
	size_t ml = strlen(mark), n = 0;
	struct strv env = STRV_INIT;
	const char *p, *end;

	for (size_t i = 0; i + ml <= out->len; i++)
		if (memcmp(out->buf + i, mark, ml) == 0)
			from = out->buf + i + ml;
	if (from == NULL)
		return false;
	end = out->buf + out->len;
	for (p = from; p < end; p += n + 1) {
		n = strnlen(p, (size_t)(end - p));
		if (n > 0 && memchr(p, '=', n) != NULL && !own_var(p))
			strv_push_owned(&env, xstrndup(p, n));
	}
	s->envp = xreallocarray(NULL, env.n + 1, sizeof *s->envp);
	for (size_t i = 0; i < env.n; i++)
		s->envp[i] = env.v[i];
	s->envp[env.n] = NULL;
	free(env.v);
	return true;
}

static char *
failure(const char *file, const struct how *h, const struct runcap *rc,
    double timeout_s)
{
	const char *tail = strbuf_str(&rc->err);

	if (rc->timed_out)
		return xasprintf(_("sourcing %s in %s did not finish within %g s"),
		    file, h->shell, timeout_s);
	if (WIFSIGNALED(rc->status))
		return xasprintf(_("sourcing %s in %s: the shell was killed by "
		    "signal %d (%s)"), file, h->shell, WTERMSIG(rc->status),
		    strsignal(WTERMSIG(rc->status)));
	return xasprintf(_("sourcing %s in %s failed (exit status %d)%s%s"), file,
	    h->shell, WIFEXITED(rc->status) ? WEXITSTATUS(rc->status) : -1,
	    *tail != '\0' ? ": " : "", tail);
}

int
script_source(const char *file, enum script_format fmt, char *const *envp,
    double timeout_s, struct sourced *out, char **err)
{
	struct how h = { NULL, STRV_INIT, STRV_INIT };
	struct strv env = STRV_INIT;
	struct runcap rc;
	char *abs = realpath(file, NULL);
	int ret = -1;

	memset(out, 0, sizeof *out);
	if (abs == NULL) {
		*err = xasprintf("%s: %s", file, strerror(errno));
		return -1;
	}
	if (plan_run(abs, fmt, envp, &h, err) != 0)
		goto out;
	for (size_t i = 0; envp[i] != NULL; i++)
		if (!own_var(envp[i]))
			strv_push(&env, envp[i]);
	strv_pushf(&env, "CW_FILE=%s", abs);
	strv_push(&env, "CW_MARK=" MARK);
	for (size_t i = 0; i < h.extra.n; i++)
		strv_push(&env, h.extra.v[i]);
	strv_push_owned(&env, NULL);
	strv_push_owned(&h.argv, NULL);
	if (runcap(h.shell, h.argv.v, env.v, timeout_s, OUT_CAP, &rc, err) != 0)
		goto out;
	if (rc.timed_out || rc.truncated || !WIFEXITED(rc.status) ||
	    WEXITSTATUS(rc.status) != 0 || !take_env(&rc.out, out)) {
		*err = failure(file, &h, &rc, timeout_s);
		runcap_free(&rc);
		goto out;
	}
	runcap_free(&rc);
	out->shell = xstrdup(h.shell);
	out->how = xstrdup(h.argv.v[h.argv.n - 2]);
	ret = 0;
out:
	free(abs);
	free(h.shell);
	strv_free(&h.argv);
	strv_free(&h.extra);
	strv_free(&env);
	return ret;
}

void
sourced_free(struct sourced *s)
{
	for (size_t i = 0; s->envp != NULL && s->envp[i] != NULL; i++)
		free(s->envp[i]);
	free(s->envp);
	free(s->shell);
	free(s->how);
	memset(s, 0, sizeof *s);
}
