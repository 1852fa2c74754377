/* Which libraries to verify, from doctor's facts: the libcuda the loader
 * resolves, every libcudart (each toolkit's, each pip wheel's, and each
 * one a framework's process loads: a conda environment's lib/), and every
 * cuDNN with a cudart of its CUDA major. A file reached by two ways is
 * verified once. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/pathnorm.h"
#include "util/xalloc.h"
#include "verify/plan.h"

static char *
real_or_copy(const char *path)
{
	char *r = realpath(path, NULL);

	return r != NULL ? r : xstrdup(path);
}

static bool
planned(const struct verify_facts *vf, enum verify_kind kind, const char *lib)
{
	char *want = real_or_copy(lib);
	bool seen = false;

	for (size_t i = 0; i < vf->runs.n && !seen; i++) {
		char *have;

		if (vf->runs.v[i].kind != kind)
			continue;
		have = real_or_copy(vf->runs.v[i].lib);
		seen = strcmp(have, want) == 0;
		free(have);
	}
	free(want);
	return seen;
}

static struct verify_run *
add_run(struct verify_facts *vf, enum verify_kind kind, const char *lib,
    const char *where, const char *owner, const char *owner_name)
{
	struct verify_run *r;

	if (planned(vf, kind, lib))
		return NULL;
	r = VEC_PUSH(&vf->runs);
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

static char *
join(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
plan_toolkit_runtimes(const struct facts *f, struct verify_facts *vf)
{
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		for (size_t j = 0; j < t->cudart.n; j++) {
			const struct cudart_dir *c = &t->cudart.v[j];
			char *lib;

			if (c->dir == NULL || (c->soname == NULL && c->file == NULL))
				continue;
			lib = join(c->dir, c->soname != NULL ? c->soname : c->file);
			add_run(vf, VERIFY_RUNTIME, lib,
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
plan_framework_runtimes(const struct facts *f, struct verify_facts *vf)
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
				add_run(vf, VERIFY_RUNTIME, n->lib->resolved,
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
plan_cudnn(const struct facts *f, struct verify_facts *vf)
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
		lib = join(d->lib_dir, name);
		cudart = match_cudart(vf, d);
		/* match_cudart points into vf->runs, which add_run grows. */
		cudart = cudart != NULL ? xstrdup(cudart) : NULL;
		r = add_run(vf, VERIFY_CUDNN, lib,
		    d->where != NULL ? d->where : "system", NULL, NULL);
		if (r != NULL)
			r->cudart = (char *)cudart;
		else
			free((char *)cudart);
		free(lib);
	}
}

void
verify_plan(const struct facts *f, struct verify_facts *vf)
{
	const struct lib_fact *cuda = library(f, "libcuda.so.1");

	add_run(vf, VERIFY_DRIVER, cuda != NULL && cuda->resolved != NULL ?
	    cuda->resolved : "libcuda.so.1", "driver", NULL, NULL);
	plan_toolkit_runtimes(f, vf);
	plan_framework_runtimes(f, vf);
	plan_cudnn(f, vf);
}
