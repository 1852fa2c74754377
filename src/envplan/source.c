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
	if (ends_with(base, ".fish"))
		*fmt = SCRIPT_FISH;
	else if (ends_with(base, ".csh") || ends_with(base, ".tcsh"))
		*fmt = SCRIPT_CSH;
	else if (ends_with(base, ".ps1"))
		*fmt = SCRIPT_POWERSHELL;
	else if (ends_with(base, ".lua"))
		*fmt = SCRIPT_LMOD;
	else if (strcmp(base, ".envrc") == 0)
		*fmt = SCRIPT_DIRENV;
	else if (strncmp(buf, "#%Module", 8) == 0)
		*fmt = SCRIPT_TCL;
	else if (ends_with(base, ".sh") || strncmp(buf, "#!/bin/sh", 9) == 0)
		*fmt = SCRIPT_SH;
	else {
		*err = xasprintf(_("%s has no 'cudawiz-format:' line and its name "
		    "does not say which shell it is for; name it with --shell"),
		    file);
		return -1;
	}
	return 0;
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

static const char *
first_file(const char *const *cands, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cands[i] != NULL && access(cands[i], R_OK) == 0)
			return cands[i];
	return NULL;
}

/* The module system's bash init file: Lmod's or Environment Modules'. */
static char *
module_init(char *const *envp, enum script_format fmt)
{
	const char *pkg = envp_get(envp, fmt == SCRIPT_LMOD ? "LMOD_PKG" :
	    "MODULESHOME");
	char *own = pkg != NULL ? xasprintf("%s/init/bash", pkg) : NULL;
	const char *lmod[] = { own, "/usr/share/lmod/lmod/init/bash",
	    "/usr/share/lmod/6.6/init/bash", "/opt/apps/lmod/lmod/init/bash",
	    "/usr/local/lmod/lmod/init/bash" };
	const char *tcl[] = { own, "/usr/share/modules/init/bash",
	    "/usr/share/Modules/init/bash", "/etc/profile.d/modules.sh" };
	const char *f = fmt == SCRIPT_LMOD ? first_file(lmod, 5) :
	    first_file(tcl, 4);
	char *r = f != NULL ? xstrdup(f) : NULL;

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

static int
plan_run(const char *file, enum script_format fmt, char *const *envp,
    struct how *h, char **err)
{
	const char *want = NULL;

	switch (fmt) {
	case SCRIPT_SH:
	case SCRIPT_CONDA:	/* conda sources activate.d in sh syntax */
		h->shell = posix_shell(envp);
		want = "sh";
		strv_push(&h->argv, h->shell != NULL ? h->shell : "sh");
		strv_push(&h->argv, "-c");
		strv_push(&h->argv, ". \"$CW_FILE\" || exit 97; printf '\\n%s\\n' "
		    "\"$CW_MARK\"; exec env -0");
		break;
	case SCRIPT_DIRENV:	/* direnv evaluates .envrc in bash */
		h->shell = find_prog(envp, "bash");
		want = "bash";
		strv_push(&h->argv, "bash");
		strv_push(&h->argv, "-c");
		strv_push(&h->argv, ". \"$CW_FILE\" || exit 97; printf '\\n%s\\n' "
		    "\"$CW_MARK\"; exec env -0");
		break;
	case SCRIPT_FISH:
		h->shell = find_prog(envp, "fish");
		want = "fish";
		strv_push(&h->argv, "fish");
		strv_push(&h->argv, "--no-config");
		strv_push(&h->argv, "-c");
		strv_push(&h->argv, "source \"$CW_FILE\"; or exit 97; printf '\\n%s\\n' "
		    "\"$CW_MARK\"; exec env -0");
		break;
	case SCRIPT_CSH:
		h->shell = find_prog(envp, "tcsh");
		if (h->shell == NULL)
			h->shell = find_prog(envp, "csh");
		want = "tcsh";
		strv_push(&h->argv, "tcsh");
		strv_push(&h->argv, "-f");
		strv_push(&h->argv, "-c");
		strv_push(&h->argv, "source $CW_FILE:q; printf '\\n%s\\n' $CW_MARK:q; "
		    "exec env -0");
		break;
	case SCRIPT_POWERSHELL:
		h->shell = find_prog(envp, "pwsh");
		want = "pwsh";
		strv_push(&h->argv, "pwsh");
		strv_push(&h->argv, "-NoProfile");
		strv_push(&h->argv, "-NonInteractive");
		strv_push(&h->argv, "-Command");
		strv_push(&h->argv, ". $env:CW_FILE; printf '\\n%s\\n' $env:CW_MARK; "
		    "env -0");
		break;
	case SCRIPT_LMOD:
	case SCRIPT_TCL: {
		char *init = module_init(envp, fmt), *dir = xstrdup(file), *slash;
		const char *base;
		size_t n;

		if (init == NULL) {
			free(dir);
			*err = xasprintf(_("cannot check %s: %s is not installed "
			    "(no init/bash of it found)"), file, fmt == SCRIPT_LMOD ?
			    "Lmod" : "Environment Modules");
			return -1;
		}
		slash = strrchr(dir, '/');
		*slash = '\0';
		base = slash + 1;
		n = strlen(base);
		if (fmt == SCRIPT_LMOD && ends_with(base, ".lua"))
			n -= 4;
		strv_pushf(&h->extra, "CW_INIT=%s", init);
		strv_pushf(&h->extra, "CW_DIR=%s", *dir != '\0' ? dir : "/");
		strv_pushf(&h->extra, "CW_NAME=%.*s", (int)n, base);
		free(init);
		free(dir);
		h->shell = find_prog(envp, "bash");
		want = "bash";
		strv_push(&h->argv, "bash");
		strv_push(&h->argv, "-c");
		strv_push(&h->argv, ". \"$CW_INIT\" || exit 97; module use \"$CW_DIR\" "
		    "&& module load \"$CW_NAME\" || exit 97; printf '\\n%s\\n' "
		    "\"$CW_MARK\"; exec env -0");
		break;
	}
	}
	if (h->shell == NULL) {
		*err = xasprintf(_("cannot check %s: it is a %s script and %s is "
		    "not installed"), file, script_format_name(fmt), want);
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
