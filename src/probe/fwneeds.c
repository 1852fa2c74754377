/* What a framework gets from the dynamic loader in its Python process,
 * and which GPU code it carries.
 *
 * The loader model (loader/resolve.h) is asked exactly what Python does:
 * the interpreter runs (conda's carries DT_RPATH $ORIGIN/../lib, which
 * serves every object without a DT_RUNPATH), an extension module or a
 * CUDA provider is dlopen()ed by path with everything it needs, and
 * frameworks that find their CUDA libraries themselves dlopen() each one
 * by name from their own library. Every CUDA library in those closures
 * becomes a need, with the loader's whole answer: the steps, the winner,
 * the other copies.
 *
 * Then each need is set against where the framework expects it, and
 * whatever shadows that copy is named (fwexpect.c). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "loader/elfobj.h"
#include "loader/fatbin.h"
#include "probe/fwint.h"
#include "util/pathnorm.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------- CUDA families */

/* Stems of the libraries that come from CUDA, cuDNN, NCCL, TensorRT and
 * the driver. A stem ending in '*' takes any continuation
 * ("libcudnn_ops_infer", "libcusolverMg", "libnvinfer_plugin"). */
static const char *const families[] = {
	"libcuda", "libnvidia-ml", "libcudart", "libcublas", "libcublasLt",
	"libcudnn*", "libcufft*", "libcurand", "libcusolver*", "libcusparse*",
	"libnccl", "libnvrtc*", "libnvJitLink", "libnvfatbin", "libcupti",
	"libnvToolsExt", "libnvperf*", "libnvvm", "libnvinfer*",
	"libnvonnxparser", "libnvparsers", "libnvshmem*", "libcufile*",
	"libnvjpeg", "libnpp*", "libcutensor*",
};

static const char *
match_family(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof families / sizeof *families; i++) {
		const char *f = families[i];
		size_t fl = strlen(f);

		if (f[fl - 1] == '*') {
			if (n >= fl - 1 && strncmp(name, f, fl - 1) == 0)
				return f;
		} else if (n == fl && strncmp(name, f, n) == 0) {
			return f;
		}
	}
	return NULL;
}

const char *
fw_cuda_family(const char *soname)
{
	const char *base = strrchr(soname, '/');
	const char *f;

	base = base != NULL ? base + 1 : soname;
	if (strncmp(base, "lib", 3) != 0 || strstr(base, ".so") == NULL)
		return NULL;
	/* "libnvidia-ml.so.1" has a '-' of its own; a bundled copy has
	 * "-<hash>" before ".so" ("libcudart-d0da41ae.so.11.0"). */
	if ((f = match_family(base, strcspn(base, "."))) != NULL)
		return f;
	return match_family(base, strcspn(base, ".-"));
}

/* ------------------------------------------------------------ programs */

char *
fw_env_program(struct fw_run *run, const struct py_env *env)
{
	const struct loader_profile *prof = run->session.env.prof;
	struct elfobj obj;
	char *real = NULL, *err = NULL;
	bool ok;

	if (env->python == NULL ||
	    sysroot_realpath(run->ctx->sr, env->python, &real) != 0)
		return NULL;
	memset(&obj, 0, sizeof obj);
	/* A shell wrapper or another ABI's interpreter is no program the
	 * model can load into; the frameworks then load as into a plain
	 * one. */
	ok = elfobj_read(run->ctx->sr, real, ELFOBJ_DYNAMIC, &obj, &err) == 0 &&
	    obj.interp != NULL && obj.elf_class == prof->elf_class &&
	    obj.machine == prof->machine;
	elfobj_free(&obj);
	free(err);
	if (!ok)
		FREE(&real);
	return real;
}

void
fw_env_dirs(struct fw_run *run, const struct py_env *env, struct strv *out)
{
	if (env->lib_dir != NULL && !strv_contains(out, env->lib_dir))
		strv_push(out, env->lib_dir);
	for (size_t i = 0; i < env->site_dirs.n; i++) {
		char *nv = path_join(env->site_dirs.v[i], "nvidia");
		struct strv names = STRV_INIT;

		if (sysroot_list_dir(run->ctx->sr, nv, &names) == 0)
			for (size_t j = 0; j < names.n; j++) {
				static const char *const subs[] = {
					"lib", "nvvm/lib64",
				};

				for (size_t k = 0; k < 2; k++) {
					char *d = xasprintf("%s/%s/%s", nv,
					    names.v[j], subs[k]);

					if (!strv_contains(out, d) &&
					    sysroot_is_dir(run->ctx->sr, d))
						strv_push_owned(out, d);
					else
						free(d);
				}
			}
		strv_free(&names);
		free(nv);
	}
}

/* --------------------------------------------------------- other copies */

static bool
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static void
copy_in(struct fw_run *run, struct resolution *r, const char *dir,
    struct stat *seen, size_t *nseen, size_t cap)
{
	char *path;
	struct stat st;

	if (dir == NULL || dir[0] == '\0')
		return;
	path = path_join(dir, r->name);
	if (sysroot_lstat(run->ctx->sr, path, &st) != 0 ||
	    (r->resolved != NULL && strcmp(path, r->resolved) == 0) ||
	    strv_contains(&r->other_copies, path)) {
		free(path);
		return;
	}
	if (sysroot_stat(run->ctx->sr, path, &st) == 0) {
		for (size_t i = 0; i < *nseen; i++)
			if (same_file(&seen[i], &st)) {
				free(path);
				return;
			}
		if (*nseen < cap)
			seen[(*nseen)++] = st;
	}
	strv_push_owned(&r->other_copies, path);
}

/*
 * The other files of a linked need's name: the resolver lists them only
 * for the name a dlopen() asks for, not for what that object needs in
 * turn. Looked for by name (one stat per directory, no listing) in the
 * directories its search went through, the default and ld.so.conf
 * directories, the cache's entries and the extra directories.
 */
static void
find_copies(struct fw_run *run, struct resolution *r)
{
	const struct loader_env *env = &run->session.env;
	struct stat seen[64];
	size_t nseen = 0;

	if (strchr(r->name, '/') != NULL)
		return;
	if (r->resolved != NULL && sysroot_stat(run->ctx->sr, r->resolved,
	    &seen[0]) == 0)
		nseen = 1;
	for (size_t i = 0; i < r->steps.n; i++)
		copy_in(run, r, r->steps.v[i].dir, seen, &nseen, 64);
	for (size_t i = 0; i < env->prof->system_dirs.n; i++)
		copy_in(run, r, env->prof->system_dirs.v[i], seen, &nseen, 64);
	if (env->cache != NULL)
		for (size_t i = 0; i < env->cache->entries.n; i++) {
			const struct ldcache_entry *e =
			    &env->cache->entries.v[i];
			char *dir;

			if (strcmp(e->key, r->name) != 0)
				continue;
			dir = path_dirname(e->value);
			copy_in(run, r, dir, seen, &nseen, 64);
			free(dir);
		}
	if (env->extra_dirs != NULL)
		for (size_t i = 0; i < env->extra_dirs->n; i++)
			copy_in(run, r, env->extra_dirs->v[i], seen, &nseen,
			    64);
	if (env->ldconf_dirs != NULL)
		for (size_t i = 0; i < env->ldconf_dirs->n; i++)
			copy_in(run, r, env->ldconf_dirs->v[i], seen, &nseen,
			    64);
}

/* --------------------------------------------------------------- needs */

static bool
have_need(const struct framework_fact *fw, const char *soname)
{
	for (size_t i = 0; i < fw->needs.n; i++)
		if (strcmp(fw->needs.v[i].soname, soname) == 0)
			return true;
	return false;
}

/* Adds a need for r (taken over and freed). */
static void
add_need(struct needs_run *nr, const char *soname, enum fw_need_how how,
    struct resolution *r, const struct searcher *req)
{
	struct fw_need *n = VEC_PUSH(&nr->fw->needs);

	n->soname = xstrdup(soname);
	n->how = how;
	n->requester = req != NULL && req->path != NULL ? xstrdup(req->path) :
	    NULL;
	if (r->other_copies.n == 0)
		find_copies(nr->run, r);
	n->lib = xcalloc(1, sizeof *n->lib);
	probe_library_from(&nr->run->session.env, soname, r, n->lib);
	n->optional = n->lib->optional;
	fw_find_expected(nr, req, n);
	fw_find_shadow(nr->run, n);
}

/* The searcher for the object at path among the closure's objects. */
static struct searcher
searcher_in(const struct closure *c, const char *path)
{
	struct searcher s = { path, NULL, NULL };

	for (size_t i = 0; path != NULL && i < c->objs.n; i++)
		if (c->objs.v[i].path != NULL &&
		    strcmp(c->objs.v[i].path, path) == 0) {
			s.rpath = c->objs.v[i].elf.rpath;
			s.runpath = c->objs.v[i].elf.runpath;
			break;
		}
	return s;
}

/* Every CUDA library the closure searched for, first search first. */
static void
take_closure(struct needs_run *nr, struct closure *c)
{
	for (size_t i = 0; i < c->objs.n; i++)
		if (c->objs.v[i].path != NULL &&
		    !strv_contains(&nr->loaded, c->objs.v[i].path))
			strv_push(&nr->loaded, c->objs.v[i].path);
	for (size_t i = 0; i < c->resolutions.n; i++) {
		struct resolution r = c->resolutions.v[i];
		struct searcher req;
		char *name, *who;

		if (fw_cuda_family(r.name) == NULL || have_need(nr->fw, r.name))
			continue;
		memset(&c->resolutions.v[i], 0, sizeof c->resolutions.v[i]);
		/* add_need() frees r: what it keeps must outlive it. */
		name = xstrdup(r.name);
		who = r.requester != NULL ? xstrdup(r.requester) : NULL;
		req = searcher_in(c, who);
		add_need(nr, name, FW_NEED_LINKED, &r, &req);
		free(name);
		free(who);
	}
}

/* resolve_dlopen_in(), once more without the program when the program
 * itself cannot be read (a note says so). */
static int
dlopen_in(struct needs_run *nr, const char *name, const char *requester,
    struct resolution *out, struct closure *deps)
{
	const struct loader_env *env = &nr->run->session.env;
	char *err = NULL;
	int rc = resolve_dlopen_in(env, nr->program, name, requester, out, deps,
	    &err);

	if (rc != 0) {
		resolution_free(out);
		closure_free(deps);
		facts_note(nr->run->ctx->facts, requester != NULL ? requester :
		    nr->program != NULL ? nr->program : name, "%s", err);
		FREE(&err);
		rc = resolve_dlopen_in(env, NULL, name, NULL, out, deps, &err);
	}
	free(err);
	return rc;
}

/* A file of the framework's own that is to be loaded by path: its
 * closure, or, when it does not load, a need for the file itself. */
static void
load_file(struct needs_run *nr, const char *path)
{
	struct resolution top;
	struct closure deps;
	const char *base = strrchr(path, '/');

	if (strv_contains(&nr->loaded, path))
		return;
	if (dlopen_in(nr, path, NULL, &top, &deps) == 0 &&
	    top.resolved != NULL) {
		resolution_free(&top);
		take_closure(nr, &deps);
	} else if (!have_need(nr->fw, base != NULL ? base + 1 : path)) {
		struct fw_need *n;

		add_need(nr, base != NULL ? base + 1 : path, FW_NEED_LINKED,
		    &top, NULL);
		n = &nr->fw->needs.v[nr->fw->needs.n - 1];
		/* Its own file: expected where it is. */
		free(n->expected_dir);
		FREE(&n->expected_pkg);
		n->expected_dir = path_dirname(path);
		n->from = FW_FROM_BUNDLED;
	} else {
		resolution_free(&top);
	}
	closure_free(&deps);
}

static void
dlopen_name(struct needs_run *nr, const char *soname)
{
	struct resolution top;
	struct closure deps;

	if (have_need(nr->fw, soname))
		return;
	(void)dlopen_in(nr, soname, nr->dlopener.path, &top, &deps);
	add_need(nr, soname, FW_NEED_DLOPEN, &top, &nr->dlopener);
	take_closure(nr, &deps);
	closure_free(&deps);
}

/* An object's RPATH and RUNPATH, read once. */
static void
read_searcher(struct fw_run *run, const char *path, struct searcher *s,
    struct elfobj *keep)
{
	char *err = NULL;

	memset(keep, 0, sizeof *keep);
	s->path = path;
	s->rpath = s->runpath = NULL;
	if (path != NULL && elfobj_read(run->ctx->sr, path, ELFOBJ_DYNAMIC,
	    keep, &err) == 0) {
		s->rpath = keep->rpath;
		s->runpath = keep->runpath;
	}
	free(err);
}

void
fw_resolve(struct fw_run *run, const struct py_env *env, const char *program,
    struct framework_fact *fw, const struct fw_plan *plan)
{
	struct needs_run nr;
	struct elfobj prog_elf, dl_elf;

	memset(&nr, 0, sizeof nr);
	nr.run = run;
	nr.env = env;
	nr.fw = fw;
	nr.program = program;
	for (size_t i = 0; i < env->site_dirs.n; i++)
		strv_push_owned(&nr.sites, fw_canon_dir(run,
		    env->site_dirs.v[i]));
	nr.own_dir = fw->dir != NULL ? fw_canon_dir(run, fw->dir) : NULL;
	nr.lib_dir = env->lib_dir != NULL ? fw_canon_dir(run, env->lib_dir) :
	    NULL;
	read_searcher(run, program, &nr.prog, &prog_elf);
	read_searcher(run, plan->dlopener, &nr.dlopener, &dl_elf);
	for (size_t i = 0; i < plan->linked.n; i++)
		load_file(&nr, plan->linked.v[i]);
	if (plan->own != NULL)
		load_file(&nr, plan->own);
	for (size_t i = 0; i < plan->dlopen.n; i++)
		dlopen_name(&nr, plan->dlopen.v[i]);
	strv_free(&nr.loaded);
	strv_free(&nr.sites);
	free(nr.own_dir);
	free(nr.lib_dir);
	elfobj_free(&prog_elf);
	elfobj_free(&dl_elf);
}

/* --------------------------------------------------------------- archs */

void
fw_read_archs(struct fw_run *run, struct framework_fact *fw,
    const struct fw_plan *plan)
{
	const char *file = plan->archs != NULL ? plan->archs : plan->own;
	struct fatbin_archs a;
	char *err = NULL;

	if (file == NULL)
		return;
	fw->archs.source = xstrdup(file);
	if (fatbin_read(run->ctx->sr, file, &a, &err) != 0) {
		fw->archs.error = err != NULL ? err :
		    xasprintf(_("%s: the GPU code cannot be listed"), file);
		err = NULL;
	} else if (a.sass.n == 0 && a.ptx.n == 0) {
		/* No fatbinary is not "no kernels": they can live in a
		 * library not read here (a split build, jaxlib's plugin), or
		 * the file was stripped. The check was not made. */
		fw->archs.error = xasprintf(_("%s holds no GPU code: the kernels "
		    "are in another library, or the file was stripped"), file);
	} else {
		fw->archs.read = true;
		for (size_t i = 0; i < a.sass.n; i++)
			strv_push(&fw->archs.sass, a.sass.v[i]);
		for (size_t i = 0; i < a.ptx.n; i++)
			strv_push(&fw->archs.ptx, a.ptx.v[i]);
	}
	free(err);
	fatbin_archs_free(&a);
}

/* ---------------------------------------------------------------- copy */

static char *
dup0(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void
lib_copy_fact(struct lib_fact *d, const struct lib_fact *s)
{
	memset(d, 0, sizeof *d);
	d->soname = dup0(s->soname);
	d->resolved = dup0(s->resolved);
	d->via = s->via;
	d->target = dup0(s->target);
	d->optional = s->optional;
	d->error = dup0(s->error);
	for (size_t i = 0; i < s->steps.n; i++) {
		const struct resolve_step *a = &s->steps.v[i];
		struct resolve_step *b = VEC_PUSH(&d->steps);

		b->source = a->source;
		b->dir = dup0(a->dir);
		b->spec = dup0(a->spec);
		b->owner = dup0(a->owner);
		b->path = dup0(a->path);
		b->result = a->result;
		b->detail = dup0(a->detail);
		b->unreadable = a->unreadable;
	}
	for (size_t i = 0; i < s->copies.n; i++) {
		const struct lib_copy *a = &s->copies.v[i];
		struct lib_copy *b = VEC_PUSH(&d->copies);

		b->path = dup0(a->path);
		b->target = dup0(a->target);
		b->soname = dup0(a->soname);
		b->loadable = a->loadable;
		b->problem = dup0(a->problem);
		b->tried = a->tried;
		b->reached_via = a->reached_via;
		b->stub = a->stub;
	}
	for (size_t i = 0; i < s->dangling.n; i++) {
		const struct lib_dangling *a = &s->dangling.v[i];
		struct lib_dangling *b = VEC_PUSH(&d->dangling);

		b->path = dup0(a->path);
		b->link = dup0(a->link);
		b->via = a->via;
	}
	d->elf_soname = dup0(s->elf_soname);
	for (size_t i = 0; i < s->elf_verdefs.n; i++)
		strv_push(&d->elf_verdefs, s->elf_verdefs.v[i]);
	d->elf_error = dup0(s->elf_error);
	d->stub = s->stub;
}

void
fw_need_copy(struct fw_need *dst, const struct fw_need *src)
{
	memset(dst, 0, sizeof *dst);
	dst->soname = dup0(src->soname);
	dst->how = src->how;
	dst->from = src->from;
	dst->requester = dup0(src->requester);
	dst->expected_dir = dup0(src->expected_dir);
	dst->expected_pkg = dup0(src->expected_pkg);
	dst->optional = src->optional;
	if (src->lib != NULL) {
		dst->lib = xcalloc(1, sizeof *dst->lib);
		lib_copy_fact(dst->lib, src->lib);
	}
	dst->shadowed_via = src->shadowed_via;
}
