/* The library probe: which file a plain program's dlopen("libX.so.N")
 * would load for each CUDA library that matters, by the loader model in
 * src/loader/resolve.h, and what else lies around under that name.
 *
 * It runs last, after the toolkit, cuDNN and driver probes, so it can ask
 * for the sonames they found and tell the resolver where else copies may
 * live (toolkit and cuDNN directories, driver directories, WSL's). Each
 * library fact keeps the resolver's trace and adds what the rules need
 * and the resolver does not say: which other copy a later step would
 * reach, dangling links passed over, the winner's SONAME and version
 * definitions, and whether a file is a toolkit's stub. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "loader/resolve.h"
#include "probe/probe.h"
#include "util/pathnorm.h"
#include "util/strmap.h"
#include "util/version.h"
#include "util/xalloc.h"

/* The listings doctor took of the search directories, by the directory
 * as searched: they answer "is the name in this directory" for every
 * library without a walk of the path per library and directory (10,000
 * LD_LIBRARY_PATH entries times each library searched). */
struct kept_dirs {
	struct strv	*v;
	size_t		 n, cap;
	struct strmap	 index;		/* dir → v[], or NOT_LISTED */
};

#define NOT_LISTED	((size_t)-1)

/* TensorRT majors frameworks probe for when nothing better is known: 8
 * (TensorFlow 2.x) and 10 (current TensorRT); the matrix lists none. */
static const char *const tensorrt_sonames[] = {
	"libnvinfer.so.8", "libnvinfer.so.10",
};

/* The order of a step source in a plain program's search, for "would a
 * later step reach it". */
static int
source_rank(enum step_source s)
{
	switch (s) {
	case STEP_NONE:
	case STEP_PATH:
	case STEP_LOADED:
		return 0;
	case STEP_RPATH:
		return 1;
	case STEP_LD_LIBRARY_PATH:
		return 2;
	case STEP_RUNPATH:
		return 3;
	case STEP_CACHE:
		return 4;
	case STEP_DEFAULT:
		break;
	}
	return 5;
}

/* A file in a directory named "stubs", where toolkits keep the stub
 * libcuda.so (lib64/stubs, targets/x86_64-linux/lib/stubs, a copy of
 * either). The stub cannot be told from a driver by its contents: both
 * carry the SONAME libcuda.so.1 and neither has version definitions. */
static bool
in_stubs_dir(const char *path)
{
	const char *p = path;

	if (path == NULL)
		return false;
	while ((p = strstr(p, "/stubs")) != NULL) {
		if (p[6] == '/' && strchr(p + 7, '/') == NULL)
			return true;
		p += 6;
	}
	return false;
}


/* The index of dir among the non-empty LD_LIBRARY_PATH entries, or -1. */
static long
llp_index(const char *llp, const char *dir)
{
	struct strv parts = STRV_INIT;
	long ix = -1;

	if (llp == NULL)
		return -1;
	strv_split(&parts, llp, ":;");
	for (size_t i = 0; i < parts.n && ix < 0; i++)
		if (parts.v[i][0] != '\0' && path_same(parts.v[i], dir))
			ix = (long)i;
	strv_free(&parts);
	return ix;
}

static long
dir_index(const struct strv *dirs, const char *dir)
{
	for (size_t i = 0; i < dirs->n; i++)
		if (path_same(dirs->v[i], dir))
			return (long)i;
	return -1;
}

/*
 * The search step after the winner's that would load the copy at path if
 * the winner were gone, or STEP_NONE. The sources come in glibc's order; within
 * LD_LIBRARY_PATH and the default directories a later entry counts.
 */
static enum step_source
later_step(const struct loader_env *env, const struct lib_fact *l,
    const char *path)
{
	const struct resolve_step *win = NULL;
	int wrank = -1;
	char *dir = path_dirname(path);
	enum step_source via = STEP_NONE;
	long ix;

	if (l->resolved != NULL && l->steps.n > 0 &&
	    l->steps.v[l->steps.n - 1].result == STEP_FOUND) {
		win = &l->steps.v[l->steps.n - 1];
		wrank = source_rank(win->source);
	}
	if (win == NULL)
		goto out;
	ix = llp_index(env->ld_library_path, dir);
	if (ix >= 0 && (wrank < source_rank(STEP_LD_LIBRARY_PATH) ||
	    (win->source == STEP_LD_LIBRARY_PATH && win->dir != NULL &&
	    ix > llp_index(env->ld_library_path, win->dir)))) {
		via = STEP_LD_LIBRARY_PATH;
		goto out;
	}
	if (env->cache == NULL && env->ldconf_dirs != NULL) {
		ix = dir_index(env->ldconf_dirs, dir);
		if (ix >= 0 && (wrank < source_rank(STEP_CACHE) ||
		    (win->source == STEP_CACHE && win->dir != NULL &&
		    ix > dir_index(env->ldconf_dirs, win->dir)))) {
			via = STEP_CACHE;
			goto out;
		}
	} else if (env->cache != NULL && wrank < source_rank(STEP_CACHE)) {
		const struct ldcache_entry *e = ldcache_lookup(env->cache,
		    l->soname, ldcache_abi_flags(env->prof->elf_class,
		    env->prof->machine), &env->prof->hwcaps_active);

		if (e != NULL && strcmp(e->value, path) == 0) {
			via = STEP_CACHE;
			goto out;
		}
	}
	ix = dir_index(&env->prof->system_dirs, dir);
	if (ix >= 0 && (wrank < source_rank(STEP_DEFAULT) ||
	    (win->source == STEP_DEFAULT && win->dir != NULL &&
	    ix > dir_index(&env->prof->system_dirs, win->dir))))
		via = STEP_DEFAULT;
out:
	free(dir);
	return via;
}

static long long
newer(long long a, long long b)
{
	return a > b ? a : b;
}

/* What "would ldconfig change the answer" needs of a copy: is it the
 * cache's entry for the name, and when did the link, its file or its
 * directory last change (a new link or file changes the directory). */
static void
copy_cache_state(const struct loader_env *env, const struct lib_fact *l,
    const char *path, struct lib_copy *c)
{
	struct stat st;
	char *dir = path_dirname(path);

	if (env->cache != NULL) {
		const struct ldcache_entry *e = ldcache_lookup(env->cache,
		    l->soname, ldcache_abi_flags(env->prof->elf_class,
		    env->prof->machine), &env->prof->hwcaps_active);

		c->cached = e != NULL && strcmp(e->value, path) == 0;
	}
	if (sysroot_lstat(env->sr, path, &st) == 0)
		c->changed = newer(c->changed, (long long)st.st_mtime);
	if (sysroot_stat(env->sr, path, &st) == 0)
		c->changed = newer(c->changed, (long long)st.st_mtime);
	if (sysroot_stat(env->sr, dir, &st) == 0)
		c->changed = newer(c->changed, (long long)st.st_mtime);
	free(dir);
}

static void
fill_copy(const struct loader_env *env, const struct lib_fact *l,
    const char *path, struct lib_copy *c)
{
	const struct loader_profile *prof = env->prof;
	char *why = NULL, *err = NULL;
	struct elfobj obj;

	c->path = xstrdup(path);
	if (sysroot_realpath(env->sr, path, &c->target) != 0)
		c->target = NULL;
	c->stub = in_stubs_dir(path) || in_stubs_dir(c->target);
	for (size_t i = 0; i < l->steps.n; i++)
		if (l->steps.v[i].path != NULL &&
		    strcmp(l->steps.v[i].path, path) == 0)
			c->tried = true;
	c->loadable = elfobj_check(env->sr, path, prof->elf_class,
	    prof->machine, &why) == ELFOBJ_OK;
	if (!c->loadable) {
		c->problem = why != NULL ? why : xstrdup(_("cannot be loaded"));
		return;
	}
	free(why);
	memset(&obj, 0, sizeof obj);
	if (elfobj_read(env->sr, path, ELFOBJ_DYNAMIC, &obj, &err) == 0 &&
	    obj.soname != NULL)
		c->soname = xstrdup(obj.soname);
	free(err);
	elfobj_free(&obj);
	c->reached_via = later_step(env, l, path);
	copy_cache_state(env, l, path, c);
}

static void
copy_free(struct lib_copy *c)
{
	free(c->path);
	free(c->target);
	free(c->soname);
	free(c->problem);
}

/* One real file reached under two directory names (lib64 and the
 * targets/ directory it links to) is one copy: the first, unless the
 * other is the one a later step would reach. */
static void
add_copy(const struct loader_env *env, struct lib_fact *l, const char *path)
{
	struct lib_copy c;

	memset(&c, 0, sizeof c);
	fill_copy(env, l, path, &c);
	for (size_t i = 0; c.target != NULL && i < l->copies.n; i++) {
		struct lib_copy *o = &l->copies.v[i];

		if (o->target == NULL || strcmp(o->target, c.target) != 0)
			continue;
		if (o->reached_via == STEP_NONE && c.reached_via != STEP_NONE) {
			copy_free(o);
			*o = c;
		} else {
			copy_free(&c);
		}
		return;
	}
	*(struct lib_copy *)VEC_PUSH(&l->copies) = c;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* True when a listing kept of dir shows that dir/name does not exist, so
 * that an lstat of it would fail. A name that is no plain name, a
 * directory not listed or one whose listing failed (EACCES on a
 * directory that can still be searched) leave it to the lstat. */
static bool
known_absent(const struct kept_dirs *kept, const char *dir, const char *name)
{
	const size_t *ix;
	const struct strv *names;

	if (kept == NULL || strchr(name, '/') != NULL ||
	    strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    name[0] == '\0' ||
	    (ix = strmap_get(&kept->index, dir)) == NULL || *ix == NOT_LISTED)
		return false;
	names = &kept->v[*ix];
	return names->n == 0 || bsearch(&name, names->v, names->n,
	    sizeof *names->v, cmp_name) == NULL;
}

/* Links of the name in the directories searched before the winner that
 * point nowhere: the loader passes over them, so the trace says nothing,
 * but they are what is left of an upgrade or a hand-made link. */
static void
find_dangling(const struct loader_env *env, const struct kept_dirs *kept,
    struct lib_fact *l)
{
	for (size_t i = 0; i < l->steps.n; i++) {
		const struct resolve_step *s = &l->steps.v[i];
		struct lib_dangling *d;
		struct stat st;
		char *path, *link = NULL;

		if (s->result != STEP_NOT_FOUND)
			continue;
		if (s->source == STEP_CACHE && s->dir == NULL) {
			/* A cache entry for a file that is gone, or none. */
			if (s->path == NULL)
				continue;
			path = xstrdup(s->path);
		} else if (s->dir != NULL) {
			if (known_absent(kept, s->dir, l->soname))
				continue;
			path = xasprintf("%s%s%s", s->dir,
			    s->dir[0] != '\0' && s->dir[strlen(s->dir) - 1] == '/' ?
			    "" : "/", l->soname);
		} else {
			continue;
		}
		if (sysroot_lstat(env->sr, path, &st) == 0) {
			if (!S_ISLNK(st.st_mode) ||
			    sysroot_stat(env->sr, path, &st) == 0 ||
			    sysroot_readlink(env->sr, path, &link) != 0) {
				free(path);
				continue;
			}
		} else if (s->dir != NULL) {
			free(path);
			continue;
		}
		d = VEC_PUSH(&l->dangling);
		d->path = path;
		d->link = link;
		d->via = s->source;
	}
}

/* Moves what a resolution holds into the library fact. */
static void
take_resolution(struct lib_fact *out, struct resolution *r)
{
	out->resolved = r->resolved;
	r->resolved = NULL;
	out->error = r->error;
	r->error = NULL;
	out->steps.v = r->steps.v;
	out->steps.n = r->steps.n;
	out->steps.cap = r->steps.cap;
	memset(&r->steps, 0, sizeof r->steps);
	if (out->resolved != NULL)
		out->via = r->via;
}

/* Names whose absence is normal: TensorRT, which frameworks probe for
 * and do without, and the unversioned libcuda.so that only the driver's
 * development package installs. */
static bool
optional_name(const char *soname)
{
	static const char *const stems[] = {
		"libnvinfer.so", "libnvinfer_plugin.so", "libnvonnxparser.so",
		"libnvparsers.so",
	};

	if (strcmp(soname, "libcuda.so") == 0)
		return true;
	for (size_t i = 0; i < sizeof stems / sizeof *stems; i++)
		if (strncmp(soname, stems[i], strlen(stems[i])) == 0)
			return true;
	return false;
}

static void
library_from(const struct loader_env *env, const struct kept_dirs *kept,
    const char *soname, struct resolution *r, struct lib_fact *out);

void
probe_resolve_library(const struct loader_env *env, const char *soname,
    struct lib_fact *out)
{
	struct resolution r;

	resolve_name(env, soname, NULL, &r);
	library_from(env, NULL, soname, &r, out);
}

void
probe_library_from(const struct loader_env *env, const char *soname,
    struct resolution *r, struct lib_fact *out)
{
	library_from(env, NULL, soname, r, out);
}

static void
library_from(const struct loader_env *env, const struct kept_dirs *kept,
    const char *soname, struct resolution *r, struct lib_fact *out)
{
	struct elfobj obj;
	char *err = NULL;

	memset(out, 0, sizeof *out);
	out->soname = xstrdup(soname);
	out->optional = optional_name(soname);
	take_resolution(out, r);
	if (out->resolved != NULL) {
		int rc = sysroot_realpath(env->sr, out->resolved, &out->target);

		if (rc != 0) {
			out->target = NULL;
			out->elf_error = xasprintf(_("%s: cannot resolve the file "
			    "behind it: %s"), out->resolved, sysroot_strerror(rc));
		}
		out->stub = in_stubs_dir(out->resolved) || in_stubs_dir(out->target);
		memset(&obj, 0, sizeof obj);
		if (elfobj_read(env->sr, out->resolved, ELFOBJ_DYNAMIC, &obj,
		    &err) == 0) {
			if (obj.soname != NULL)
				out->elf_soname = xstrdup(obj.soname);
			for (size_t i = 0; i < obj.verdefs.n; i++)
				strv_push(&out->elf_verdefs, obj.verdefs.v[i]);
		} else if (out->elf_error == NULL) {
			out->elf_error = err;
			err = NULL;
		}
		free(err);
		elfobj_free(&obj);
	}
	for (size_t i = 0; i < r->other_copies.n; i++)
		add_copy(env, out, r->other_copies.v[i]);
	find_dangling(env, kept, out);
	resolution_free(r);
}

/* ------------------------------------------------------------ doctor */

/* "libcudart.so.13" and "libcudart.so.11.0" are sonames (CUDA 11.0 and
 * older carry major.minor); "libcudart.so.12.4.127" is a real file. */
static bool
is_soname_like(const char *name, const char *stem, size_t max_parts)
{
	size_t sl = strlen(stem);
	struct version v;

	return strncmp(name, stem, sl) == 0 && version_parse(name + sl, &v) &&
	    v.nparts <= max_parts;
}

static void
add_soname(struct strv *sonames, const char *name)
{
	if (name != NULL && name[0] != '\0' && !strv_contains(sonames, name))
		strv_push(sonames, name);
}

/* Runtime, cuDNN and TensorRT sonames in the directories a plain program
 * searches, beyond those the other probes named. */
static void
scan_dir(const struct probe_ctx *ctx, const char *dir, struct strv *seen,
    struct strmap *seen_ix, struct kept_dirs *kept)
{
	struct strv names = STRV_INIT;
	int rc;

	if (strmap_get(&kept->index, dir) != NULL)
		return;
	rc = sysroot_list_dir(ctx->sr, dir, &names);
	/* A missing directory is the environment probe's to report. */
	if (rc != 0 && rc != ENOENT && rc != ENOTDIR)
		facts_note(ctx->facts, dir,
		    _("cannot list a library search directory: %s"),
		    sysroot_strerror(rc));
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];

		if ((is_soname_like(name, "libcudart.so.", 2) ||
		    is_soname_like(name, "libcudnn.so.", 1) ||
		    is_soname_like(name, "libnvinfer.so.", 1)) &&
		    strmap_put(seen_ix, name, seen->n))
			strv_push(seen, name);
	}
	if (rc == 0) {
		(void)strmap_put(&kept->index, dir, kept->n);
		*(struct strv *)VEC_PUSH(kept) = names;
	} else {
		(void)strmap_put(&kept->index, dir, NOT_LISTED);
		strv_free(&names);
	}
}

static void
kept_dirs_free(struct kept_dirs *kept)
{
	for (size_t i = 0; i < kept->n; i++)
		strv_free(&kept->v[i]);
	free(kept->v);
	strmap_free(&kept->index);
}

/* The sonames to resolve, in report order: the driver's, the unversioned
 * libcuda.so, every runtime and cuDNN the other probes found, any other
 * runtime or cuDNN soname in the search directories (sorted, so the order
 * does not depend on the directories), then TensorRT. */
static void
collect_sonames(const struct probe_ctx *ctx, const struct loader_session *s,
    struct strv *sonames, struct kept_dirs *kept)
{
	const struct facts *f = ctx->facts;
	const struct path_var *llp = &f->env.ld_library_path;
	struct strv seen = STRV_INIT;
	struct strmap seen_ix = STRMAP_INIT;

	add_soname(sonames, "libcuda.so.1");
	add_soname(sonames, "libnvidia-ml.so.1");
	add_soname(sonames, "libcuda.so");
	for (size_t i = 0; i < f->toolkits.n; i++)
		for (size_t j = 0; j < f->toolkits.v[i].cudart.n; j++)
			add_soname(sonames, f->toolkits.v[i].cudart.v[j].soname);
	for (size_t i = 0; i < f->cudnn.n; i++)
		add_soname(sonames, f->cudnn.v[i].soname);
	for (size_t i = 0; i < llp->entries.n; i++) {
		const struct path_entry *e = &llp->entries.v[i];

		if (!e->empty && e->exists != 0 && e->duplicate_of < 0)
			scan_dir(ctx, e->value, &seen, &seen_ix, kept);
	}
	for (size_t i = 0; i < f->env.ldconf.n; i++)
		if (f->env.ldconf.v[i].exists != 0)
			scan_dir(ctx, f->env.ldconf.v[i].dir, &seen, &seen_ix, kept);
	for (size_t i = 0; i < s->env.prof->system_dirs.n; i++)
		scan_dir(ctx, s->env.prof->system_dirs.v[i], &seen, &seen_ix,
		    kept);
	strv_sort(&seen);
	for (size_t i = 0; i < seen.n; i++)
		if (strncmp(seen.v[i], "libnvinfer.", 11) != 0)
			add_soname(sonames, seen.v[i]);
	for (size_t i = 0; i < sizeof tensorrt_sonames / sizeof *tensorrt_sonames; i++)
		if (!strv_contains(&seen, tensorrt_sonames[i]))
			strv_push(&seen, tensorrt_sonames[i]);
	for (size_t i = 0; i < seen.n; i++)
		if (strncmp(seen.v[i], "libnvinfer.", 11) == 0 &&
		    !strv_contains(sonames, seen.v[i]))
			strv_push(sonames, seen.v[i]);
	strv_free(&seen);
	strmap_free(&seen_ix);
}

/* Under --root an empty LD_LIBRARY_PATH entry (the current directory) is
 * left out of the search: the tree is not where a program runs. */
static void
note_empty_entries(struct probe_ctx *ctx)
{
	const struct path_var *llp = &ctx->facts->env.ld_library_path;

	if (sysroot_is_host(ctx->sr))
		return;
	for (size_t i = 0; i < llp->entries.n; i++)
		if (llp->entries.v[i].empty) {
			facts_note(ctx->facts, "LD_LIBRARY_PATH",
			    _("an empty entry means the current directory, which is not searched under --root"));
			return;
		}
}

/* The cache's age, to tell whether ldconfig would change an answer. */
static void
ldcache_mtime(struct probe_ctx *ctx, const struct loader_session *s)
{
	struct stat st;
	int rc = sysroot_stat(ctx->sr, s->env.prof->cache_path, &st);

	if (rc == 0)
		ctx->facts->env.ldcache_mtime = (long long)st.st_mtime;
	else if (rc == ENOENT)
		ctx->facts->env.ldcache_mtime = -1;
}

void
probe_libraries(struct probe_ctx *ctx)
{
	struct loader_session s;
	struct strv ldconf = STRV_INIT, extra = STRV_INIT;
	struct strv sonames = STRV_INIT;
	struct kept_dirs kept;

	memset(&kept, 0, sizeof kept);
	loader_session_init_prof(&s, ctx->sr, ctx->envp,
	    probe_loader_profile(ctx));
	note_empty_entries(ctx);
	if (s.cache_error != NULL)
		facts_note(ctx->facts, s.env.prof->cache_path, "%s",
		    s.cache_error);
	ldcache_mtime(ctx, &s);
	probe_loader_dirs(ctx->facts, &ldconf, &extra);
	s.env.extra_dirs = &extra;
	/* A tree without a cache stands for a machine where ldconfig has
	 * run over its ld.so.conf (DECISIONS.md). */
	if (!sysroot_is_host(ctx->sr))
		s.env.ldconf_dirs = &ldconf;
	collect_sonames(ctx, &s, &sonames, &kept);
	for (size_t i = 0; i < sonames.n; i++) {
		struct resolution r;

		resolve_name(&s.env, sonames.v[i], NULL, &r);
		library_from(&s.env, &kept, sonames.v[i], &r,
		    VEC_PUSH(&ctx->facts->libraries));
	}
	kept_dirs_free(&kept);
	strv_free(&sonames);
	strv_free(&ldconf);
	strv_free(&extra);
	loader_session_free(&s);
}
