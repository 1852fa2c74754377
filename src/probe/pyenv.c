/* Finding Python environments: every place a Python process could take
 * its packages from, so the frameworks in each can be judged.
 *
 * Environments are reached many ways: the active ones (CONDA_PREFIX,
 * VIRTUAL_ENV, the python3 on PATH), conda's own lists and install
 * locations, virtualenvwrapper's directories, pyenv's versions, and the
 * distribution's and the user's site-packages. One environment is often
 * reached several of them (the active conda env is also listed in
 * environments.txt), so every candidate is canonicalised and merged into
 * one fact per real directory that names each way it was reached. Active
 * sources are looked at first, so active environments come first.
 *
 * Nothing is run: the Python version comes from pyvenv.cfg, the
 * interpreter's versioned name, conda-meta's python record or
 * lib/python3.X. Only directories and small files are read, and one
 * environment's problems (a dangling link, a loop, an unreadable
 * directory) are notes that never stop the others. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/cudafiles.h"
#include "probe/probe.h"
#include "util/envp.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

/* A machine with more environments than this is a generated tree or a
 * runaway script; the rest are counted in a note. */
#define PYENV_MAX_ENVS		4096
/* Where the conda installers put a base install, under HOME and under
 * /opt: Anaconda and Miniconda (2 and 3), Miniforge, Mambaforge and
 * micromamba's root prefixes. One list for both places. */
static const char *const conda_bases[] = {
	"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba",
	"miniconda2", "anaconda2", "miniforge", ".local/share/mamba",
};
#define N_CONDA_BASES	(sizeof conda_bases / sizeof conda_bases[0])

/* conda writes one prefix a line; a real list is a few kilobytes. */
#define ENVS_TXT_CAP		(4 * 1024 * 1024)
#define ENVS_TXT_MAX_LINES	16384
#define PYVENV_CFG_CAP		(64 * 1024)
/* .python-version and pyenv's version file hold one name. */
#define PYENV_VERSION_CAP	4096
/* How far up from the current directory a .python-version is looked for. */
#define PYENV_VERSION_DEPTH	64
/* Home directories looked into when HOME is unset. */
#define HOME_DIRS_MAX		64

/* What a source expects to find; it decides which directories count as
 * an environment and of which kind when the directory does not say. */
enum want {
	WANT_ACTIVE_CONDA,	/* CONDA_PREFIX: always an environment */
	WANT_ACTIVE_VENV,	/* VIRTUAL_ENV: always an environment */
	WANT_INTERPRETER,	/* the prefix of a python3 on PATH */
	WANT_CONDA,		/* only with conda-meta/ */
	WANT_VENV,		/* pyvenv.cfg or a bin/python */
	WANT_PYENV,		/* any directory under versions/ */
	WANT_SYSTEM,		/* only with a site-packages or dist-packages */
	WANT_USER,
};

/* What to say when a candidate path cannot be followed. */
enum missing {
	MISSING_QUIET,		/* a well-known place that may well not exist */
	MISSING_NOTE,		/* named by a variable or a list */
	MISSING_CHILD,		/* an entry of a listing: files are normal there
				 * (virtualenvwrapper's hooks), broken links not */
};

struct scan {
	struct probe_ctx	*ctx;
	const char		*home;		/* NULL: unset or unusable */
	char			*cwd;		/* NULL: unknown */
	char			*pyenv_root;	/* canonical; NULL: none */
	bool			 capped;
	size_t			 dropped;	/* candidates past the cap */
};

static bool
missing(int rc)
{
	return rc == ENOENT || rc == ENOTDIR;
}

static bool
is_abs(const char *p)
{
	return p != NULL && p[0] == '/';
}

/* "3.10" of "3.10.12", "3.10.12.final.0" or "3.10"; NULL when s does not
 * start with two numbers. */
static char *
major_minor(const char *s)
{
	const char *p = s;
	size_t n;

	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s || *p != '.' || p[1] < '0' || p[1] > '9')
		return NULL;
	p++;
	while (*p >= '0' && *p <= '9')
		p++;
	n = (size_t)(p - s);
	if (*p != '\0' && *p != '.' && *p != '+' && *p != 'a' && *p != 'b' &&
	    *p != 'r' && *p != 'c')
		return NULL;
	return xstrndup(s, n);
}

/* "3.10" of "python3.10"; NULL for "python3", "python3.10-config" … */
static char *
version_of_python_name(const char *name)
{
	const char *p;

	if (strncmp(name, "python3.", 8) != 0)
		return NULL;
	for (p = name + 8; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return NULL;
	if (p == name + 8)
		return NULL;
	return xstrdup(name + 6);
}

/* Minor of a "3.N" string, for picking the newest. */
static long
minor_of(const char *v)
{
	const char *dot = strchr(v, '.');

	return dot != NULL ? strtol(dot + 1, NULL, 10) : -1;
}

static struct py_env *
find_env(struct scan *s, const char *canon)
{
	struct facts *f = s->ctx->facts;

	for (size_t i = 0; i < f->python_envs.n; i++)
		if (strcmp(f->python_envs.v[i].prefix, canon) == 0)
			return &f->python_envs.v[i];
	return NULL;
}

static void
add_via(struct py_env *e, const char *via)
{
	if (!strv_contains(&e->found_via, via))
		strv_push(&e->found_via, via);
}

/* ------------------------------------------------------------ pyvenv.cfg */

/* Trims blanks (and a CR) at both ends, in place. */
static char *
trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/*
 * pyvenv.cfg is "key = value" lines written by venv, virtualenv and uv:
 * home is the directory of the base interpreter, whose parent is the base
 * prefix; version (venv) or version_info (virtualenv, uv) the base's
 * version.
 */
static void
read_pyvenv_cfg(struct scan *s, struct py_env *e, const char *path)
{
	const struct sysroot *sr = s->ctx->sr;
	char *data, *line, *save = NULL, *home = NULL;
	size_t len;
	int rc = sysroot_read_file(sr, path, PYVENV_CFG_CAP, &data, &len);

	if (rc != 0) {
		facts_note(s->ctx->facts, path,
		    _("cannot read the virtual environment's settings: %s"),
		    sysroot_strerror(rc));
		return;
	}
	if (memchr(data, '\0', len) != NULL) {
		facts_note(s->ctx->facts, path,
		    _("binary data, not a virtual environment's settings"));
		free(data);
		return;
	}
	for (line = strtok_r(data, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '='), *key, *val;

		if (eq == NULL)
			continue;
		*eq = '\0';
		key = trim(line);
		val = trim(eq + 1);
		if (strcasecmp(key, "home") == 0 && *val != '\0') {
			free(home);
			home = xstrdup(val);
		} else if (strcasecmp(key, "include-system-site-packages") == 0) {
			e->system_site = strcasecmp(val, "true") == 0;
		} else if ((strcasecmp(key, "version") == 0 ||
		    strcasecmp(key, "version_info") == 0) &&
		    e->python_version == NULL) {
			e->python_version = major_minor(val);
		}
	}
	free(data);
	if (home == NULL)
		return;
	/* The base prefix as the base Python sees itself: its home with
	 * links followed (home = /bin on a merged-/usr system is /usr). */
	if (is_abs(home)) {
		char *real;

		rc = sysroot_realpath(sr, home, &real);
		if (rc == 0) {
			e->base_prefix = path_dirname(real);
			free(real);
		} else {
			char *norm = path_normalise(home);

			facts_note(s->ctx->facts, path,
			    _("the base interpreter's directory %s cannot be "
			    "followed: %s"), home, sysroot_strerror(rc));
			e->base_prefix = path_dirname(norm);
			free(norm);
		}
	} else {
		e->base_prefix = path_dirname(home);
	}
	free(home);
}

/* --------------------------------------------------------------- details */

/* "3.10" from conda-meta/python-3.10.13-h955ad1f_0.json. */
static char *
version_from_conda_meta(struct scan *s, const char *prefix)
{
	struct strv names = STRV_INIT;
	char *meta = path_join(prefix, "conda-meta"), *best = NULL;
	int rc = sysroot_list_dir(s->ctx->sr, meta, &names);

	if (rc != 0 && !missing(rc))
		facts_note(s->ctx->facts, meta,
		    _("cannot list the conda package records: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; i < names.n && best == NULL; i++)
		if (strncmp(names.v[i], "python-3.", 9) == 0 &&
		    cf_ends_with(names.v[i], ".json"))
			best = major_minor(names.v[i] + 7);
	strv_free(&names);
	free(meta);
	return best;
}

/* "3.10" from the name bin/python3 finally points to. */
static char *
version_from_interpreter(struct scan *s, const char *prefix)
{
	char *py = path_join(prefix, "bin/python3"), *real, *v = NULL;

	if (sysroot_realpath(s->ctx->sr, py, &real) == 0) {
		v = version_of_python_name(path_basename(real));
		free(real);
	}
	free(py);
	return v;
}

/* Adds dir/sub when it is a directory and not there yet. */
static void
add_site(struct scan *s, struct py_env *e, const char *dir, const char *sub)
{
	char *sp = path_join(dir, sub);

	if (!strv_contains(&e->site_dirs, sp) && sysroot_is_dir(s->ctx->sr, sp))
		strv_push_owned(&e->site_dirs, sp);
	else
		free(sp);
}

/*
 * The site directories under one lib directory. With the version known
 * (every conda env and venv) only its own directory counts: a leftover
 * lib/python3.9 from before an upgrade is not importable. The system and
 * user sites, and environments whose version is unknown, take every
 * python3* (Debian's lib/python3/dist-packages among them); the newest
 * one names the version when nothing else did.
 */
static void
sites_in(struct scan *s, struct py_env *e, const char *lib, bool all)
{
	struct strv names = STRV_INIT;
	bool system = e->kind == PYENV_SYSTEM;
	bool guess = e->python_version == NULL;
	int rc;

	if (!all && e->python_version != NULL) {
		char *py = xasprintf("%s/python%s", lib, e->python_version);

		add_site(s, e, py, "site-packages");
		if (system)
			add_site(s, e, py, "dist-packages");
		free(py);
		return;
	}
	rc = sysroot_list_dir(s->ctx->sr, lib, &names);
	if (rc != 0 && !missing(rc))
		facts_note(s->ctx->facts, lib,
		    _("cannot list the environment's library directory: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		const char *n = names.v[i];
		char *py, *v;
		size_t before = e->site_dirs.n;

		if (strncmp(n, "python3", 7) != 0 ||
		    (n[7] != '\0' && n[7] != '.'))
			continue;
		v = version_of_python_name(n);
		if (n[7] == '.' && v == NULL)
			continue;
		py = path_join(lib, n);
		add_site(s, e, py, "site-packages");
		if (system)
			add_site(s, e, py, "dist-packages");
		free(py);
		if (v != NULL && guess && e->site_dirs.n > before &&
		    (e->python_version == NULL ||
		    minor_of(v) > minor_of(e->python_version))) {
			free(e->python_version);
			e->python_version = v;
			v = NULL;
		}
		free(v);
	}
	strv_free(&names);
}

static void
find_sites(struct scan *s, struct py_env *e)
{
	bool all = e->kind == PYENV_SYSTEM || e->kind == PYENV_USER;
	char *lib = path_join(e->prefix, "lib");
	char *lib64 = path_join(e->prefix, "lib64");
	char *rlib = NULL, *rlib64 = NULL;
	size_t before = e->site_dirs.n;

	sites_in(s, e, lib, all);
	if (!all && e->site_dirs.n == before && e->python_version != NULL)
		sites_in(s, e, lib, true);
	/* venv makes lib64 a link to lib: the same directory once. */
	if (sysroot_realpath(s->ctx->sr, lib64, &rlib64) == 0 &&
	    (sysroot_realpath(s->ctx->sr, lib, &rlib) != 0 ||
	    strcmp(rlib, rlib64) != 0) && sysroot_is_dir(s->ctx->sr, rlib64))
		sites_in(s, e, lib64, all);
	free(rlib);
	free(rlib64);
	free(lib);
	free(lib64);
}

/* bin/python3.X, bin/python3 or bin/python as found, links not followed:
 * that is the name a user runs. A link whose target is gone (a venv whose
 * base Python was removed) is kept and noted. */
static void
find_python(struct scan *s, struct py_env *e)
{
	char *cand[3];
	size_t n = 0;
	struct stat st;

	if (e->python_version != NULL)
		cand[n++] = xasprintf("%s/bin/python%s", e->prefix,
		    e->python_version);
	cand[n++] = path_join(e->prefix, "bin/python3");
	cand[n++] = path_join(e->prefix, "bin/python");
	for (size_t i = 0; i < n; i++) {
		int rc;

		if (e->python != NULL || sysroot_lstat(s->ctx->sr, cand[i],
		    &st) != 0) {
			free(cand[i]);
			continue;
		}
		rc = sysroot_stat(s->ctx->sr, cand[i], &st);
		if (rc != 0)
			facts_note(s->ctx->facts, cand[i],
			    _("the environment's Python cannot be followed: %s"),
			    sysroot_strerror(rc));
		e->python = cand[i];
	}
}

/* A conda base install holds the conda command and other environments;
 * an environment created by it holds neither. */
static bool
conda_base(struct scan *s, const char *prefix)
{
	char *condabin = path_join(prefix, "condabin");
	char *envs = path_join(prefix, "envs");
	bool base = sysroot_is_dir(s->ctx->sr, condabin) ||
	    sysroot_is_dir(s->ctx->sr, envs);

	free(condabin);
	free(envs);
	return base;
}

static void
describe(struct scan *s, struct py_env *e, bool has_cfg)
{
	if (has_cfg) {
		char *cfg = path_join(e->prefix, "pyvenv.cfg");

		read_pyvenv_cfg(s, e, cfg);
		free(cfg);
	}
	/* The interpreter's name before conda's python record: one path
	 * walk instead of a listing the package probe makes again. */
	if (e->python_version == NULL && e->kind != PYENV_USER)
		e->python_version = version_from_interpreter(s, e->prefix);
	if (e->python_version == NULL && e->kind == PYENV_CONDA)
		e->python_version = version_from_conda_meta(s, e->prefix);
	find_sites(s, e);
	if (e->kind != PYENV_USER)
		find_python(s, e);
	if (e->kind == PYENV_CONDA) {
		char *lib = path_join(e->prefix, "lib");

		if (sysroot_is_dir(s->ctx->sr, lib))
			e->lib_dir = lib;
		else
			free(lib);
		e->name = xstrdup(conda_base(s, e->prefix) ? "base" :
		    path_basename(e->prefix));
	} else if (e->kind != PYENV_SYSTEM && e->kind != PYENV_USER) {
		e->name = xstrdup(path_basename(e->prefix));
	}
}

/* ------------------------------------------------------------ candidates */

/* Whether prefix/name is a directory (or a regular file); *rc, when
 * not NULL, gets the stat's error. */
static bool
has_entry_rc(struct scan *s, const char *prefix, const char *name, bool dir,
    int *rc)
{
	char *p = path_join(prefix, name);
	struct stat st;
	int r = sysroot_stat(s->ctx->sr, p, &st);
	bool yes = r == 0 && (dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));

	if (rc != NULL)
		*rc = r;
	free(p);
	return yes;
}

static bool
has_entry(struct scan *s, const char *prefix, const char *name, bool dir)
{
	return has_entry_rc(s, prefix, name, dir, NULL);
}

/* The kind of environment canon is for a source that wants w, or -1 when
 * it is none the source counts. */
static int
classify(struct scan *s, const char *canon, enum want w, bool has_meta,
    bool has_cfg)
{
	if (has_meta && w != WANT_SYSTEM && w != WANT_USER)
		return PYENV_CONDA;
	switch (w) {
	case WANT_ACTIVE_CONDA:
		return has_cfg ? PYENV_VENV : PYENV_CONDA;
	case WANT_ACTIVE_VENV:
		return PYENV_VENV;
	case WANT_INTERPRETER:
		if (s->pyenv_root != NULL && path_under(canon, s->pyenv_root))
			return PYENV_PYENV;
		return has_cfg ? PYENV_VENV : PYENV_SYSTEM;
	case WANT_CONDA:
		return -1;
	case WANT_VENV:
		if (has_cfg || has_entry(s, canon, "bin/python", false) ||
		    has_entry(s, canon, "bin/python3", false))
			return PYENV_VENV;
		return -1;
	case WANT_PYENV:
		return PYENV_PYENV;
	case WANT_SYSTEM:
		return PYENV_SYSTEM;
	case WANT_USER:
		return PYENV_USER;
	}
	return -1;
}

static void
note_unfollowable(struct scan *s, const char *path, const char *via, int rc)
{
	struct stat st;

	if (rc == ENOENT && sysroot_lstat(s->ctx->sr, path, &st) == 0 &&
	    S_ISLNK(st.st_mode))
		facts_note(s->ctx->facts, path,
		    _("found through %s, but it is a dangling symbolic link"),
		    via);
	else
		facts_note(s->ctx->facts, path,
		    _("found through %s, but it cannot be followed: %s"), via,
		    sysroot_strerror(rc));
}

/*
 * One candidate prefix: canonicalised, merged into the environment it
 * already is, or checked and described as a new one. Returns the
 * environment, or NULL when the path is none (the reason noted when the
 * source named it explicitly).
 */
static struct py_env *
consider(struct scan *s, const char *path, const char *via, enum want w,
    bool active, enum missing quiet)
{
	struct facts *f = s->ctx->facts;
	struct py_env *e;
	char *canon;
	bool has_meta, has_cfg;
	int rc, kind;

	rc = sysroot_realpath(s->ctx->sr, path, &canon);
	if (rc != 0) {
		if (quiet != MISSING_QUIET || !missing(rc))
			note_unfollowable(s, path, via, rc);
		return NULL;
	}
	if (!sysroot_is_dir(s->ctx->sr, canon)) {
		if (quiet == MISSING_NOTE)
			facts_note(f, path,
			    _("found through %s, but it is not a directory"),
			    via);
		free(canon);
		return NULL;
	}
	e = find_env(s, canon);
	if (e != NULL) {
		add_via(e, via);
		e->active |= active;
		/* A pyenv-virtualenv env is a venv that pyenv manages. */
		if (w == WANT_PYENV && e->kind == PYENV_VENV)
			e->kind = PYENV_PYENV;
		free(canon);
		return e;
	}
	has_meta = has_entry_rc(s, canon, "conda-meta", true, &rc);
	if (rc != 0 && !missing(rc)) {
		/* A directory that cannot be searched could be any kind. */
		facts_note(f, path, _("found through %s, but it cannot be "
		    "looked into: %s"), via, sysroot_strerror(rc));
		free(canon);
		return NULL;
	}
	has_cfg = has_entry_rc(s, canon, "pyvenv.cfg", false, &rc);
	if (!has_cfg && rc == 0) {
		/* A FIFO or a directory: never opened (a FIFO would block). */
		char *cfg = path_join(canon, "pyvenv.cfg");

		facts_note(f, cfg, _("not a regular file: the virtual "
		    "environment's settings were not read"));
		free(cfg);
	}
	kind = classify(s, canon, w, has_meta, has_cfg);
	if (kind < 0) {
		if (quiet != MISSING_QUIET && w == WANT_CONDA)
			facts_note(f, path, _("found through %s, but it is no "
			    "conda environment (no conda-meta directory)"),
			    via);
		free(canon);
		return NULL;
	}
	if (f->python_envs.n >= PYENV_MAX_ENVS) {
		s->capped = true;
		s->dropped++;
		free(canon);
		return NULL;
	}
	if (w == WANT_ACTIVE_CONDA && !has_meta)
		facts_note(f, path, _("CONDA_PREFIX names a directory without "
		    "conda-meta: not a conda environment, or a damaged one"));
	e = VEC_PUSH(&f->python_envs);
	e->prefix = canon;
	e->kind = (enum pyenv_kind)kind;
	e->active = active;
	strv_push(&e->found_via, via);
	describe(s, e, has_cfg);
	if ((kind == PYENV_SYSTEM || kind == PYENV_USER) && !active &&
	    e->site_dirs.n == 0) {
		py_env_free(e);
		f->python_envs.n--;
		return NULL;
	}
	return e;
}

/* Every directory under dir as a candidate. */
static void
consider_children(struct scan *s, const char *dir, const char *via,
    enum want w, enum missing quiet)
{
	struct strv names = STRV_INIT;
	int rc = sysroot_list_dir(s->ctx->sr, dir, &names);

	if (rc != 0 && (quiet == MISSING_NOTE || !missing(rc)))
		facts_note(s->ctx->facts, dir,
		    _("cannot list this directory of environments (%s): %s"),
		    via, sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		char *p;

		/* conda's .conda_envs_dir_test, .pkgs and the like. */
		if (names.v[i][0] == '.')
			continue;
		p = path_join(dir, names.v[i]);
		consider(s, p, via, w, false, MISSING_CHILD);
		free(p);
	}
	strv_free(&names);
}

/* ------------------------------------------------------------ the active */

/* The current directory inside the root: PWD, or on the host getcwd(). */
static char *
current_dir(struct probe_ctx *ctx)
{
	const char *pwd = envp_get(ctx->envp, "PWD");
	char buf[PATH_MAX];

	if (is_abs(pwd))
		return xstrdup(pwd);
	if (sysroot_is_host(ctx->sr) && getcwd(buf, sizeof buf) != NULL)
		return xstrdup(buf);
	return NULL;
}

/* The first word of a file pyenv keeps a version name in. */
static char *
read_version_file(struct scan *s, const char *path)
{
	char *data, *w, *v = NULL;
	size_t len;

	if (sysroot_read_file(s->ctx->sr, path, PYENV_VERSION_CAP, &data,
	    &len) != 0)
		return NULL;
	if (memchr(data, '\0', len) == NULL) {
		w = data + strspn(data, " \t\r\n");
		w[strcspn(w, " \t\r\n:")] = '\0';
		if (*w != '\0')
			v = xstrdup(w);
	}
	free(data);
	return v;
}

/* The version a pyenv shim runs, as pyenv chooses it: PYENV_VERSION, a
 * .python-version in the current directory or above, the global version
 * file. NULL when none says. */
static char *
pyenv_shim_version(struct scan *s)
{
	const char *env = envp_get(s->ctx->envp, "PYENV_VERSION");
	char *dir, *v = NULL, *path;

	if (env != NULL && *env != '\0') {
		size_t n = strcspn(env, ":");

		return n > 0 ? xstrndup(env, n) : NULL;
	}
	dir = s->cwd != NULL ? path_normalise(s->cwd) : NULL;
	for (int depth = 0; dir != NULL && v == NULL &&
	    depth < PYENV_VERSION_DEPTH; depth++) {
		char *up;

		path = path_join(dir, ".python-version");
		v = read_version_file(s, path);
		free(path);
		if (strcmp(dir, "/") == 0)
			break;
		up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	if (v == NULL) {
		path = path_join(s->pyenv_root, "version");
		v = read_version_file(s, path);
		free(path);
	}
	return v;
}

static bool
executable_file(struct scan *s, const char *path)
{
	struct stat st;

	return sysroot_stat(s->ctx->sr, path, &st) == 0 &&
	    S_ISREG(st.st_mode) && (st.st_mode & 0111) != 0;
}

/*
 * The prefix a python found on PATH belongs to, the way the interpreter
 * finds it: a pyvenv.cfg beside or above its directory makes it a venv
 * (links not followed); otherwise its real file's bin directory's parent.
 * A pyenv shim stands for the version pyenv would run. Returns false when
 * the hit should be passed over (a shim for the system Python).
 */
static bool
interpreter_prefix(struct scan *s, const char *dir, const char *exe,
    char **prefix)
{
	char *up = path_dirname(dir), *cfg = path_join(up, "pyvenv.cfg"), *real;
	struct stat st;
	int rc;

	if (sysroot_stat(s->ctx->sr, cfg, &st) == 0 && S_ISREG(st.st_mode)) {
		free(cfg);
		*prefix = up;
		return true;
	}
	free(cfg);
	free(up);
	rc = sysroot_realpath(s->ctx->sr, exe, &real);
	if (rc != 0) {
		note_unfollowable(s, exe, "PATH", rc);
		return false;
	}
	if (s->pyenv_root != NULL) {
		char *shims = path_join(s->pyenv_root, "shims");
		bool shim = path_under(real, shims);

		free(shims);
		if (shim) {
			char *v = pyenv_shim_version(s);

			free(real);
			if (v == NULL || strcmp(v, "system") == 0 ||
			    strchr(v, '/') != NULL) {
				free(v);
				return false;
			}
			*prefix = xasprintf("%s/versions/%s", s->pyenv_root, v);
			free(v);
			return true;
		}
	}
	up = path_dirname(real);
	*prefix = path_dirname(up);
	free(up);
	free(real);
	return true;
}

/* The first python3 on PATH (then python), as a shell would run it. */
static void
consider_path_python(struct scan *s)
{
	const struct path_var *pv = &s->ctx->facts->env.path;
	static const char *const names[] = { "python3", "python" };

	if (!pv->set)
		return;
	for (size_t k = 0; k < 2; k++) {
		for (size_t i = 0; i < pv->entries.n; i++) {
			const struct path_entry *pe = &pv->entries.v[i];
			char *dir, *exe, *prefix;
			bool use;

			if (pe->duplicate_of >= 0)
				continue;
			/* An empty entry is the current directory. */
			if (pe->empty || !is_abs(pe->value)) {
				if (s->cwd == NULL)
					continue;
				exe = pe->empty ? xstrdup(s->cwd) :
				    path_join(s->cwd, pe->value);
			} else {
				if (pe->exists == 0)
					continue;
				exe = xstrdup(pe->value);
			}
			/* "/venv/bin/" must have /venv as its parent. */
			dir = path_normalise(exe);
			free(exe);
			exe = path_join(dir, names[k]);
			if (!executable_file(s, exe)) {
				free(exe);
				free(dir);
				continue;
			}
			use = interpreter_prefix(s, dir, exe, &prefix);
			free(exe);
			free(dir);
			if (!use)
				continue;
			consider(s, prefix, "PATH", WANT_INTERPRETER, true,
			    MISSING_NOTE);
			free(prefix);
			return;
		}
	}
}

static void
consider_var(struct scan *s, const char *name, enum want w)
{
	const char *v = envp_get(s->ctx->envp, name);

	if (v == NULL || *v == '\0')
		return;
	if (!is_abs(v)) {
		facts_note(s->ctx->facts, name,
		    _("%s is not an absolute path: %s"), name, v);
		return;
	}
	consider(s, v, name, w, true, MISSING_NOTE);
}

/* ----------------------------------------------------------------- conda */

/*
 * ~/.conda/environments.txt: conda appends every prefix it creates and
 * prunes missing ones only when it runs, so stale entries are normal.
 * Blank lines, comments, CRLF endings and leading blanks are allowed;
 * a line that is not an absolute path, holds a NUL byte or is longer than
 * a path can be is noted and passed over.
 */
static void
read_environments_txt(struct scan *s)
{
	struct facts *f = s->ctx->facts;
	char *path = path_join(s->home, ".conda/environments.txt");
	char *data;
	size_t len, pos = 0, lineno = 0;
	int rc = sysroot_read_file(s->ctx->sr, path, ENVS_TXT_CAP, &data, &len);

	if (rc != 0) {
		if (!missing(rc))
			facts_note(f, path, _("cannot read conda's list of "
			    "environments: %s"), sysroot_strerror(rc));
		free(path);
		return;
	}
	while (pos < len) {
		const char *line = data + pos, *nl;
		size_t n;
		char *entry, *t;

		nl = memchr(line, '\n', len - pos);
		n = nl != NULL ? (size_t)(nl - line) : len - pos;
		pos += n + 1;
		if (++lineno > ENVS_TXT_MAX_LINES) {
			facts_note(f, path, _("more than %d lines: the rest "
			    "were not read"), ENVS_TXT_MAX_LINES);
			break;
		}
		if (memchr(line, '\0', n) != NULL) {
			facts_note(f, path, _("line %zu holds a NUL byte: "
			    "passed over"), lineno);
			continue;
		}
		if (n >= PATH_MAX) {
			facts_note(f, path, _("line %zu is longer than any "
			    "path (%zu bytes): passed over"), lineno, n);
			continue;
		}
		entry = xstrndup(line, n);
		t = trim(entry);
		if (*t != '\0' && *t != '#') {
			if (!is_abs(t))
				facts_note(f, path, _("line %zu is not an "
				    "absolute path: %s"), lineno, t);
			else
				consider(s, t, "environments.txt", WANT_CONDA,
				    false, MISSING_NOTE);
		}
		free(entry);
	}
	free(data);
	free(path);
}

/* A base install (itself an environment when it holds conda-meta/) and
 * the environments under its envs/. */
static void
consider_install(struct scan *s, const char *base, const char *via,
    const char *envs_via, enum missing quiet)
{
	char *envs;

	if (quiet == MISSING_QUIET && !sysroot_exists(s->ctx->sr, base))
		return;
	consider(s, base, via, WANT_CONDA, false, MISSING_QUIET);
	envs = path_join(base, "envs");
	consider_children(s, envs, envs_via, WANT_CONDA, MISSING_QUIET);
	free(envs);
}

static void
consider_conda(struct scan *s)
{
	const char *v;

	if (s->home != NULL)
		read_environments_txt(s);
	for (size_t i = 0; s->home != NULL && i < N_CONDA_BASES; i++) {
		char *b = path_join(s->home, conda_bases[i]);

		consider_install(s, b, "conda-base", "conda-envs",
		    MISSING_QUIET);
		free(b);
	}
	/* System-wide: /opt/conda (the Docker images') and /opt/NAME for
	 * every installer's NAME. */
	consider_install(s, "/opt/conda", "conda-base", "conda-envs",
	    MISSING_QUIET);
	for (size_t i = 0; i < N_CONDA_BASES; i++) {
		char *b;

		if (strchr(conda_bases[i], '/') != NULL)
			continue;
		b = path_join("/opt", conda_bases[i]);
		consider_install(s, b, "conda-base", "conda-envs",
		    MISSING_QUIET);
		free(b);
	}

	v = envp_get(s->ctx->envp, "CONDA_ENVS_PATH");
	if (v != NULL && *v != '\0') {
		struct strv dirs = STRV_INIT;

		strv_split(&dirs, v, ":");
		for (size_t i = 0; i < dirs.n; i++) {
			if (dirs.v[i][0] == '\0')
				continue;
			if (!is_abs(dirs.v[i]))
				facts_note(s->ctx->facts, "CONDA_ENVS_PATH",
				    _("%s is not an absolute path: %s"),
				    "CONDA_ENVS_PATH", dirs.v[i]);
			else
				consider_children(s, dirs.v[i],
				    "CONDA_ENVS_PATH", WANT_CONDA,
				    MISSING_NOTE);
		}
		strv_free(&dirs);
	}

	v = envp_get(s->ctx->envp, "MAMBA_ROOT_PREFIX");
	if (v != NULL && *v != '\0') {
		if (!is_abs(v))
			facts_note(s->ctx->facts, "MAMBA_ROOT_PREFIX",
			    _("%s is not an absolute path: %s"),
			    "MAMBA_ROOT_PREFIX", v);
		else if (!sysroot_is_dir(s->ctx->sr, v))
			facts_note(s->ctx->facts, v, _("MAMBA_ROOT_PREFIX "
			    "names no directory"));
		else
			consider_install(s, v, "MAMBA_ROOT_PREFIX",
			    "MAMBA_ROOT_PREFIX", MISSING_NOTE);
	}

	/* conda's own install, wherever it is: CONDA_EXE is
	 * BASE/bin/conda (or BASE/condabin/conda) once conda is set up. */
	v = envp_get(s->ctx->envp, "CONDA_EXE");
	if (is_abs(v)) {
		char *bin = path_dirname(v), *base = path_dirname(bin);

		consider_install(s, base, "CONDA_EXE", "CONDA_EXE",
		    MISSING_QUIET);
		free(base);
		free(bin);
	}
}

/* ------------------------------------------------------------ the others */

static void
consider_venvs(struct scan *s)
{
	const char *v = envp_get(s->ctx->envp, "WORKON_HOME");

	if (s->home != NULL) {
		char *d = path_join(s->home, ".virtualenvs");

		consider_children(s, d, "virtualenvs", WANT_VENV,
		    MISSING_QUIET);
		free(d);
	}
	if (v != NULL && *v != '\0') {
		if (is_abs(v))
			consider_children(s, v, "WORKON_HOME", WANT_VENV,
			    MISSING_NOTE);
		else
			facts_note(s->ctx->facts, "WORKON_HOME",
			    _("%s is not an absolute path: %s"),
			    "WORKON_HOME", v);
	}
	if (s->cwd != NULL) {
		char *d = path_join(s->cwd, ".venv");
		struct stat st;

		if (sysroot_lstat(s->ctx->sr, d, &st) == 0)
			consider(s, d, ".venv", WANT_VENV, false,
			    MISSING_NOTE);
		free(d);
	}
}

static void
consider_pyenv(struct scan *s)
{
	struct strv names = STRV_INIT;
	char *versions;
	int rc;

	if (s->pyenv_root == NULL)
		return;
	versions = path_join(s->pyenv_root, "versions");
	rc = sysroot_list_dir(s->ctx->sr, versions, &names);
	if (rc != 0 && !missing(rc))
		facts_note(s->ctx->facts, versions,
		    _("cannot list pyenv's versions: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		char *p = path_join(versions, names.v[i]), *envs;

		consider(s, p, "pyenv", WANT_PYENV, false, MISSING_NOTE);
		/* pyenv-virtualenv's envs live under their version. */
		envs = path_join(p, "envs");
		consider_children(s, envs, "pyenv", WANT_PYENV, MISSING_QUIET);
		free(envs);
		free(p);
	}
	strv_free(&names);
	free(versions);
}

/* PYENV_ROOT, else ~/.pyenv, canonical; NULL when there is none. */
static char *
find_pyenv_root(struct scan *s)
{
	const char *v = envp_get(s->ctx->envp, "PYENV_ROOT");
	char *dir, *real = NULL;
	int rc;

	if (v != NULL && *v != '\0') {
		if (!is_abs(v)) {
			facts_note(s->ctx->facts, "PYENV_ROOT",
			    _("%s is not an absolute path: %s"), "PYENV_ROOT",
			    v);
			return NULL;
		}
		rc = sysroot_realpath(s->ctx->sr, v, &real);
		if (rc != 0)
			note_unfollowable(s, v, "PYENV_ROOT", rc);
		return real;
	}
	if (s->home == NULL)
		return NULL;
	dir = path_join(s->home, ".pyenv");
	rc = sysroot_realpath(s->ctx->sr, dir, &real);
	if (rc != 0 && !missing(rc))
		note_unfollowable(s, dir, "pyenv", rc);
	free(dir);
	return rc == 0 ? real : NULL;
}

/* A home directory that holds one of the places looked in under HOME;
 * NULL when none does. */
static char *
home_with_envs(struct scan *s, const char *home)
{
	static const char *const places[] = {
		".conda", ".virtualenvs", ".pyenv", ".local/lib",
	};

	for (size_t i = 0; i < N_CONDA_BASES + sizeof places / sizeof *places;
	    i++) {
		char *p = path_join(home, i < N_CONDA_BASES ? conda_bases[i] :
		    places[i - N_CONDA_BASES]);
		bool there = sysroot_is_dir(s->ctx->sr, p);

		free(p);
		if (there)
			return xstrdup(home);
	}
	return NULL;
}

/*
 * Without HOME (a cron job, a service, a fixture tree) the home-based
 * sources are skipped. That is worth a note only when it hides
 * something: a home directory, /root or one under /home, that holds
 * one of them.
 */
static void
note_unset_home(struct scan *s)
{
	struct strv names = STRV_INIT;
	char *hit = home_with_envs(s, "/root");

	if (hit == NULL && sysroot_list_dir(s->ctx->sr, "/home", &names) == 0)
		for (size_t i = 0; i < names.n && i < HOME_DIRS_MAX &&
		    hit == NULL; i++) {
			char *h = path_join("/home", names.v[i]);

			hit = home_with_envs(s, h);
			free(h);
		}
	if (hit != NULL)
		facts_note(s->ctx->facts, "HOME", _("not set: the environments "
		    "under %s were not looked for"), hit);
	free(hit);
	strv_free(&names);
}

void
probe_python_envs(struct probe_ctx *ctx)
{
	struct scan s = { .ctx = ctx };
	const char *home = envp_get(ctx->envp, "HOME");

	if (is_abs(home))
		s.home = home;
	else if (home != NULL && *home != '\0')
		facts_note(ctx->facts, "HOME", _("not an absolute path (%s): "
		    "the environments under the home directory were not "
		    "looked for"), home);
	else
		note_unset_home(&s);
	s.cwd = current_dir(ctx);
	s.pyenv_root = find_pyenv_root(&s);

	consider_var(&s, "CONDA_PREFIX", WANT_ACTIVE_CONDA);
	consider_var(&s, "VIRTUAL_ENV", WANT_ACTIVE_VENV);
	consider_path_python(&s);
	consider_conda(&s);
	consider_venvs(&s);
	consider_pyenv(&s);
	consider(&s, "/usr", "system", WANT_SYSTEM, false, MISSING_QUIET);
	consider(&s, "/usr/local", "system", WANT_SYSTEM, false, MISSING_QUIET);
	if (s.home != NULL) {
		char *local = path_join(s.home, ".local");

		consider(&s, local, "user", WANT_USER, false, MISSING_QUIET);
		free(local);
	}
	if (s.capped)
		facts_note(ctx->facts, "python_envs", _("more than %d Python "
		    "environments: %zu more were not looked into"),
		    PYENV_MAX_ENVS, s.dropped);
	fact_set(&ctx->facts->python_state, "probed", NULL);
	free(s.cwd);
	free(s.pyenv_root);
}
