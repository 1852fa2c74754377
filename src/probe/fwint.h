/* Shared by the files of the framework probe, and by no one else:
 * framework.c runs it; fwident.c and fwother.c say which frameworks an
 * environment holds and what their own files say, with the readers of
 * fwbuild.c; fwneeds.c asks the loader model what each one gets and
 * lists the GPU code it carries.
 *
 * The split is by cost: recognising a framework reads a few small text
 * files; resolving its needs reads ELF files. Both read nothing for an
 * environment without a framework. */
#ifndef CUDAWIZ_FWINT_H
#define CUDAWIZ_FWINT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "loader/resolve.h"
#include "matrix/matrix.h"
#include "probe/probe.h"
#include "util/strv.h"

/* What to ask the loader model about one framework. */
struct fw_plan {
	/* ELF files Python loads for it (as it imports the module, or as the
	 * framework dlopen()s its CUDA provider by path): each one's
	 * DT_NEEDED closure gives the linked needs. Only files that exist. */
	struct strv	 linked;
	/* A GPU build's main CUDA library: it must itself load, so when it
	 * is missing or damaged it becomes a need of its own. NULL: none. */
	char		*own;
	/* The file whose code calls dlopen() by name; NULL: the program. */
	char		*dlopener;
	struct strv	 dlopen;	/* the sonames it dlopen()s */
	/* The file to list GPU code from; NULL: none. */
	char		*archs;
	/* spaCy: take the needs of the framework of this name (CuPy) in
	 * the same environment instead of resolving anything. */
	const char	*needs_of;
};

/* One run of the probe. */
struct fw_run {
	struct probe_ctx	*ctx;
	struct matrix		*matrix;	/* the embedded one, read when first wanted
						 * outside a run */
	bool			 have_session;
	struct loader_session	 session;
	struct strv		 ldconf;	/* probe_loader_dirs' */
	struct strv		 global_extra;	/* probe_loader_dirs' */
	struct strv		 extra;		/* global_extra, this env's */
};

/* A framework found in an environment, before its needs are resolved. */
struct fw_found {
	struct framework_fact	 fact;
	struct fw_plan		 plan;
};

struct fw_found_list {
	struct fw_found	*v;
	size_t		 n, cap;
};

const struct matrix	*fw_matrix(struct fw_run *run);

/* fwident.c: the frameworks of env, in a fixed order, with what their
 * own files, their version strings and the matrix say. Reads nothing
 * when no package of env is a framework's. */
void	fw_identify(struct fw_run *run, const struct py_env *env,
	    struct fw_found_list *out);
void	fw_plan_free(struct fw_plan *p);

/* fwident.c: what the conda record of p says about its build (its build
 * string, its depends pins on cuda-version, cudatoolkit and cudnn): p's
 * own record when conda installed it, else the record of the first of
 * conda_names (NULL-ended) that env holds ("pytorch" for the dist-info
 * torch). Sets only what is not set yet. */
void	fw_conda_build(const struct py_env *env, const struct py_package *p,
	    const char *const *conda_names, struct framework_fact *fw);

/* fwother.c: one framework each, from its best package p of env. */
void	fw_ident_cupy(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);
/* cupy: the CuPy found in the same env, or NULL. */
void	fw_ident_spacy(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, const struct fw_found *cupy,
	    struct fw_found *f);
void	fw_ident_ort(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);
void	fw_ident_paddle(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);
void	fw_ident_mxnet(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);
void	fw_ident_numba(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);
void	fw_ident_ct2(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, struct fw_found *f);

/* ----------------------------------------------------- fwbuild.c */

/* The name as pip compares it (PEP 503: lower case, one '-' for any run
 * of '-', '_', '.') into buf; "" when longer than n. */
void	fw_norm_name(const char *in, char *buf, size_t n);
bool	fw_all_digits(const char *s, size_t n);
/* "118" → "11.8", "92" → "9.2" (cu118, cuda112, cu92); NULL otherwise. */
char	*fw_digits_cuda(const char *d, size_t n);
/* "2.1.0" of "2.1.0+cu118" and of "2.1.0.post117"; NULL for NULL. */
char	*fw_public_version(const char *v);
/* The directory sub of package p in env: in p's site dir, else the
 * first site dir of env that holds it; *exists says whether one does. */
char	*fw_pkg_dir(struct fw_run *run, const struct py_env *env,
	    const struct py_package *p, const char *sub, bool *exists);
/* The package's directory is missing: a note, and, for a build that
 * may be a GPU one, its main library own (relative to the dir) as a
 * need that will not load. */
void	fw_dir_missing(struct fw_run *run, struct fw_found *f, const char *own);
/* A small text file the framework wrote; NULL when absent or unreadable
 * (a note says why). */
char	*fw_read_small(struct fw_run *run, const char *path);

enum pyval {
	PYVAL_ABSENT = 0,
	PYVAL_STR,
	PYVAL_NONE,
	PYVAL_TRUE,
	PYVAL_FALSE,
	PYVAL_OTHER,	/* something else: an expression, a number, garbage */
};

/* key's value in a generated Python file ("key = 'v'", "'key': v",
 * "('key', v)"); *out gets a short string value (PYVAL_STR only). */
enum pyval fw_py_value(const char *text, const char *key, char **out);

/* Set a value once: the first (strongest) source wins; each takes
 * ownership of its why/source string. fw_set_cuda and fw_set_cudnn take
 * only version numbers. */
void	fw_set_owned(char **field, char *value);
void	fw_set_cuda(struct framework_fact *fw, const char *v, char *source);
void	fw_set_cudnn(struct framework_fact *fw, const char *v, char *source);
void	fw_set_gpu(struct framework_fact *fw, enum fw_gpu gpu, char *why);

/* The matrix build of row by variant, or by the CUDA the files gave, or
 * the default when neither narrows it; NULL when none. */
const struct matrix_build *fw_pick_build(const struct matrix_framework *row,
	    const char *variant, const char *cuda);
/* Fills what the files left unknown from build b of row, and with
 * refine, makes a major the files gave precise ("8" to "8.1"). */
void	fw_from_matrix(struct framework_fact *fw,
	    const struct matrix_framework *row, const struct matrix_build *b,
	    bool refine);
/* The sonames a framework dlopen()s: b's, or the runtime, cuBLAS and
 * cuDNN of fw's CUDA and cuDNN. */
void	fw_dlopen_sonames(struct fw_run *run, const struct framework_fact *fw,
	    const struct matrix_build *b, struct strv *out);
/* Adds dir/name to plan->linked when it is a regular file, keeping the
 * biggest as plan->archs; returns whether it was one. */
bool	fw_add_linked(struct fw_run *run, struct fw_plan *plan,
	    const char *dir, const char *name, off_t *biggest);
/* dir/NAME for the first NAME that is stem.so or stem.TAG.so; NULL. */
char	*fw_find_module(struct fw_run *run, const char *dir, const char *stem);
/* fw->cuda, when unknown, from the libcudart the library at path
 * names in DT_NEEDED. */
void	fw_cuda_from_needed(struct fw_run *run, struct framework_fact *fw,
	    const char *path);

/* ----------------------------------------------------- fwexpect.c */

/* Where an object's own search list points: its DT_RUNPATH, or its
 * DT_RPATH and then the program's (which, like glibc, this counts only
 * when the object has no DT_RUNPATH). */
struct searcher {
	const char	*path;		/* the object; NULL: the program */
	const char	*rpath, *runpath;
};

/* One framework's resolution: what every need is set against. */
struct needs_run {
	struct fw_run		*run;
	const struct py_env	*env;
	struct framework_fact	*fw;
	const char		*program;
	struct searcher		 prog;
	struct searcher		 dlopener;
	struct strv		 loaded;	/* files already in a closure */
	/* Canonical, once: env's site dirs, fw's dir, env's lib/. */
	struct strv		 sites;
	char			*own_dir;
	char			*lib_dir;
};

/* A directory as one spelling: its real path when it exists, else the
 * path with "." and ".." taken out textually. */
char	*fw_canon_dir(struct fw_run *run, const char *dir);
/* n's from, expected_dir and expected_pkg, for a need req asked for. */
void	fw_find_expected(struct needs_run *nr, const struct searcher *req,
	    struct fw_need *n);
/* n's shadowed_via, once n->lib is known. */
void	fw_find_shadow(struct fw_run *run, struct fw_need *n);

/* ----------------------------------------------------- fwneeds.c */

/* The program an environment's Python runs as (its real path, when it
 * is an ELF executable the loader model can use), or NULL. The caller
 * frees it. */
char	*fw_env_program(struct fw_run *run, const struct py_env *env);
/* The directories of env that hold libraries the loader model should
 * know of for other copies: its lib/ and its nvidia/.../lib wheels. */
void	fw_env_dirs(struct fw_run *run, const struct py_env *env,
	    struct strv *out);
/* Resolves what plan says fw needs, in env's Python process. */
void	fw_resolve(struct fw_run *run, const struct py_env *env,
	    const char *program, struct framework_fact *fw,
	    const struct fw_plan *plan);
void	fw_read_archs(struct fw_run *run, struct framework_fact *fw,
	    const struct fw_plan *plan);
/* A deep copy of a need (spaCy shares CuPy's). */
void	fw_need_copy(struct fw_need *dst, const struct fw_need *src);

/* The CUDA library family a soname belongs to ("libcudart", "libcudnn"),
 * ignoring a bundled copy's hash ("libcudart-d0da41ae.so.11.0"); NULL
 * when it is none of them. */
const char *fw_cuda_family(const char *soname);

#endif
