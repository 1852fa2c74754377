/* The matrix refresh; see update.h. Moved out of cmd_matrix.c so the
 * wizard runs the very same steps as `cudawiz matrix update`. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/fetch.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "matrix/select.h"
#include "matrix/update.h"
#include "util/xalloc.h"

/* The project's own published matrix comes from configure
 * (--with-matrix-url, MATRIX_URL in config.h); a build without one updates
 * from NVIDIA's manifests alone, rather than failing every update on a
 * file that is not published. */
/* NVIDIA's redistrib directories (compat-facts.md §8): their listings
 * name one manifest per release. */
#define CUDA_REDIST_URL \
	"https://developer.download.nvidia.com/compute/cuda/redist/"
#define CUDNN_REDIST_URL \
	"https://developer.download.nvidia.com/compute/cudnn/redist/"

static const char *const default_urls[] = {
	MATRIX_URL, CUDA_REDIST_URL, CUDNN_REDIST_URL,
};

/* One run's working state; what outlives it is in *u. */
struct run {
	const struct matrix_update_opts	*o;
	struct matrix_update	*u;
	struct fetch_opts	 fo;
	struct cache_meta	 old_meta;
	bool			 conditional;	/* the cache is the base */
	struct matrix		*fetched;	/* a cudawiz matrix from a source */
	size_t			 fetched_from;
	size_t			 index;		/* the source being fetched */
	bool			 cancelled;
};

static struct matrix_update_source *
add_source(struct matrix_update *u, const char *url, bool from_listing)
{
	struct matrix_update_source *s = VEC_PUSH(&u->src);

	s->url = xstrdup(url);
	s->from_listing = from_listing;
	return s;
}

/* The directory a listing's URL names, for the file names in it. */
static char *
listing_base(const char *url)
{
	size_t n = strcspn(url, "?#");

	while (n > 0 && url[n - 1] != '/')
		n--;
	return xstrndup(url, n);
}

static bool
looks_like_json(const char *body, size_t len)
{
	size_t i = 0;

	while (i < len && (body[i] == ' ' || body[i] == '\t' ||
	    body[i] == '\r' || body[i] == '\n'))
		i++;
	return i < len && (body[i] == '{' || body[i] == '[');
}

/* Decides what a 200 body is and keeps what is needed of it. Returns 0, or
 * -1 with *err the one line. */
static int
take_body(struct run *x, size_t idx, const struct fetch_result *res,
    char **err)
{
	struct matrix_update *u = x->u;
	struct matrix_update_source *s = &u->src.v[idx];
	struct strv names = STRV_INIT;
	char *why, *base, *next;

	if (looks_like_json(res->body, res->len)) {
		if (redistrib_is_manifest(res->body, res->len)) {
			if (redistrib_parse(res->body, res->len, &s->manifest,
			    &why) != 0) {
				*err = xasprintf(_("%s: not a valid NVIDIA "
				    "manifest: %s"), s->url, why);
				free(why);
				return -1;
			}
			s->kind = MATRIX_UPDATE_KIND_MANIFEST;
			return 0;
		}
		if (x->fetched != NULL) {
			*err = xasprintf(_("%s: a second cudawiz matrix (the "
			    "first came from %s); give one"), s->url,
			    u->src.v[x->fetched_from].url);
			return -1;
		}
		x->fetched = matrix_parse(res->body, res->len, &why);
		if (x->fetched == NULL) {
			*err = xasprintf(_("%s: not a valid cudawiz matrix: %s"),
			    s->url, why);
			free(why);
			return -1;
		}
		/* A newer release's keys load but are not kept: the
		 * cache is written from what this version read. */
		if (matrix_ignored_keys(x->fetched) > 0)
			strv_pushf(&x->u->notes, ngettext("%s: %zu key this "
			    "cudawiz does not know is not kept",
			    "%s: %zu keys this cudawiz does not know are not kept",
			    (unsigned long)matrix_ignored_keys(x->fetched)), s->url,
			    matrix_ignored_keys(x->fetched));
		x->fetched_from = idx;
		s->kind = MATRIX_UPDATE_KIND_MATRIX;
		return 0;
	}
	if (s->from_listing || redistrib_listing(res->body, res->len,
	    &names) == 0) {
		*err = xasprintf(s->from_listing ? _("%s: not JSON, so not an "
		    "NVIDIA manifest") : _("%s: neither JSON nor a directory "
		    "listing that names redistrib_*.json files"), s->url);
		strv_free(&names);
		return -1;
	}
	base = listing_base(res->url);
	next = xasprintf("%s%s", base, names.v[0]);
	s->kind = MATRIX_UPDATE_KIND_LISTING;
	s->found = xstrdup(names.v[0]);
	/* s is not used after this: add_source may move the vector. */
	add_source(u, next, true);
	free(next);
	free(base);
	strv_free(&names);
	return 0;
}

/* fetch's progress, passed on with which source it is. */
static int
on_progress(void *data, const char *url, uint64_t now, uint64_t total)
{
	struct run *x = data;

	if (x->o->progress(x->o->progress_arg, url, x->index, x->u->src.n,
	    now, total) != 0)
		x->cancelled = true;
	return x->cancelled;
}

static int
fetch_one(struct run *x, size_t idx, bool conditional, char **err)
{
	struct fetch_opts fo = x->fo;
	struct fetch_result res;
	const struct cache_validator *v;
	struct matrix_update_source *s = &x->u->src.v[idx];
	int rc;

	x->index = idx;
	/* A frame before the first byte: a slow connect shows which
	 * source it waits for, and a stop asked for already costs no
	 * request. */
	if (x->o->progress != NULL) {
		if (on_progress(x, s->url, 0, 0) != 0) {
			*err = xasprintf(_("%s: cancelled"), s->url);
			return -1;
		}
		fo.progress = on_progress;
		fo.progress_data = x;
	}
	v = conditional ? cache_meta_find(&x->old_meta, s->url) : NULL;
	if (v != NULL) {
		fo.if_none_match = v->etag;
		fo.if_modified_since = v->last_modified;
	}
	if (fetch(s->url, &fo, &res, err) != 0)
		return -1;
	s->status = res.status;
	FREE(&s->etag);
	FREE(&s->last_modified);
	if (res.not_modified) {
		s->kind = MATRIX_UPDATE_KIND_NONE;
		s->etag = v->etag != NULL ? xstrdup(v->etag) : NULL;
		s->last_modified = v->last_modified != NULL ?
		    xstrdup(v->last_modified) : NULL;
		fetch_result_free(&res);
		return 0;
	}
	s->etag = res.etag;
	s->last_modified = res.last_modified;
	res.etag = res.last_modified = NULL;
	rc = take_body(x, idx, &res, err);
	fetch_result_free(&res);
	return rc;
}

/* Fetches every source, and the manifests that listings name. */
static int
fetch_all(struct run *x, char **err)
{
	for (size_t i = 0; i < x->u->src.n; i++)
		if (fetch_one(x, i, x->conditional, err) != 0)
			return -1;
	/* A 304 means "what the cache holds", and the cache is about to be
	 * replaced by a fetched matrix: those sources are needed whole. */
	for (size_t i = 0; i < x->u->src.n && x->fetched != NULL; i++) {
		if (x->u->src.v[i].status != 304)
			continue;
		if (fetch_one(x, i, false, err) != 0)
			return -1;
	}
	return 0;
}

/* Merges the manifests into m, in the order given. */
static int
merge(struct matrix_update *u, struct matrix *m, char **err)
{
	for (size_t i = 0; i < u->src.n; i++) {
		struct matrix_update_source *s = &u->src.v[i];
		char *why;

		if (s->kind != MATRIX_UPDATE_KIND_MANIFEST)
			continue;
		s->applied = redistrib_apply(&s->manifest, m, &why);
		if (s->applied < 0) {
			*err = xasprintf(_("%s: %s"), s->url, why);
			free(why);
			return -1;
		}
		if (s->applied == 0)
			strv_pushf(&u->notes, _("%s: CUDA %s names no "
			    "nvidia_driver, so there is nothing to add"),
			    s->url, s->manifest.label);
	}
	return 0;
}

/* True when doc is byte for byte what the cache already holds. */
static bool
same_as_cache(const char *path, const char *doc)
{
	char *old, *err;
	size_t len;
	bool same;

	if (cache_read_file(path, CACHE_READ_MAX, &old, &len, &err) != 0) {
		free(err);
		return false;
	}
	same = len == strlen(doc) && memcmp(old, doc, len) == 0;
	free(old);
	return same;
}

static enum matrix_update_result
failed(struct matrix_update *u, bool cancelled, char *err)
{
	u->err = err;
	u->result = cancelled ? MATRIX_UPDATE_CANCELLED : MATRIX_UPDATE_FAILED;
	return u->result;
}

/* Writes m to the cache when it is new; m is u's from here on. */
static enum matrix_update_result
store(struct run *x, struct matrix *m, bool changed)
{
	struct matrix_update *u = x->u;
	struct cache_meta meta = { 0 };
	char *doc, *err;
	int rc;

	u->m = m;
	meta.checked = time(NULL);
	for (size_t i = 0; i < u->src.n; i++)
		if (u->src.v[i].kind != MATRIX_UPDATE_KIND_LISTING)
			cache_meta_set(&meta, u->src.v[i].url, u->src.v[i].etag,
			    u->src.v[i].last_modified);
	doc = matrix_to_json(m);
	if (!changed || same_as_cache(u->path, doc)) {
		/* Nothing new: the matrix file stays as it is; only the time
		 * of the check and the validators are recorded. */
		if (cache_store_meta(u->path, &meta, &err) != 0) {
			strv_push_owned(&u->notes, xasprintf(_("the time of "
			    "this check was not recorded: %s"), err));
			free(err);
		}
		u->result = MATRIX_UPDATE_UP_TO_DATE;
	} else {
		struct matrix *emb = matrix_embedded();

		if (strcmp(matrix_date(m), matrix_date(emb)) < 0)
			strv_pushf(&u->notes, _("the new data (%s) is older than "
			    "the built-in data (%s); cudawiz keeps using the "
			    "built-in data"), matrix_date(m), matrix_date(emb));
		matrix_free(emb);
		rc = cache_store(u->path, doc, strlen(doc), &meta, &err);
		if (rc < 0) {
			u->m = NULL;
			matrix_free(m);
			free(doc);
			cache_meta_free(&meta);
			return failed(u, false, err);
		}
		if (rc > 0) {
			/* The matrix is in place; only its validators are
			 * missing, which costs one full download later. */
			strv_push_owned(&u->notes, err);
		}
		matrix_set_source(m, MATRIX_CACHE, u->path);
		u->result = MATRIX_UPDATE_UPDATED;
	}
	free(doc);
	cache_meta_free(&meta);
	return u->result;
}

static enum matrix_update_result
run(struct run *x)
{
	struct matrix_update *u = x->u;
	struct matrix *base, *m;
	char *note, *err;
	bool changed = false;
	int rc;

	base = select_matrix(x->o->matrix_file, &note, &err);
	if (base == NULL) {
		u->err = err;
		return u->result = MATRIX_UPDATE_BAD_BASE;
	}
	if (note != NULL)
		strv_push_owned(&u->notes, note);
	/* Validators describe the cache; they only make sense when the cache
	 * is what the update builds on. */
	x->conditional = matrix_source(base) == MATRIX_CACHE &&
	    strcmp(matrix_path(base), u->path) == 0;
	if (x->conditional && cache_meta_load(u->path, &x->old_meta, &err) != 0) {
		strv_push_owned(&u->notes, err);
		x->conditional = false;
	}
	if ((rc = fetch_global_init(&err)) != 0) {
		matrix_free(base);
		if (rc == FETCH_NO_LIBCURL) {
			u->err = err;
			return u->result = MATRIX_UPDATE_NO_LIBCURL;
		}
		return failed(u, false, err);
	}
	rc = fetch_all(x, &err);
	fetch_global_cleanup();
	if (rc != 0) {
		matrix_free(base);
		return failed(u, x->cancelled, err);
	}
	for (size_t i = 0; i < u->src.n; i++)
		if (u->src.v[i].status == 200 &&
		    u->src.v[i].kind != MATRIX_UPDATE_KIND_LISTING)
			changed = true;
	if (x->fetched != NULL) {
		matrix_free(base);
		m = x->fetched;
		x->fetched = NULL;
	} else {
		m = base;
	}
	if (merge(u, m, &err) != 0) {
		matrix_free(m);
		return failed(u, false, err);
	}
	return store(x, m, changed);
}

enum matrix_update_result
matrix_update_run(const struct matrix_update_opts *o, struct matrix_update *u)
{
	struct run x = { .o = o, .u = u };
	char *err;

	*u = (struct matrix_update){ .notes = STRV_INIT };
	u->result = MATRIX_UPDATE_REFUSED;
	if (o->offline) {
		u->err = xstrdup(_("matrix update needs the network, and "
		    "--offline forbids it; the cached matrix is unchanged"));
		return u->result;
	}
	if (o->root != NULL && *o->root != '\0' && strcmp(o->root, "/") != 0) {
		u->err = xstrdup(_("matrix update fetches nothing under --root "
		    "(or CUDAWIZ_ROOT); the cached matrix is unchanged"));
		return u->result;
	}
	u->path = cache_matrix_path(&err);
	if (u->path == NULL) {
		u->err = err;
		return u->result;
	}
	fetch_opts_init(&x.fo);
	if (o->connect_timeout_ms > 0)
		x.fo.connect_timeout_ms = o->connect_timeout_ms;
	if (o->timeout_ms > 0)
		x.fo.timeout_ms = o->timeout_ms;
	if (o->nurls > 0)
		for (size_t i = 0; i < o->nurls; i++)
			add_source(u, o->urls[i], false);
	else
		for (size_t i = 0; i < sizeof default_urls / sizeof *default_urls; i++)
			if (default_urls[i][0] != '\0')
				add_source(u, default_urls[i], false);
	run(&x);
	matrix_free(x.fetched);
	cache_meta_free(&x.old_meta);
	return u->result;
}

void
matrix_update_free(struct matrix_update *u)
{
	for (size_t i = 0; i < u->src.n; i++) {
		struct matrix_update_source *s = &u->src.v[i];

		free(s->url);
		free(s->etag);
		free(s->last_modified);
		free(s->found);
		redistrib_free(&s->manifest);
	}
	free(u->src.v);
	strv_free(&u->notes);
	matrix_free(u->m);
	free(u->path);
	free(u->err);
	*u = (struct matrix_update){ .notes = STRV_INIT };
}
