/* The resolver; see resolve.h.
 *
 * It follows glibc 2.36's elf/dl-load.c (_dl_map_object, open_path,
 * fillin_rpath, _dl_dst_substitute) and elf/dl-deps.c
 * (_dl_map_object_deps) and is checked against the real loader by
 * tests/cli/loader-differential.sh. Where this file and glibc disagree,
 * glibc is right.
 *
 * Speed: every directory (with each hardware capability subdirectory) is
 * stat'ed and listed at most once per world, and a name is looked up in
 * the sorted listing before any open(2); only names that are there get the
 * ELF header check. That keeps a 50-library closure over a long
 * LD_LIBRARY_PATH in a few milliseconds. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "loader/resolve.h"
#include "loader/resolve_int.h"
#include "util/envp.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/xalloc.h"


static void
search_list_free(struct search_list *l)
{
	strv_free(&l->dirs);
	strv_free(&l->specs);
	strv_free(&l->dropped);
}

static void
object_free(struct object *o)
{
	strv_free(&o->names);
	free(o->path);
	free(o->origin);
	elfobj_free(&o->elf);
	free(o->elf_error);
	search_list_free(&o->rpath);
	search_list_free(&o->runpath);
}

/* The directory part of path, as _dl_new_object() computes l_origin:
 * relative paths are put after the current directory, nothing is
 * normalised, "/foo" keeps its slash. */
static char *
origin_of(const char *path, const char *cwd)
{
	char *full, *slash;

	if (path[0] == '/')
		full = xstrdup(path);
	else if (cwd != NULL)
		full = xasprintf("%s/%s", cwd, path);
	else
		return NULL;
	slash = strrchr(full, '/');
	if (slash == full)
		slash[1] = '\0';
	else
		*slash = '\0';
	return full;
}

/* --------------------------------------------------------------- expansion */

/* glibc's is_dst(): "$NAME" followed by the end or '/', or "${NAME}".
 * Returns the length after the '$', 0 when it is not that token. */
static size_t
is_dst(const char *s, const char *ref)
{
	size_t rl = strlen(ref);

	if (*s == '{')
		return strncmp(s + 1, ref, rl) == 0 && s[1 + rl] == '}' ? rl + 2 : 0;
	if (strncmp(s, ref, rl) != 0)
		return 0;
	return s[rl] == '\0' || s[rl] == '/' ? rl : 0;
}

/* Expands $ORIGIN, $PLATFORM and $LIB; returns NULL and sets *why when a
 * token has no value, which makes glibc drop the entry. */
char *
rv_expand_dst(const struct world *w, const char *s, const char *origin,
    const char **why)
{
	struct strbuf sb = STRBUF_INIT;

	while (*s != '\0') {
		const char *repl = NULL;
		size_t len;

		if (*s != '$') {
			strbuf_putc(&sb, *s++);
			continue;
		}
		if ((len = is_dst(s + 1, "ORIGIN")) != 0) {
			repl = origin;
			*why = _("$ORIGIN has no value here");
		} else if ((len = is_dst(s + 1, "PLATFORM")) != 0) {
			repl = w->env->prof->dst_platform;
			*why = _("$PLATFORM has no value here");
		} else if ((len = is_dst(s + 1, "LIB")) != 0) {
			repl = w->env->prof->dst_lib;
			*why = _("$LIB has no value here");
		}
		if (len == 0) {
			strbuf_putc(&sb, *s++);
			continue;
		}
		if (repl == NULL) {
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_puts(&sb, repl);
		s += 1 + len;
	}
	return strbuf_take(&sb);
}

/* fillin_rpath(): split, expand, drop trailing slashes, keep each
 * directory once per list. */
static void
fill_list(struct world *w, struct search_list *l, const char *value,
    const char *seps, const char *origin)
{
	char *copy = xstrdup(value), *rest = copy, *tok;
	struct strmap seen = STRMAP_INIT;

	while ((tok = strsep(&rest, seps)) != NULL) {
		const char *why = NULL;
		char *dir;
		size_t len;

		if (tok[0] == '\0') {
			dir = xstrdup("");
		} else if ((dir = rv_expand_dst(w, tok, origin, &why)) == NULL) {
			strv_pushf(&l->dropped, "%s\t%s", tok, why);
			continue;
		}
		len = strlen(dir);
		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = '\0';
		if (dir[0] == '\0' && w->env->cwd == NULL) {
			strv_pushf(&l->dropped, "%s\t%s", tok,
			    _("the current directory, which is not searched under --root"));
			free(dir);
			continue;
		}
		if (!strmap_put(&seen, dir, l->dirs.n)) {
			free(dir);
			continue;
		}
		strv_push_owned(&l->dirs, dir);
		strv_push(&l->specs, strcmp(tok, l->dirs.v[l->dirs.n - 1]) == 0 ?
		    "" : tok);
	}
	strmap_free(&seen);
	free(copy);
	l->done = true;
}

struct search_list *
rv_object_list(struct world *w, struct object *o, bool runpath)
{
	struct search_list *l = runpath ? &o->runpath : &o->rpath;
	const char *value;

	if (!l->done) {
		value = !o->have_elf ? NULL :
		    runpath ? o->elf.runpath : o->elf.rpath;
		/* An empty DT_RPATH/DT_RUNPATH is no list at all (glibc's
		 * decompose_rpath), though an empty DT_RUNPATH still turns
		 * the DT_RPATH chain off. */
		if (value != NULL && value[0] != '\0')
			fill_list(w, l, value, ":", o->origin);
		l->done = true;
	}
	return l;
}

/* --------------------------------------------------------------- closure */

static size_t
add_object(struct world *w, const char *name, const char *path, int loader)
{
	struct object *o = VEC_PUSH(&w->objs);

	if (name != NULL)
		strv_push(&o->names, name);
	o->path = path != NULL ? xstrdup(path) : NULL;
	o->loader = loader;
	o->resolution = (size_t)-1;
	return w->objs.n - 1;
}

static void
object_load_elf(struct world *w, struct object *o)
{
	struct stat st;

	if (elfobj_read(w->env->sr, o->path, ELFOBJ_DYNAMIC, &o->elf,
	    &o->elf_error) == 0)
		o->have_elf = true;
	if (sysroot_stat(w->env->sr, o->path, &st) == 0) {
		o->dev = st.st_dev;
		o->ino = st.st_ino;
		o->have_id = true;
	}
}

/* The object already loaded from the same file (glibc compares device and
 * inode after opening), or -1. */
static ssize_t
find_same_file(const struct world *w, const char *path)
{
	struct stat st;

	if (sysroot_stat(w->env->sr, path, &st) != 0)
		return -1;
	for (size_t i = 0; i < w->objs.n; i++) {
		const struct object *o = &w->objs.v[i];

		if (o->have_id && o->dev == st.st_dev && o->ino == st.st_ino)
			return (ssize_t)i;
	}
	return -1;
}

/* Maps name for loader into the world: a new object, an old one, or a
 * fake for a name not found. Returns the search's result. */
static enum try_result
map_object(struct world *w, struct closure *c, const char *name,
    ssize_t loader, bool trace_missing)
{
	struct resolution *r = VEC_PUSH(&c->resolutions);
	enum try_result tr = rv_search(w, name, loader, r);
	size_t rix = c->resolutions.n - 1;
	ssize_t same;

	if (tr == TRY_FOUND && r->via != STEP_LOADED &&
	    (same = find_same_file(w, r->resolved)) >= 0) {
		/* A second name for a file already loaded: glibc adds the
		 * name to that object instead of loading it again. */
		strv_push(&w->objs.v[same].names, name);
		r->via = STEP_LOADED;
		free(r->resolved);
		r->resolved = xstrdup(w->objs.v[same].path);
	} else if (tr == TRY_FOUND && r->via != STEP_LOADED) {
		size_t ix = add_object(w, name, r->resolved, (int)loader);
		struct object *o = &w->objs.v[ix];

		o->origin = origin_of(r->resolved, w->env->cwd);
		o->resolution = rix;
		object_load_elf(w, o);
	} else if (tr != TRY_FOUND) {
		c->missing++;
		if (trace_missing && tr == TRY_NONE) {
			size_t ix = add_object(w, name, NULL, (int)loader);

			w->objs.v[ix].faked = true;
			w->objs.v[ix].resolution = rix;
		}
	}
	return tr;
}

/* _dl_map_object_deps(): breadth first from object start. Stops at a
 * fatal error as glibc does. */
static enum try_result
map_deps(struct world *w, struct closure *c, size_t start)
{
	for (size_t i = start; i < w->objs.n; i++) {
		struct object *o = &w->objs.v[i];

		if (o->faked || !o->have_elf)
			continue;
		for (size_t j = 0; j < w->objs.v[i].elf.needed.n; j++) {
			/* map_object may move objs: index again each time. */
			char *name = xstrdup(w->objs.v[i].elf.needed.v[j]);
			enum try_result tr = map_object(w, c, name, (ssize_t)i, true);

			free(name);
			if (tr == TRY_FATAL)
				return tr;
		}
	}
	return TRY_NONE;
}

static void
world_init(struct world *w, const struct loader_env *env)
{
	memset(w, 0, sizeof *w);
	w->env = env;
	w->dc = env->dirs != NULL ? env->dirs : &w->own_dc;
	w->abi_flags = ldcache_abi_flags(env->prof->elf_class, env->prof->machine);
}

/* The program (path NULL: a plain C program, which needs libc) and the
 * dynamic loader, which is always there. */
static int
world_main(struct world *w, struct closure *c, const char *path, char **err)
{
	struct object *o;
	size_t ix;

	w->main = add_object(w, NULL, path, -1);
	o = &w->objs.v[w->main];
	if (path != NULL) {
		char *real = NULL;
		bool exec;

		object_load_elf(w, o);
		if (!o->have_elf) {
			*err = o->elf_error != NULL ? xstrdup(o->elf_error) :
			    xasprintf("%s: %s", path, _("cannot be read"));
			return -1;
		}
		/* The kernel runs a program from its real path and glibc
		 * takes $ORIGIN from /proc/self/exe; a library's origin is
		 * the directory it was opened from. */
		exec = o->elf.interp != NULL;
		if (exec && sysroot_realpath(w->env->sr, path, &real) == 0) {
			o->origin = origin_of(real, w->env->cwd);
			free(real);
		} else {
			o->origin = origin_of(path, w->env->cwd);
		}
	} else {
		o->have_elf = true;
		strv_push(&o->elf.needed, "libc.so.6");
	}
	ix = add_object(w, w->env->prof->ldso_soname,
	    o->have_elf && o->elf.interp != NULL ? o->elf.interp :
	    w->env->prof->ldso, -1);
	w->objs.v[ix].have_id = false;
	fill_list(w, &w->llp, w->env->ld_library_path != NULL ?
	    w->env->ld_library_path : "", ":;", w->objs.v[w->main].origin);
	/* An empty LD_LIBRARY_PATH is no search path at all. */
	if (w->env->ld_library_path == NULL || w->env->ld_library_path[0] == '\0') {
		strv_free(&w->llp.dirs);
		strv_free(&w->llp.specs);
		strv_free(&w->llp.dropped);
	}
	(void)c;
	return 0;
}

static void
world_free(struct world *w)
{
	for (size_t i = 0; i < w->objs.n; i++)
		object_free(&w->objs.v[i]);
	free(w->objs.v);
	search_list_free(&w->llp);
	rv_dir_cache_free(&w->own_dc);
	rv_step_clear(&w->spare);
}

/* Moves the world's objects into the public closure, from index from. */
static void
export_objects(struct world *w, struct closure *c, size_t from,
    size_t res_base)
{
	for (size_t i = from; i < w->objs.n; i++) {
		struct object *o = &w->objs.v[i];
		struct loaded_obj *lo;

		if (o->faked)
			continue;
		lo = VEC_PUSH(&c->objs);
		lo->name = o->names.n > 0 ? xstrdup(o->names.v[0]) : NULL;
		lo->path = o->path != NULL ? xstrdup(o->path) : NULL;
		lo->loader = o->loader;
		lo->elf = o->elf;
		memset(&o->elf, 0, sizeof o->elf);
		o->have_elf = false;
		lo->elf_error = o->elf_error;
		o->elf_error = NULL;
		lo->resolution = o->resolution == (size_t)-1 ? (size_t)-1 :
		    o->resolution - res_base;
	}
}

/* ----------------------------------------------------------- other copies */

/* The files already named, by device and inode, so a copy seen through
 * two directories (lib -> lib64) is named once. */
struct seen_files {
	struct {
		struct stat	*v;
		size_t		 n, cap;
	} st;
};

static bool
seen_before(struct seen_files *seen, const struct stat *st)
{
	for (size_t i = 0; i < seen->st.n; i++)
		if (seen->st.v[i].st_dev == st->st_dev &&
		    seen->st.v[i].st_ino == st->st_ino)
			return true;
	*(struct stat *)VEC_PUSH(&seen->st) = *st;
	return false;
}

static void
copies_in(struct world *w, struct resolution *r, const char *dir,
    struct seen_files *seen)
{
	const struct loader_profile *prof = w->env->prof;
	struct dir_entry *base = rv_dir_get(w->dc, w->env->sr, dir);

	for (size_t i = 0; i <= prof->subdirs.n; i++) {
		const char *sub = i < prof->subdirs.n ? prof->subdirs.v[i] : NULL;
		const struct dir_entry *d;
		char *sdir;
		struct stat st;

		if (!rv_sub_may_exist(base, &prof->subdirs, i))
			continue;
		sdir = sub != NULL ? rv_join3(dir, NULL, sub) : xstrdup(dir);
		d = rv_dir_get(w->dc, w->env->sr, sdir);
		free(sdir);
		if (d->state != DIR_LISTED || !rv_dir_may_have(d, r->name))
			continue;
		{
			char *path = rv_join3(dir, sub, r->name);

			if ((r->resolved != NULL && strcmp(path, r->resolved) == 0) ||
			    strv_contains(&r->other_copies, path) ||
			    (sysroot_stat(w->env->sr, path, &st) == 0 &&
			    seen_before(seen, &st)))
				free(path);
			else
				strv_push_owned(&r->other_copies, path);
		}
	}
}

static void
find_copies(struct world *w, struct resolution *r)
{
	const struct loader_env *env = w->env;
	struct seen_files seen = { { NULL, 0, 0 } };
	struct stat winst;

	if (strchr(r->name, '/') != NULL)
		return;
	if (r->resolved != NULL && sysroot_stat(env->sr, r->resolved, &winst) == 0)
		(void)seen_before(&seen, &winst);
	for (size_t i = 0; i < r->steps.n; i++)
		if (r->steps.v[i].dir != NULL)
			copies_in(w, r, r->steps.v[i].dir, &seen);
	for (size_t i = 0; i < env->prof->system_dirs.n; i++)
		copies_in(w, r, env->prof->system_dirs.v[i], &seen);
	if (env->cache != NULL) {
		for (size_t i = 0; i < env->cache->entries.n; i++) {
			const struct ldcache_entry *e = &env->cache->entries.v[i];
			char *dir;

			if (strcmp(e->key, r->name) != 0)
				continue;
			dir = xstrdup(e->value);
			if (strrchr(dir, '/') != NULL && strrchr(dir, '/') != dir)
				*strrchr(dir, '/') = '\0';
			copies_in(w, r, dir, &seen);
			free(dir);
		}
	}
	if (env->extra_dirs != NULL)
		for (size_t i = 0; i < env->extra_dirs->n; i++)
			copies_in(w, r, env->extra_dirs->v[i], &seen);
	if (env->ldconf_dirs != NULL)
		for (size_t i = 0; i < env->ldconf_dirs->n; i++)
			copies_in(w, r, env->ldconf_dirs->v[i], &seen);
	free(seen.st.v);
}

/* ------------------------------------------------------------------- API */

bool
resolve_name(const struct loader_env *env, const char *name,
    const char *requester, struct resolution *out)
{
	struct closure c;
	bool ok;

	ok = resolve_dlopen(env, name, requester, out, &c, NULL) == 0 &&
	    out->resolved != NULL;
	closure_free(&c);
	return ok;
}

/* Whether path is an executable (it names a program interpreter): it is
 * then the program, not a library loaded into one. */
static int
is_program(const struct world *w, const char *path, bool *exec, char **err)
{
	struct elfobj probe;

	if (elfobj_read(w->env->sr, path, ELFOBJ_DYNAMIC, &probe, err) != 0)
		return -1;
	*exec = probe.interp != NULL;
	elfobj_free(&probe);
	return 0;
}

/* Sets up the world in which requester calls dlopen(): program (NULL: a
 * plain program) runs with what it needs, and requester, a library, is
 * loaded into it with what it needs (NULL: the program itself calls).
 * *caller is the object whose DT_RPATH/DT_RUNPATH the search for the name
 * uses. */
static int
world_caller(struct world *w, struct closure *pre, const char *program,
    const char *requester, size_t *caller, char **err)
{
	if (world_main(w, pre, program, err) != 0)
		return -1;
	/* What the program loaded before anything called dlopen(). */
	map_deps(w, pre, w->main);
	*caller = w->main;
	if (requester != NULL) {
		size_t ix = add_object(w, NULL, requester, -1);

		w->objs.v[ix].origin = origin_of(requester, w->env->cwd);
		object_load_elf(w, &w->objs.v[ix]);
		map_deps(w, pre, ix);
		*caller = ix;
	}
	return 0;
}

int
resolve_dlopen(const struct loader_env *env, const char *name,
    const char *requester, struct resolution *out, struct closure *deps,
    char **err)
{
	return resolve_dlopen_in(env, NULL, name, requester, out, deps, err);
}

int
resolve_dlopen_in(const struct loader_env *env, const char *program,
    const char *name, const char *requester, struct resolution *out,
    struct closure *deps, char **err)
{
	struct world w;
	struct closure pre;
	enum try_result tr;
	size_t first, caller;
	char *e = NULL;
	bool exec = false;
	/* Who the answer names as the requester: nobody for a plain program. */
	bool named = requester != NULL || program != NULL;

	memset(out, 0, sizeof *out);
	memset(deps, 0, sizeof *deps);
	memset(&pre, 0, sizeof pre);
	world_init(&w, env);
	/* An executable requester is the program itself. */
	if (requester != NULL && program == NULL &&
	    is_program(&w, requester, &exec, &e) == 0 && exec) {
		program = requester;
		requester = NULL;
	}
	if (e != NULL ||
	    world_caller(&w, &pre, program, requester, &caller, &e) != 0) {
		out->name = xstrdup(name);
		out->requester = requester != NULL ? xstrdup(requester) : NULL;
		out->error = e;
		if (err != NULL)
			*err = xstrdup(e);
		closure_free(&pre);
		world_free(&w);
		return -1;
	}
	/* What the program and requester loaded is in the world; their
	 * searches are not part of the answer, and the caps count the
	 * answer's own steps. */
	closure_free(&pre);
	w.steps_kept = 0;
	first = w.objs.n;
	{
		struct resolution *r = VEC_PUSH(&deps->resolutions);

		tr = rv_search(&w, name, (ssize_t)caller, r);
		if (tr == TRY_FOUND && r->via != STEP_LOADED) {
			ssize_t same = find_same_file(&w, r->resolved);

			if (same >= 0) {
				free(r->resolved);
				r->resolved = xstrdup(w.objs.v[same].path);
				r->via = STEP_LOADED;
			}
		}
		find_copies(&w, r);
		*out = *r;
		memset(r, 0, sizeof *r);
		deps->resolutions.n = 0;
		/* dlopen() gives the new object no loader: the caller's
		 * DT_RPATH served the name itself, not what it needs (the
		 * program's still does). */
		if (tr == TRY_FOUND && out->via != STEP_LOADED) {
			size_t ix = add_object(&w, name, out->resolved, -1);

			w.objs.v[ix].origin = origin_of(out->resolved, env->cwd);
			object_load_elf(&w, &w.objs.v[ix]);
			map_deps(&w, deps, ix);
		}
	}
	if (!named && out->requester != NULL)
		FREE(&out->requester);
	export_objects(&w, deps, first, 0);
	world_free(&w);
	return 0;
}

int
resolve_closure(const struct loader_env *env, const char *path,
    struct closure *out, char **err)
{
	struct world w;

	memset(out, 0, sizeof *out);
	*err = NULL;
	world_init(&w, env);
	if (world_main(&w, out, path, err) != 0) {
		world_free(&w);
		return -1;
	}
	map_deps(&w, out, w.main);
	for (size_t i = 0; i < out->resolutions.n; i++)
		if (out->resolutions.v[i].resolved == NULL)
			find_copies(&w, &out->resolutions.v[i]);
	export_objects(&w, out, 0, 0);
	world_free(&w);
	return 0;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

void
resolution_copy(struct resolution *dst, const struct resolution *src)
{
	memset(dst, 0, sizeof *dst);
	dst->name = dup_or_null(src->name);
	dst->requester = dup_or_null(src->requester);
	dst->resolved = dup_or_null(src->resolved);
	dst->via = src->via;
	dst->error = dup_or_null(src->error);
	dst->other_class = src->other_class;
	dst->steps_cut = src->steps_cut;
	for (size_t i = 0; i < src->steps.n; i++) {
		const struct resolve_step *a = &src->steps.v[i];
		struct resolve_step *b = VEC_PUSH(&dst->steps);

		b->source = a->source;
		b->dir = dup_or_null(a->dir);
		b->spec = dup_or_null(a->spec);
		b->owner = dup_or_null(a->owner);
		b->path = dup_or_null(a->path);
		b->result = a->result;
		b->detail = dup_or_null(a->detail);
		b->unreadable = a->unreadable;
	}
	for (size_t i = 0; i < src->other_copies.n; i++)
		strv_push(&dst->other_copies, src->other_copies.v[i]);
}

void
resolution_free(struct resolution *r)
{
	free(r->name);
	free(r->requester);
	free(r->resolved);
	free(r->error);
	for (size_t i = 0; i < r->steps.n; i++)
		rv_step_clear(&r->steps.v[i]);
	free(r->steps.v);
	strv_free(&r->other_copies);
	memset(r, 0, sizeof *r);
}

void
closure_free(struct closure *c)
{
	for (size_t i = 0; i < c->objs.n; i++) {
		free(c->objs.v[i].name);
		free(c->objs.v[i].path);
		elfobj_free(&c->objs.v[i].elf);
		free(c->objs.v[i].elf_error);
	}
	free(c->objs.v);
	for (size_t i = 0; i < c->resolutions.n; i++)
		resolution_free(&c->resolutions.v[i]);
	free(c->resolutions.v);
	memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- session */

void
loader_session_init(struct loader_session *s, const struct sysroot *sr,
    char *const *envp)
{
	loader_session_init_prof(s, sr, envp, NULL);
}

void
loader_session_init_prof(struct loader_session *s, const struct sysroot *sr,
    char *const *envp, const struct loader_profile *prof)
{
	const char *llp = envp_get(envp, "LD_LIBRARY_PATH");
	char *err = NULL;
	int rc;

	memset(s, 0, sizeof *s);
	if (prof != NULL) {
		s->prof_borrowed = true;
	} else {
		loader_profile_init(&s->prof, sr);
		prof = &s->prof;
	}
	rc = ldcache_read(sr, prof->cache_path, &s->cache, &err);
	if (rc == 0) {
		s->have_cache = true;
		free(err);
	} else if (rc == ENOENT) {
		free(err);
	} else {
		s->cache_error = err != NULL ? err :
		    xasprintf("%s: %s", prof->cache_path, sysroot_strerror(rc));
	}
	if (sysroot_is_host(sr)) {
		s->cwd = getcwd(NULL, 0);
	}
	s->ld_library_path = llp != NULL ? xstrdup(llp) : NULL;
	s->env.sr = sr;
	s->env.prof = prof;
	s->env.cache = s->have_cache ? &s->cache : NULL;
	s->env.ld_library_path = s->ld_library_path;
	s->env.cwd = s->cwd;
	/* Every resolution of the session looks at the same directories
	 * (doctor resolves a dozen names through one LD_LIBRARY_PATH):
	 * each is stat'ed and listed once, not once per name. */
	s->env.dirs = xcalloc(1, sizeof *s->env.dirs);
}

void
loader_session_free(struct loader_session *s)
{
	if (!s->prof_borrowed)
		loader_profile_free(&s->prof);
	if (s->have_cache)
		ldcache_free(&s->cache);
	free(s->cache_error);
	free(s->cwd);
	free(s->ld_library_path);
	rv_dir_cache_free(s->env.dirs);
	free(s->env.dirs);
	memset(s, 0, sizeof *s);
}

