/* Where a framework expects each of its needs to come from, and
 * whether the copy it gets shadows that one.
 *
 * The expected place is the first directory of the requester's own
 * search list (its DT_RUNPATH; else its DT_RPATH and the program's) that
 * is one of the framework's: an nvidia-* wheel's lib dir in the
 * environment's site-packages, the framework's own directory, the conda
 * env's lib/. Where none of those holds the file: an entry into the
 * wheel that should provide it, the installed wheel that provides it
 * (tensorflow[and-cuda]), the conda env's lib/ that holds it; else
 * anywhere. A need that loads from another directory while the
 * expected copy is there, and no step passed over that copy, is
 * shadowed by the step that won. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probe/fwint.h"
#include "util/pathnorm.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A directory as one spelling: the real path when it exists, else the
 * path with "." and ".." taken out textually. */
char *
fw_canon_dir(struct fw_run *run, const char *dir)
{
	char *real = NULL;
	struct strv parts = STRV_INIT, keep = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (sysroot_realpath(run->ctx->sr, dir, &real) == 0)
		return real;
	strv_split(&parts, dir, "/");
	for (size_t i = 0; i < parts.n; i++) {
		const char *p = parts.v[i];

		if (p[0] == '\0' || strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			if (keep.n > 0)
				free(keep.v[--keep.n]);
			continue;
		}
		strv_push(&keep, p);
	}
	for (size_t i = 0; i < keep.n; i++) {
		strbuf_putc(&sb, '/');
		strbuf_puts(&sb, keep.v[i]);
	}
	if (keep.n == 0)
		strbuf_putc(&sb, '/');
	strv_free(&parts);
	strv_free(&keep);
	return strbuf_take(&sb);
}

static bool
file_in(struct fw_run *run, const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	struct stat st;
	bool yes = sysroot_stat(run->ctx->sr, p, &st) == 0 &&
	    S_ISREG(st.st_mode);

	free(p);
	return yes;
}

static void
expand_list(struct fw_run *run, const char *list, const char *owner,
    struct strv *out)
{
	struct strv parts = STRV_INIT;
	char *origin;

	if (list == NULL || owner == NULL)
		return;
	origin = path_dirname(owner);
	strv_split(&parts, list, ":");
	for (size_t i = 0; i < parts.n; i++) {
		struct strbuf sb = STRBUF_INIT;
		const char *p = parts.v[i];
		char *dir;

		while (*p != '\0') {
			if (strncmp(p, "$ORIGIN", 7) == 0) {
				strbuf_puts(&sb, origin);
				p += 7;
			} else if (strncmp(p, "${ORIGIN}", 9) == 0) {
				strbuf_puts(&sb, origin);
				p += 9;
			} else {
				strbuf_putc(&sb, *p++);
			}
		}
		dir = strbuf_take(&sb);
		/* $LIB and $PLATFORM never point into a Python env. */
		if (dir[0] == '/' && strchr(dir, '$') == NULL)
			strv_push_owned(out, fw_canon_dir(run, dir));
		free(dir);
	}
	strv_free(&parts);
	free(origin);
}

static void
search_entries(struct fw_run *run, const struct searcher *req,
    const struct searcher *prog, struct strv *out)
{
	if (req != NULL && req->path != NULL && req->runpath != NULL) {
		expand_list(run, req->runpath, req->path, out);
		return;
	}
	if (req != NULL && req->path != NULL)
		expand_list(run, req->rpath, req->path, out);
	if (prog != NULL && prog->path != NULL) {
		if (req != NULL && req->path == NULL && prog->runpath != NULL)
			expand_list(run, prog->runpath, prog->path, out);
		else
			expand_list(run, prog->rpath, prog->path, out);
	}
}

/* The wheel whose lib dir is rel (relative to a site dir) and which
 * provides soname: the installed one first, else one named the way
 * NVIDIA names them ("nvidia/cuda_runtime/lib": nvidia-cuda-runtime-cuNN). */
static const struct matrix_wheel *
wheel_for(struct fw_run *run, const struct py_env *env, const char *rel,
    const char *soname)
{
	const struct matrix *m = fw_matrix(run);
	static const char *const suffixes[] = { "-cu12", "-cu11", "-cu13", "" };
	const char *x, *slash;
	char *stem;
	const struct matrix_wheel *hit = NULL;

	/* The installed wheel of that dir that provides the name, else the
	 * installed one that owns the dir (another version of it: cuDNN 8
	 * in nvidia-cudnn-cu12 8.9, where the matrix lists cuDNN 9). */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < env->packages.n; i++) {
			const struct py_package *p = &env->packages.v[i];
			const struct matrix_wheel *w;

			if (p->name == NULL ||
			    strncmp(p->name, "nvidia", 6) != 0 ||
			    (w = matrix_wheel(m, p->name)) == NULL ||
			    strcmp(w->lib_dir, rel) != 0)
				continue;
			if (pass == 1 || soname == NULL ||
			    strv_contains(&w->provides, soname))
				return w;
		}
	if (strncmp(rel, "nvidia/", 7) != 0)
		return NULL;
	x = rel + 7;
	slash = strchr(x, '/');
	if (slash == NULL)
		return NULL;
	stem = xasprintf("nvidia-%.*s", (int)(slash - x), x);
	for (char *c = stem; *c != '\0'; c++)
		if (*c == '_')
			*c = '-';
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes &&
	    hit == NULL; i++) {
		char *name = xasprintf("%s%s", stem, suffixes[i]);
		const struct matrix_wheel *w = matrix_wheel(m, name);

		if (w != NULL && strcmp(w->lib_dir, rel) == 0 &&
		    soname != NULL && strv_contains(&w->provides, soname))
			hit = w;
		free(name);
	}
	free(stem);
	return hit;
}

/* What kind of place dir is for the framework; FW_FROM_ANY: none of
 * ours. *wheel gets the wheel of a wheel dir, when known. */
static enum fw_need_from
classify_dir(struct needs_run *nr, const char *dir, const char *soname,
    const struct matrix_wheel **wheel)
{
	*wheel = NULL;
	for (size_t i = 0; i < nr->sites.n; i++) {
		const char *site = nr->sites.v[i];
		size_t sl = strlen(site);

		if (path_under(dir, site) && strlen(dir) > sl &&
		    path_under(dir + sl, "/nvidia")) {
			*wheel = wheel_for(nr->run, nr->env, dir + sl + 1,
			    soname);
			return FW_FROM_WHEEL;
		}
	}
	if (nr->own_dir != NULL && path_under(dir, nr->own_dir))
		return FW_FROM_BUNDLED;
	if (nr->lib_dir != NULL && strcmp(nr->lib_dir, dir) == 0)
		return FW_FROM_CONDA;
	return FW_FROM_ANY;
}

static void
set_expected(struct fw_need *n, enum fw_need_from from, const char *dir,
    const char *pkg)
{
	n->from = from;
	n->expected_dir = dir != NULL ? xstrdup(dir) : NULL;
	n->expected_pkg = pkg != NULL ? xstrdup(pkg) : NULL;
}

void
fw_find_expected(struct needs_run *nr, const struct searcher *req,
    struct fw_need *n)
{
	struct fw_run *run = nr->run;
	const struct py_env *env = nr->env;
	const struct matrix *m = fw_matrix(run);
	struct strv entries = STRV_INIT;
	const struct matrix_wheel *w;

	search_entries(run, req, &nr->prog, &entries);
	/* The first entry of ours that holds the file: the copy the
	 * framework was built to load. */
	for (size_t i = 0; i < entries.n; i++) {
		enum fw_need_from from = classify_dir(nr, entries.v[i],
		    n->soname, &w);

		if (from != FW_FROM_ANY && file_in(run, entries.v[i],
		    n->soname)) {
			set_expected(n, from, entries.v[i],
			    w != NULL ? w->package : NULL);
			goto out;
		}
	}
	/* An entry into the wheel that should provide it, which is gone. */
	for (size_t i = 0; i < entries.n; i++) {
		enum fw_need_from from = classify_dir(nr, entries.v[i],
		    n->soname, &w);

		if (from == FW_FROM_WHEEL && w != NULL &&
		    strv_contains(&w->provides, n->soname)) {
			set_expected(n, from, entries.v[i], w->package);
			goto out;
		}
	}
	/* A wheel installed for it (tensorflow[and-cuda]). */
	for (size_t i = 0; i < env->packages.n; i++) {
		const struct py_package *p = &env->packages.v[i];
		const char *site = p->site != NULL ? p->site :
		    env->site_dirs.n > 0 ? env->site_dirs.v[0] : NULL;
		char *d, *c;

		if (p->name == NULL || site == NULL ||
		    strncmp(p->name, "nvidia", 6) != 0 ||
		    (w = matrix_wheel(m, p->name)) == NULL ||
		    !strv_contains(&w->provides, n->soname))
			continue;
		d = path_join(site, w->lib_dir);
		c = fw_canon_dir(run, d);
		set_expected(n, FW_FROM_WHEEL, c, w->package);
		free(c);
		free(d);
		goto out;
	}
	if (nr->lib_dir != NULL && file_in(run, nr->lib_dir, n->soname)) {
		set_expected(n, FW_FROM_CONDA, nr->lib_dir, NULL);
		goto out;
	}
	n->from = FW_FROM_ANY;
out:
	strv_free(&entries);
}

/* Resolved elsewhere while the expected copy is there and no step
 * passed over it: whatever step won came first. */
void
fw_find_shadow(struct fw_run *run, struct fw_need *n)
{
	const struct lib_fact *l = n->lib;
	char *dir, *cdir;

	if (n->expected_dir == NULL || l == NULL || l->resolved == NULL ||
	    l->via == STEP_NONE || !file_in(run, n->expected_dir, n->soname))
		return;
	dir = path_dirname(l->resolved);
	cdir = fw_canon_dir(run, dir);
	free(dir);
	if (strcmp(cdir, n->expected_dir) != 0) {
		bool passed = false;

		for (size_t i = 0; i < l->steps.n; i++) {
			const struct resolve_step *s = &l->steps.v[i];
			char *sd;

			if (s->dir == NULL || (s->result != STEP_SKIPPED &&
			    s->result != STEP_FATAL))
				continue;
			sd = fw_canon_dir(run, s->dir);
			passed |= strcmp(sd, n->expected_dir) == 0;
			free(sd);
		}
		if (!passed)
			n->shadowed_via = l->via;
	}
	free(cdir);
}
