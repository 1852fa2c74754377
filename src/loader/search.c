/* One name's search, step by step, in ld.so's order: the loaded objects,
 * DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, ld.so.cache and the default
 * directories, each try recorded as a step; see resolve.c. */
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


/* ------------------------------------------------------------------ steps */

void
rv_step_clear(struct resolve_step *s)
{
	free(s->dir);
	free(s->spec);
	free(s->owner);
	free(s->path);
	free(s->detail);
	memset(s, 0, sizeof *s);
}

/* The steps a search made, kept or not. */
static size_t
steps_made(const struct resolution *r)
{
	return r->steps.n + r->steps_cut;
}

/* A new step of r. Past RESOLVE_STEPS_PER_NAME steps for r or
 * RESOLVE_STEPS_PER_RUN for the run, only the winner or the file that
 * stops the loader is kept (the answer needs it); any other step is
 * counted in r->steps_cut and written to the world's spare, so a crafted
 * library (10,000 RPATH entries searched for each of 300 needs) cannot
 * make millions of them. The search itself goes on to the same answer. */
static struct resolve_step *
add_step(struct world *w, struct resolution *r, enum step_source src,
    const char *dir, const char *spec, const char *owner,
    enum step_result result)
{
	struct resolve_step *s;

	if (result != STEP_FOUND && result != STEP_FATAL &&
	    (r->steps.n >= RESOLVE_STEPS_PER_NAME ||
	    w->steps_kept >= RESOLVE_STEPS_PER_RUN)) {
		r->steps_cut++;
		s = &w->spare;
		rv_step_clear(s);
		return s;
	}
	s = VEC_PUSH(&r->steps);
	w->steps_kept++;
	s->source = src;
	s->dir = dir != NULL ? xstrdup(dir) : NULL;
	s->spec = spec != NULL && spec[0] != '\0' ? xstrdup(spec) : NULL;
	s->owner = owner != NULL ? xstrdup(owner) : NULL;
	s->result = result;
	return s;
}

char *
rv_join3(const char *dir, const char *sub, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t dl = strlen(dir);

	strbuf_puts(&sb, dir);
	if (dl > 0 && dir[dl - 1] != '/')
		strbuf_putc(&sb, '/');
	if (sub != NULL && sub[0] != '\0') {
		strbuf_puts(&sb, sub);
		strbuf_putc(&sb, '/');
	}
	strbuf_puts(&sb, name);
	return strbuf_take(&sb);
}


/* Whether path cannot be opened because a directory on the way cannot
 * be searched (mode 000, or r without x), as opposed to the file itself
 * being unreadable. */
static bool
dir_unsearchable(const struct sysroot *sr, const char *path)
{
	struct stat st;

	return sysroot_stat(sr, path, &st) == EACCES;
}

/* One candidate file: the header check of open_verify(). */
static enum try_result
try_file(struct world *w, struct resolution *r, enum step_source src,
    const char *dir, const char *spec, const char *owner, const char *path)
{
	const struct loader_env *env = w->env;
	char *why = NULL;
	enum elfobj_verdict v;
	struct resolve_step *s;

	v = elfobj_check(env->sr, path, env->prof->elf_class, env->prof->machine,
	    &why);
	if (v == ELFOBJ_NOACCESS && dir_unsearchable(env->sr, path)) {
		/* glibc passes over EACCES as over ENOENT; whether a file
		 * is there at all is unknown, so it is not a broken one. */
		s = add_step(w, r, src, dir, spec, owner, STEP_NOT_FOUND);
		s->detail = xasprintf(_("the directory cannot be searched: %s"),
		    why != NULL ? why : "?");
		free(why);
		return TRY_NONE;
	}
	switch (v) {
	case ELFOBJ_OK:
		s = add_step(w, r, src, dir, spec, owner, STEP_FOUND);
		s->path = xstrdup(path);
		free(why);
		return TRY_FOUND;
	case ELFOBJ_NOENT:
		free(why);
		return TRY_NONE;
	case ELFOBJ_NOACCESS:
	case ELFOBJ_WRONG_CLASS:
	case ELFOBJ_WRONG_MACHINE:
	case ELFOBJ_ENDS_LIST:
		if (v == ELFOBJ_WRONG_CLASS)
			r->other_class = true;
		s = add_step(w, r, src, dir, spec, owner, STEP_SKIPPED);
		s->unreadable = v == ELFOBJ_NOACCESS &&
		    sysroot_exists(env->sr, path);
		s->path = xstrdup(path);
		s->detail = why != NULL ? why : xstrdup(_("skipped"));
		if (v == ELFOBJ_ENDS_LIST) {
			char *d = xasprintf(_("%s; the loader gives up on the rest of this search list"),
			    s->detail);

			free(s->detail);
			s->detail = d;
			return TRY_ENDLIST;
		}
		return TRY_NONE;
	case ELFOBJ_FATAL:
		break;
	}
	s = add_step(w, r, src, dir, spec, owner, STEP_FATAL);
	s->path = xstrdup(path);
	s->detail = why != NULL ? why : xstrdup(_("cannot be loaded"));
	r->error = xasprintf("%s: %s", path, s->detail);
	return TRY_FATAL;
}

/* Whether capability subdirectory i (sub) of base can exist: its first
 * component must be in base's listing. This spares a stat(2) for each of
 * the twenty-odd subdirectories of every search directory; the answer
 * for all of them is worked out once per directory. */
bool
rv_sub_may_exist(struct dir_entry *base, const struct strv *subdirs, size_t i)
{
	if (base->state == DIR_MISSING)
		return false;
	if (i >= subdirs->n || base->state != DIR_LISTED || i >= 64)
		return true;
	if (!base->subs_known) {
		for (size_t k = 0; k < subdirs->n && k < 64; k++) {
			const char *sub = subdirs->v[k], *slash = strchr(sub, '/');
			char *first = slash != NULL ?
			    xstrndup(sub, (size_t)(slash - sub)) : xstrdup(sub);

			if (rv_dir_may_have(base, first))
				base->subs |= (uint64_t)1 << k;
			free(first);
		}
		base->subs_known = true;
	}
	return (base->subs & ((uint64_t)1 << i)) != 0;
}

/* open_path() for one directory: each capability subdirectory, then the
 * directory itself. */
static enum try_result
search_dir(struct world *w, struct resolution *r, enum step_source src,
    const char *dir, const char *spec, const char *owner, const char *name)
{
	const struct loader_profile *prof = w->env->prof;
	size_t before = steps_made(r);
	struct dir_entry *base = rv_dir_get(w->dc, w->env->sr, dir);
	bool any_dir = base->state != DIR_MISSING;

	for (size_t i = 0; i <= prof->subdirs.n; i++) {
		const char *sub = i < prof->subdirs.n ? prof->subdirs.v[i] : NULL;
		const struct dir_entry *d;
		char *sdir;
		enum try_result tr = TRY_NONE;

		if (!rv_sub_may_exist(base, &prof->subdirs, i))
			continue;
		sdir = sub != NULL ? rv_join3(dir, NULL, sub) : xstrdup(dir);
		d = rv_dir_get(w->dc, w->env->sr, sdir);
		if (rv_dir_may_have(d, name)) {
			char *path = rv_join3(dir, sub, name);

			tr = try_file(w, r, src, dir, spec, owner, path);
			free(path);
		}
		free(sdir);
		if (tr != TRY_NONE)
			return tr;
	}
	if (steps_made(r) == before)
		add_step(w, r, src, dir, spec, owner,
		    any_dir ? STEP_NOT_FOUND : STEP_DIR_MISSING);
	return TRY_NONE;
}

static enum try_result
search_list(struct world *w, struct resolution *r, enum step_source src,
    const struct search_list *l, const char *owner, const char *name)
{
	for (size_t i = 0; i < l->dropped.n; i++) {
		const char *tab = strchr(l->dropped.v[i], '\t');
		char *spec = xstrndup(l->dropped.v[i],
		    (size_t)(tab - l->dropped.v[i]));
		struct resolve_step *s = add_step(w, r, src, NULL, spec, owner,
		    STEP_DROPPED);

		s->detail = xstrdup(tab + 1);
		free(spec);
	}
	for (size_t i = 0; i < l->dirs.n; i++) {
		enum try_result tr = search_dir(w, r, src, l->dirs.v[i],
		    l->specs.v[i], owner, name);

		if (tr == TRY_ENDLIST)
			return TRY_NONE;
		if (tr != TRY_NONE)
			return tr;
	}
	return TRY_NONE;
}

static bool
in_system_dir(const struct loader_profile *prof, const char *path)
{
	for (size_t i = 0; i < prof->system_dirs.n; i++) {
		size_t n = strlen(prof->system_dirs.v[i]);

		if (strncmp(path, prof->system_dirs.v[i], n) == 0 &&
		    path[n] == '/')
			return true;
	}
	return false;
}

static enum try_result
search_cache(struct world *w, struct resolution *r, const struct object *loader,
    const char *name)
{
	const struct loader_env *env = w->env;
	const struct ldcache_entry *e;
	struct resolve_step *s;

	if (env->cache == NULL && env->ldconf_dirs != NULL) {
		for (size_t i = 0; i < env->ldconf_dirs->n; i++) {
			enum try_result tr = search_dir(w, r, STEP_CACHE,
			    env->ldconf_dirs->v[i], NULL, NULL, name);

			if (tr == TRY_ENDLIST)
				return TRY_NONE;
			if (tr != TRY_NONE)
				return tr;
		}
		return TRY_NONE;
	}
	if (env->cache == NULL) {
		s = add_step(w, r, STEP_CACHE, NULL, NULL, NULL, STEP_NOT_FOUND);
		s->detail = xasprintf(_("no usable %s"), env->prof->cache_path);
		return TRY_NONE;
	}
	e = ldcache_lookup(env->cache, name, w->abi_flags,
	    &env->prof->hwcaps_active);
	if (e == NULL) {
		add_step(w, r, STEP_CACHE, NULL, NULL, NULL, STEP_NOT_FOUND);
		return TRY_NONE;
	}
	/* A DF_1_NODEFLIB requester refuses cache entries that lie in the
	 * default directories. */
	if (loader != NULL && loader->have_elf && loader->elf.nodeflib &&
	    in_system_dir(env->prof, e->value)) {
		s = add_step(w, r, STEP_CACHE, NULL, NULL, NULL, STEP_NODEFLIB);
		s->path = xstrdup(e->value);
		s->detail = xstrdup(_("the requester is linked with -z nodeflib"));
		return TRY_NONE;
	}
	{
		size_t before = steps_made(r);
		enum try_result tr = try_file(w, r, STEP_CACHE, NULL, NULL, NULL,
		    e->value);

		if (tr == TRY_NONE && steps_made(r) == before) {
			s = add_step(w, r, STEP_CACHE, NULL, NULL, NULL, STEP_NOT_FOUND);
			s->path = xstrdup(e->value);
			s->detail = xstrdup(_("the cache names a file that is gone"));
		}
		return tr == TRY_ENDLIST ? TRY_NONE : tr;
	}
}

/* glibc drops DT_RPATH of an object that also has DT_RUNPATH
 * (elf/get-dynamic-info.h). */
static bool
has_rpath(const struct object *o)
{
	return o->have_elf && o->elf.rpath != NULL && o->elf.runpath == NULL;
}

/* _dl_name_match_p() plus the SONAME check of _dl_map_object(). */
static ssize_t
find_loaded(const struct world *w, const char *name)
{
	for (size_t i = 0; i < w->objs.n; i++) {
		const struct object *o = &w->objs.v[i];

		if (o->faked)
			continue;
		if (strv_contains(&o->names, name) ||
		    (o->path != NULL && strcmp(o->path, name) == 0) ||
		    (o->have_elf && o->elf.soname != NULL &&
		    strcmp(o->elf.soname, name) == 0))
			return (ssize_t)i;
	}
	return -1;
}

/* _dl_map_object(): the search for name on behalf of the object at
 * loader (-1: none). Fills r; returns the result. */
enum try_result
rv_search(struct world *w, const char *name, ssize_t loader_ix,
    struct resolution *r)
{
	const struct loader_env *env = w->env;
	struct object *loader = loader_ix >= 0 ? &w->objs.v[loader_ix] : NULL;
	const struct object *main = &w->objs.v[w->main];
	enum try_result tr;
	const char *why = NULL;
	ssize_t hit;

	r->name = xstrdup(name);
	if (loader != NULL && loader->path != NULL)
		r->requester = xstrdup(loader->path);
	if ((hit = find_loaded(w, name)) >= 0) {
		struct resolve_step *s = add_step(w, r, STEP_LOADED, NULL, NULL,
		    NULL, STEP_FOUND);

		s->path = xstrdup(w->objs.v[hit].path != NULL ?
		    w->objs.v[hit].path : name);
		r->resolved = xstrdup(s->path);
		r->via = STEP_LOADED;
		return TRY_FOUND;
	}
	if (strchr(name, '/') != NULL) {
		char *path = rv_expand_dst(w, name, loader != NULL ?
		    loader->origin : NULL, &why);

		if (path == NULL) {
			struct resolve_step *s = add_step(w, r, STEP_PATH, NULL,
			    name, NULL, STEP_DROPPED);

			s->detail = xstrdup(why);
			r->error = xasprintf(_("%s: %s"), name, why);
			return TRY_NONE;
		}
		tr = try_file(w, r, STEP_PATH, NULL, NULL, NULL, path);
		if (tr == TRY_ENDLIST)
			tr = TRY_NONE;
		if (tr == TRY_FOUND)
			r->resolved = path;
		else
			free(path);
		if (tr == TRY_NONE) {
			struct resolve_step *s = add_step(w, r, STEP_PATH, NULL,
			    NULL, NULL, STEP_NOT_FOUND);

			s->path = xstrdup(name);
		}
		goto done;
	}

	/* DT_RPATH up the chain of loaders, then the program's, unless the
	 * requester has a DT_RUNPATH. */
	if (loader == NULL || !loader->have_elf || loader->elf.runpath == NULL) {
		bool did_main = false;

		for (ssize_t i = loader_ix; i >= 0; i = w->objs.v[i].loader) {
			struct object *o = &w->objs.v[i];

			if ((size_t)i == w->main)
				did_main = true;
			if (has_rpath(o)) {
				tr = search_list(w, r, STEP_RPATH,
				    rv_object_list(w, o, false), o->path, name);
				if (tr != TRY_NONE)
					goto done;
			}
		}
		if (!did_main && has_rpath(main)) {
			tr = search_list(w, r, STEP_RPATH,
			    rv_object_list(w, &w->objs.v[w->main], false),
			    main->path, name);
			if (tr != TRY_NONE)
				goto done;
		}
	}
	tr = search_list(w, r, STEP_LD_LIBRARY_PATH, &w->llp, NULL, name);
	if (tr != TRY_NONE)
		goto done;
	if (loader != NULL && loader->have_elf && loader->elf.runpath != NULL) {
		tr = search_list(w, r, STEP_RUNPATH, rv_object_list(w, loader, true),
		    loader->path, name);
		if (tr != TRY_NONE)
			goto done;
	}
	tr = search_cache(w, r, loader, name);
	if (tr != TRY_NONE)
		goto done;
	{
		const struct object *fl = loader != NULL ? loader : main;

		if (fl->have_elf && fl->elf.nodeflib) {
			struct resolve_step *s = add_step(w, r, STEP_DEFAULT, NULL,
			    NULL, fl->path, STEP_NODEFLIB);

			s->detail = xstrdup(_("the requester is linked with -z nodeflib"));
		} else {
			for (size_t i = 0; i < env->prof->system_dirs.n; i++) {
				tr = search_dir(w, r, STEP_DEFAULT,
				    env->prof->system_dirs.v[i], NULL, NULL, name);
				if (tr == TRY_ENDLIST)
					break;
				if (tr != TRY_NONE)
					goto done;
			}
		}
	}
	tr = TRY_NONE;
done:
	if (tr == TRY_FOUND) {
		const struct resolve_step *s = &r->steps.v[r->steps.n - 1];

		if (r->resolved == NULL)
			r->resolved = xstrdup(s->path);
		r->via = s->source;
	} else if (tr == TRY_NONE && r->error == NULL) {
		/* glibc names the class it passed over: the other one. */
		r->error = r->other_class ? xasprintf("%s: %s: ELFCLASS%d", name,
		    _("wrong ELF class"), env->prof->elf_class == 64 ? 32 : 64) :
		    xasprintf("%s: %s", name,
		    _("cannot open shared object file: No such file or directory"));
	}
	return tr;
}

