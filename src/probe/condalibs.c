/* The CUDA libraries a conda environment provides itself: conda's
 * cudnn, cuda-cudart, libcublas … packages put them in PREFIX/lib, where
 * the env's python finds them first (its RPATH $ORIGIN/../lib). Told
 * from one listing of that directory by file name; the package that
 * installed each is the env's record of that name, so no record's
 * "files" list (megabytes for some) is read. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "probe/condalibs.h"
#include "sysroot/sysroot.h"
#include "util/pathnorm.h"
#include "util/strv.h"
#include "util/xalloc.h"

/* A library and the conda packages that ship it, the CUDA 12 split
 * package first and CUDA 11's all-in-one cudatoolkit last. */
static const struct {
	const char	*name;
	const char	*packages[4];
} known[] = {
	{ "libcudart",		{ "cuda-cudart", "cudatoolkit" } },
	{ "libcudnn",		{ "cudnn", "libcudnn" } },
	{ "libcublas",		{ "libcublas", "cudatoolkit" } },
	{ "libcublasLt",	{ "libcublas", "cudatoolkit" } },
	{ "libnvJitLink",	{ "libnvjitlink", "cuda-nvjitlink",
				  "cudatoolkit" } },
	{ "libnvrtc",		{ "cuda-nvrtc", "cudatoolkit" } },
	{ "libcufft",		{ "libcufft", "cudatoolkit" } },
	{ "libcurand",		{ "libcurand", "cudatoolkit" } },
	{ "libcusolver",	{ "libcusolver", "cudatoolkit" } },
	{ "libcusparse",	{ "libcusparse", "cudatoolkit" } },
	{ "libnccl",		{ "nccl", "libnccl" } },
};
#define N_KNOWN	(sizeof known / sizeof known[0])

/* The version part of "NAME.so.12.1.105" for that NAME: "12.1.105";
 * NULL when file is another name or not a versioned library. */
static const char *
so_version(const char *file, const char *name)
{
	size_t n = strlen(name);
	const char *v;

	if (strncmp(file, name, n) != 0 || strncmp(file + n, ".so.", 4) != 0)
		return NULL;
	v = file + n + 4;
	if (*v < '0' || *v > '9' || v[strspn(v, "0123456789.")] != '\0')
		return NULL;
	return v;
}

/* The conda package of e named one of names; NULL when none is. */
static const struct py_package *
conda_package(const struct py_env *e, const char *const *names)
{
	for (size_t k = 0; k < 4 && names[k] != NULL; k++)
		for (size_t i = 0; i < e->packages.n; i++) {
			const struct py_package *p = &e->packages.v[i];

			if (p->source == PYPKG_CONDA && p->name != NULL &&
			    strcmp(p->name, names[k]) == 0)
				return p;
		}
	return NULL;
}

void
conda_env_cuda_libs(struct probe_ctx *ctx, struct py_env *e)
{
	struct strv names = STRV_INIT;
	const char *lo[N_KNOWN] = { 0 }, *hi[N_KNOWN] = { 0 };
	int rc;

	if (e->kind != PYENV_CONDA || e->lib_dir == NULL)
		return;
	rc = sysroot_list_dir(ctx->sr, e->lib_dir, &names);
	if (rc != 0) {
		/* No lib/ is an env without libraries, not a problem. */
		strv_free(&names);
		return;
	}
	for (size_t i = 0; i < names.n; i++)
		for (size_t k = 0; k < N_KNOWN; k++) {
			const char *v = so_version(names.v[i], known[k].name);

			if (v == NULL)
				continue;
			/* The soname is the least versioned name, the
			 * real file the most. */
			if (lo[k] == NULL || strlen(names.v[i]) < strlen(lo[k]))
				lo[k] = names.v[i];
			if (hi[k] == NULL || strlen(names.v[i]) > strlen(hi[k]))
				hi[k] = names.v[i];
		}
	for (size_t k = 0; k < N_KNOWN; k++) {
		struct py_cudalib *l;
		const struct py_package *p;
		const char *v;

		if (lo[k] == NULL)
			continue;
		l = VEC_PUSH(&e->cuda_libs);
		l->name = xstrdup(known[k].name);
		l->soname = xstrdup(lo[k]);
		l->path = path_join(e->lib_dir, hi[k]);
		v = so_version(hi[k], known[k].name);
		/* "libcudnn.so.8" says only the major: kept, it is true. */
		l->version = xstrdup(v);
		p = conda_package(e, known[k].packages);
		if (p != NULL) {
			l->package = xstrdup(p->name);
			l->package_version = p->version != NULL ?
			    xstrdup(p->version) : NULL;
		}
	}
	strv_free(&names);
}
