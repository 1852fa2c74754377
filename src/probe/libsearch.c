/* The library search: where a plain dlopen("libX.so.N") would find the
 * CUDA sonames that matter, by a simple model of the loader.
 *
 * It runs last, after the toolkit and cuDNN probes, so it can also look
 * for the runtime sonames they found. The model searches LD_LIBRARY_PATH,
 * then the ld.so.conf directories (standing in for /etc/ld.so.cache), then
 * the default directories; the full glibc model (RPATH, RUNPATH, the
 * cache, ELF class checks) replaces it later and keeps struct lib_fact.
 *
 * Each search directory is listed once and every soname is looked up in
 * the sorted listing, so many sonames over many directories stay cheap. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/version.h"
#include "util/xalloc.h"

/* The x86_64 defaults of Debian's and Fedora's glibc together. */
static const char *const default_dirs[] = {
	"/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu",
	"/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib",
};

struct search_dir {
	char		*dir;
	const char	*via;
	bool		 listed;	/* names holds the sorted listing */
	struct strv	 names;
};

struct search {
	struct probe_ctx	*ctx;
	struct {
		struct search_dir	*v;
		size_t			 n, cap;
	} dirs;
};

static bool
search_has_dir(const struct search *s, const char *dir)
{
	for (size_t i = 0; i < s->dirs.n; i++)
		if (strcmp(s->dirs.v[i].dir, dir) == 0)
			return true;
	return false;
}

static void
search_add(struct search *s, const char *dir, const char *via)
{
	struct search_dir *d;
	int rc;

	if (search_has_dir(s, dir))
		return;
	d = VEC_PUSH(&s->dirs);
	d->dir = xstrdup(dir);
	d->via = via;
	rc = sysroot_list_dir(s->ctx->sr, dir, &d->names);
	d->listed = rc == 0;
	/* A directory that cannot be listed may still be searchable (x
	 * without r); lookups there fall back to stat. A missing one is
	 * already reported by the environment probe. */
	if (rc != 0 && rc != ENOENT && rc != ENOTDIR)
		facts_note(s->ctx->facts, dir,
		    _("cannot list a library search directory: %s"),
		    sysroot_strerror(rc));
}

static void
build_search(struct search *s)
{
	const struct facts *f = s->ctx->facts;
	const struct path_var *llp = &f->env.ld_library_path;
	bool skipped_empty = false;

	for (size_t i = 0; i < llp->entries.n; i++) {
		const struct path_entry *e = &llp->entries.v[i];

		if (e->duplicate_of >= 0 || e->exists == 0)
			continue;
		if (e->empty) {
			/* Under --root there is no meaningful current
			 * directory: the tree is not where a program runs. */
			if (!f->live_allowed) {
				skipped_empty = true;
				continue;
			}
			search_add(s, ".", "ld_library_path");
			continue;
		}
		search_add(s, e->value, "ld_library_path");
	}
	if (skipped_empty)
		facts_note(s->ctx->facts, "LD_LIBRARY_PATH",
		    _("an empty entry means the current directory, which is not searched under --root"));
	for (size_t i = 0; i < f->env.ldconf.n; i++)
		if (f->env.ldconf.v[i].exists != 0)
			search_add(s, f->env.ldconf.v[i].dir, "ld.so.conf");
	for (size_t i = 0; i < sizeof default_dirs / sizeof default_dirs[0]; i++)
		search_add(s, default_dirs[i], "default");
}

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

static char *
join(const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	return xasprintf("%s%s%s", dir, dl > 0 && dir[dl - 1] == '/' ? "" : "/",
	    name);
}

/* The loader opens the first candidate that is a readable file; a
 * dangling link or a directory of that name is passed over. */
static char *
lookup(const struct search *s, const struct search_dir *d, const char *soname)
{
	struct stat st;
	char *path;

	if (d->listed && (d->names.n == 0 || bsearch(soname, d->names.v,
	    d->names.n, sizeof *d->names.v, cmp_name) == NULL))
		return NULL;
	path = join(d->dir, soname);
	if (sysroot_stat(s->ctx->sr, path, &st) != 0 || !S_ISREG(st.st_mode))
		FREE(&path);
	return path;
}

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

/* The sonames to resolve: the driver's, every runtime and cuDNN the other
 * probes found, then any other runtime or cuDNN soname in the search
 * directories (sorted, so the order does not depend on the directories). */
static void
collect_sonames(const struct search *s, struct strv *sonames)
{
	const struct facts *f = s->ctx->facts;
	struct strv extra = STRV_INIT;

	add_soname(sonames, "libcuda.so.1");
	add_soname(sonames, "libnvidia-ml.so.1");
	for (size_t i = 0; i < f->toolkits.n; i++)
		for (size_t j = 0; j < f->toolkits.v[i].cudart.n; j++)
			add_soname(sonames, f->toolkits.v[i].cudart.v[j].soname);
	for (size_t i = 0; i < f->cudnn.n; i++)
		add_soname(sonames, f->cudnn.v[i].soname);
	for (size_t i = 0; i < s->dirs.n; i++) {
		const struct search_dir *d = &s->dirs.v[i];

		for (size_t j = 0; j < d->names.n; j++) {
			const char *name = d->names.v[j];

			if ((is_soname_like(name, "libcudart.so.", 2) ||
			    is_soname_like(name, "libcudnn.so.", 1)) &&
			    !strv_contains(sonames, name) &&
			    !strv_contains(&extra, name))
				strv_push(&extra, name);
		}
	}
	strv_sort(&extra);
	for (size_t i = 0; i < extra.n; i++)
		strv_push(sonames, extra.v[i]);
	strv_free(&extra);
}

static void
resolve(struct search *s, const char *soname)
{
	struct lib_fact *l = VEC_PUSH(&s->ctx->facts->libraries);

	l->soname = xstrdup(soname);
	for (size_t i = 0; i < s->dirs.n; i++) {
		const struct search_dir *d = &s->dirs.v[i];
		char *path = lookup(s, d, soname);
		int rc;

		if (path == NULL)
			continue;
		l->resolved = path;
		l->via = xstrdup(d->via);
		rc = sysroot_realpath(s->ctx->sr, path, &l->target);
		if (rc != 0)
			facts_note(s->ctx->facts, path,
			    _("cannot resolve the file behind this library: %s"),
			    sysroot_strerror(rc));
		return;
	}
}

void
probe_libraries(struct probe_ctx *ctx)
{
	struct search s = { ctx, { NULL, 0, 0 } };
	struct strv sonames = STRV_INIT;

	build_search(&s);
	collect_sonames(&s, &sonames);
	for (size_t i = 0; i < sonames.n; i++)
		resolve(&s, sonames.v[i]);
	strv_free(&sonames);
	for (size_t i = 0; i < s.dirs.n; i++) {
		free(s.dirs.v[i].dir);
		strv_free(&s.dirs.v[i].names);
	}
	free(s.dirs.v);
}

void
probe_resolve_library(const struct loader_env *env, const char *soname,
    struct lib_fact *out)
{
	(void)env;
	memset(out, 0, sizeof *out);
	out->soname = xstrdup(soname);
}
