/* Which libraries to verify, from doctor's facts: the libcuda the loader
 * resolves, every libcudart (each toolkit's, each pip wheel's, and each
 * one a framework's process loads: a conda environment's lib/), and every
 * cuDNN with a cudart of its CUDA major. A file reached by two ways is
 * verified once.
 *
 * Loading a library runs its constructors, so only what the user would
 * load anyway is loaded: the loader's own answer, a system location, the
 * active environment or the one verify --env names — and none of them
 * from a tree another user can write (util/trustpath.h). The rest is
 * listed as not loaded, with the reason. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "util/pathnorm.h"
#include "util/trustpath.h"
#include "util/xalloc.h"
#include "verify/plan.h"

/* Where a system's own libraries live: what the distribution's packages,
 * NVIDIA's installers (/usr/local/cuda*) and vendors' packages (/opt)
 * install, all of it root's to write. A Python environment below them
 * (a conda under /opt) is still an environment. */
static const char *const system_dirs[] = {
	"/usr", "/opt", "/lib", "/lib32", "/lib64", "/libx32",
};

/* The loader's search steps that come from the process environment and
 * the system's configuration (not a framework's RPATH). */
static const enum step_source loader_vias[] = {
	STEP_LD_LIBRARY_PATH, STEP_CACHE, STEP_DEFAULT,
};

static char *
real_or_copy(const char *path)
{
	char *r = realpath(path, NULL);

	return r != NULL ? r : xstrdup(path);
}

static bool
in_list(const struct verify_run *v, size_t n, enum verify_kind kind,
    const char *want)
{
	bool seen = false;

	for (size_t i = 0; i < n && !seen; i++) {
		char *have;

		if (v[i].kind != kind)
			continue;
		have = real_or_copy(v[i].lib);
		seen = strcmp(have, want) == 0;
		free(have);
	}
	return seen;
}

/* A file already run is not run again, nor listed as not loaded; one
 * already listed as not loaded may still be run when it is reached
 * another way that allows it (a system copy an environment links to). */
static bool
planned(const struct verify_facts *vf, enum verify_kind kind, const char *lib,
    bool loading)
{
	char *want = real_or_copy(lib);
	bool seen = in_list(vf->runs.v, vf->runs.n, kind, want) ||
	    (!loading && in_list(vf->not_loaded.v, vf->not_loaded.n, kind,
	    want));

	free(want);
	return seen;
}

static bool
system_location(const char *path)
{
	for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; i++)
		if (path_under(path, system_dirs[i]))
			return true;
	return false;
}

/* The Python environment path lies in (the innermost: a conda env under
 * a base install), leaving out the system's Python, whose files are the
 * system's; NULL for none. */
static const struct py_env *
env_of(const struct facts *f, const char *path)
{
	const struct py_env *best = NULL;

	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		if (e->prefix == NULL || e->kind == PYENV_SYSTEM ||
		    !path_under(path, e->prefix))
			continue;
		if (best == NULL || strlen(e->prefix) > strlen(best->prefix))
			best = e;
	}
	return best;
}

/* The environment is the active one (the probe's one fact: VIRTUAL_ENV,
 * CONDA_PREFIX, or the python3 PATH runs) or lies under --env. */
static bool
env_allowed(const struct verify_trust *t, const struct py_env *e)
{
	return e->active ||
	    (t->named != NULL && path_under(e->prefix, t->named));
}

/* What the dynamic loader itself answers for one of the sonames: the
 * same file, reached through the same directory (a link to it from an
 * environment's lib/ would make the helper's LD_LIBRARY_PATH that
 * directory, and the library's own dependencies come from there). */
static bool
loader_answer(const struct facts *f, const char *real, const char *realdir)
{
	for (size_t i = 0; i < f->libraries.n; i++) {
		const struct lib_fact *l = &f->libraries.v[i];
		bool via = false;
		char *have;

		for (size_t j = 0; j < sizeof loader_vias / sizeof loader_vias[0]; j++)
			via |= l->via == loader_vias[j];
		if (!via || l->resolved == NULL)
			continue;
		have = real_or_copy(l->resolved);
		via = strcmp(have, real) == 0;
		free(have);
		if (via) {
			char *dir = path_dirname(l->resolved);

			have = real_or_copy(dir);
			via = strcmp(have, realdir) == 0;
			free(have);
			free(dir);
		}
		if (via)
			return true;
	}
	return false;
}

/* Why lib may not be loaded by where it lies, judged on the path as
 * given, its real path and its directory's (what LD_LIBRARY_PATH will
 * name); NULL when it may. */
static char *
place_refusal(const struct facts *f, const struct verify_trust *t,
    const char *lib, const char *owner)
{
	char *dir = path_dirname(lib);
	char *paths[3] = { path_normalise(lib), real_or_copy(lib),
	    real_or_copy(dir) };
	bool elsewhere = false, loader = loader_answer(f, paths[1], paths[2]);
	char *why = NULL;

	for (size_t i = 0; i < 3 && why == NULL; i++) {
		const struct py_env *e = env_of(f, paths[i]);

		if (e != NULL && !env_allowed(t, e) && !loader)
			why = xasprintf(_("not the active environment; run "
			    "`cudawiz verify --env %s` to load it"), e->prefix);
		else if (e == NULL && !system_location(paths[i]) &&
		    (t->named == NULL || !path_under(paths[i], t->named)))
			elsewhere = true;
	}
	if (why == NULL && elsewhere && !loader)
		why = xasprintf(_("not in a system location, the active "
		    "environment or the loader's answer; run `cudawiz verify "
		    "--env %s` to load it"), owner != NULL ? owner : dir);
	for (size_t i = 0; i < 3; i++)
		free(paths[i]);
	free(dir);
	return why;
}

/* Why lib may not be loaded; NULL when it may. A bare soname is the
 * system loader's to find (the helper gets no LD_LIBRARY_PATH then). */
static char *
refusal(const struct facts *f, const struct verify_trust *t,
    const char *lib, const char *owner)
{
	struct trustpath_why tw;
	char *why;

	if (t == NULL || strchr(lib, '/') == NULL)
		return NULL;
	why = place_refusal(f, t, lib, owner);
	if (why != NULL)
		return why;
	if (!trustpath_check(lib, t->uids, t->nuids, &tw)) {
		why = trustpath_words(&tw);
		trustpath_why_free(&tw);
	}
	return why;
}

static struct verify_run *
add_run(const struct facts *f, const struct verify_trust *t,
    struct verify_facts *vf, enum verify_kind kind, const char *lib,
    const char *where, const char *owner, const char *owner_name)
{
	struct verify_run *r;
	char *why;

	why = refusal(f, t, lib, owner);
	if (planned(vf, kind, lib, why == NULL)) {
		free(why);
		return NULL;
	}
	r = why != NULL ? VEC_PUSH(&vf->not_loaded) : VEC_PUSH(&vf->runs);
	r->not_loaded_why = why;
	r->kind = kind;
	r->lib = xstrdup(lib);
	r->where = xstrdup(where);
	r->owner = owner != NULL ? xstrdup(owner) :
	    strchr(lib, '/') != NULL ? path_dirname(lib) : NULL;
	r->owner_name = owner_name != NULL ? xstrdup(owner_name) : NULL;
	r->last_step_device = -1;
	return r;
}

static const struct lib_fact *
library(const struct facts *f, const char *soname)
{
	for (size_t i = 0; i < f->libraries.n; i++)
		if (strcmp(f->libraries.v[i].soname, soname) == 0)
			return &f->libraries.v[i];
	return NULL;
}

static void
plan_toolkit_runtimes(const struct facts *f,
    const struct verify_trust *trust, struct verify_facts *vf)
{
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		for (size_t j = 0; j < t->cudart.n; j++) {
			const struct cudart_dir *c = &t->cudart.v[j];
			char *lib;

			if (c->dir == NULL || (c->soname == NULL && c->file == NULL))
				continue;
			lib = path_join(c->dir,
			    c->soname != NULL ? c->soname : c->file);
			add_run(f, trust, vf, VERIFY_RUNTIME, lib,
			    t->layout == TOOLKIT_LAYOUT_PIP ? "wheel" : "toolkit",
			    t->root, NULL);
			free(lib);
		}
	}
}

static const char *
env_where(const struct py_env *e, const struct fw_need *n)
{
	if (n->from == FW_FROM_WHEEL)
		return "wheel";
	if (e->kind == PYENV_CONDA)
		return "conda";
	return "system";
}

/* What the frameworks' processes load: a conda environment's own cudart
 * is found only this way (it is no toolkit). */
static void
plan_framework_runtimes(const struct facts *f, const struct verify_trust *t,
    struct verify_facts *vf)
{
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];

			for (size_t k = 0; k < fw->needs.n; k++) {
				const struct fw_need *n = &fw->needs.v[k];

				if (n->soname == NULL || n->lib == NULL ||
				    n->lib->resolved == NULL ||
				    strncmp(n->soname, "libcudart.so", 12) != 0)
					continue;
				add_run(f, t, vf, VERIFY_RUNTIME, n->lib->resolved,
				    env_where(e, n), e->prefix, e->name);
			}
		}
	}
}

/* 12 of libcudart.so.12, 11 of libcudart.so.11.0; 0 when not said. */
static unsigned
soname_major(const char *path)
{
	const char *p = strstr(path, ".so.");

	return p != NULL ? (unsigned)strtoul(p + 4, NULL, 10) : 0;
}

static unsigned
cudart_major(const struct verify_run *r)
{
	const char *base = strrchr(r->lib, '/');

	return soname_major(base != NULL ? base + 1 : r->lib);
}

/* The cudart that goes with a cuDNN: of its CUDA major when that is
 * known; nearest first (the same directory, then the same parent: the
 * nvidia/ of a site-packages, a toolkit's lib64 and targets). */
static const char *
match_cudart(const struct verify_facts *vf, const struct cudnn_fact *d)
{
	unsigned want = fact_known(&d->cuda_major) ?
	    (unsigned)strtoul(d->cuda_major.value, NULL, 10) : 0;
	const char *best = NULL;
	int best_score = -1;
	char *dparent = path_dirname(d->lib_dir);
	char *dgrand = path_dirname(dparent);

	for (size_t i = 0; i < vf->runs.n; i++) {
		const struct verify_run *r = &vf->runs.v[i];
		char *dir, *parent, *grand;
		int score = 0;

		if (r->kind != VERIFY_RUNTIME)
			continue;
		if (want != 0 && cudart_major(r) != want)
			continue;
		dir = path_dirname(r->lib);
		parent = path_dirname(dir);
		grand = path_dirname(parent);
		if (path_same(dir, d->lib_dir))
			score = 3;
		else if (path_same(grand, dgrand))
			score = 2;
		else if (path_same(parent, dparent))
			score = 2;
		else
			score = cudart_major(r) > 0 ? 1 : 0;
		if (score > best_score || (score == best_score && best != NULL &&
		    cudart_major(r) > soname_major(best))) {
			best = r->lib;
			best_score = score;
		}
		free(dir);
		free(parent);
		free(grand);
	}
	free(dparent);
	free(dgrand);
	return best;
}

static void
plan_cudnn(const struct facts *f, const struct verify_trust *t,
    struct verify_facts *vf)
{
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *d = &f->cudnn.v[i];
		const char *name = d->soname;
		const char *cudart;
		struct verify_run *r;
		char *lib;

		if (name == NULL && d->libraries.n > 0)
			name = d->libraries.v[0];
		if (d->lib_dir == NULL || name == NULL)
			continue;
		lib = path_join(d->lib_dir, name);
		cudart = match_cudart(vf, d);
		/* match_cudart points into vf->runs, which add_run grows. */
		cudart = cudart != NULL ? xstrdup(cudart) : NULL;
		r = add_run(f, t, vf, VERIFY_CUDNN, lib,
		    d->where != NULL ? d->where : "system", NULL, NULL);
		if (r != NULL)
			r->cudart = (char *)cudart;
		else
			free((char *)cudart);
		free(lib);
	}
}

void
verify_plan(const struct facts *f, const struct verify_trust *t,
    struct verify_facts *vf)
{
	const struct lib_fact *cuda = library(f, "libcuda.so.1");

	add_run(f, t, vf, VERIFY_DRIVER, cuda != NULL && cuda->resolved != NULL ?
	    cuda->resolved : "libcuda.so.1", "driver", NULL, NULL);
	plan_toolkit_runtimes(f, t, vf);
	plan_framework_runtimes(f, t, vf);
	plan_cudnn(f, t, vf);
}
