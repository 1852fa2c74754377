/* cudawiz matrix show | path | update: the compatibility matrix in use and
 * its refresh.
 *
 * An update is all or nothing: every source is fetched and checked first,
 * NVIDIA's manifests are merged into a copy of the data, the result is
 * validated once more, and only then is the cache replaced. Any failure on
 * the way leaves the cache byte-identical and ends with one line. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/fetch.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "matrix/select.h"
#include "present/json.h"
#include "util/strbuf.h"
#include "util/strv.h"
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

/* What a fetched body turned out to be. */
enum kind {
	KIND_NONE = 0,		/* 304: not fetched again */
	KIND_MATRIX,
	KIND_MANIFEST,
	KIND_LISTING,
};

static const char *const kind_words[] = {
	[KIND_NONE] = NULL,
	[KIND_MATRIX] = "matrix",
	[KIND_MANIFEST] = "manifest",
	[KIND_LISTING] = "listing",
};

struct source {
	char			*url;
	bool			 from_listing;	/* may not be a listing itself */
	long			 status;	/* 200, 304; 0 not fetched */
	enum kind		 kind;
	char			*etag;
	char			*last_modified;
	struct redistrib	 manifest;	/* KIND_MANIFEST */
	char			*found;		/* KIND_LISTING: the manifest it named */
	int			 applied;	/* redistrib_apply's answer */
};

struct update {
	const struct cli_opts	*opts;
	struct fetch_opts	 fo;
	struct cache_meta	 old_meta;
	bool			 conditional;	/* the cache is the base */
	struct {
		struct source	*v;
		size_t		 n, cap;
	} src;
	struct matrix		*fetched;	/* a cudawiz matrix from a source */
	size_t			 fetched_from;
	struct strv		 notes;
};

static void
print_error(const char *msg)
{
	fprintf(stderr, "%s: %s\n", PACKAGE, msg);
}

static int
finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror(PACKAGE ": writing the output");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Prints a JSON document on stdout; false when it could not be written. */
static bool
print_json(json_t *doc)
{
	int rc;

	if (doc == NULL)
		die(_("out of memory"));
	rc = json_write(stdout, doc);
	json_decref(doc);
	return rc == 0;
}

static void
set(json_t *obj, const char *key, json_t *val)
{
	if (json_object_set_new(obj, key, val != NULL ? val : json_null()) != 0)
		die(_("out of memory"));
}

/* ------------------------------------------------------------ show, path */

static char *
utc_time(time_t t)
{
	struct tm tm;
	char buf[32];

	if (t <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return NULL;
	return xstrdup(buf);
}

struct show {
	const struct matrix	*m;
	char			*cache_path;	/* NULL: no cache directory */
	time_t			 checked;
	int			 age;
	bool			 stale;
	const char		*newest_cuda;
	enum matrix_status	 cuda_status;
	const char		*newest_cudnn;
	enum matrix_status	 cudnn_status;
};

static bool
show_json(const struct show *sh)
{
	json_t *doc = json_object(), *newest = json_object(), *counts = json_object();
	char *checked = utc_time(sh->checked);

	if (doc == NULL || newest == NULL || counts == NULL)
		die(_("out of memory"));
	set(doc, "schema", jstr("cudawiz/matrix-show/1"));
	set(doc, "source", jstr(matrix_source_name(matrix_source(sh->m))));
	set(doc, "path", jstr(matrix_path(sh->m)));
	set(doc, "cache_path", jstr(sh->cache_path));
	set(doc, "date", jstr(matrix_date(sh->m)));
	set(doc, "refresh_days", json_integer(matrix_refresh_days(sh->m)));
	set(doc, "age_days", json_integer(sh->age));
	set(doc, "stale", json_boolean(sh->stale));
	set(doc, "checked", jstr(checked));
	set(newest, "cuda", jstr(sh->newest_cuda));
	set(newest, "cuda_status", sh->newest_cuda == NULL ? json_null() :
	    jstr(matrix_status_name(sh->cuda_status)));
	set(newest, "cudnn", jstr(sh->newest_cudnn));
	set(newest, "cudnn_status", sh->newest_cudnn == NULL ? json_null() :
	    jstr(matrix_status_name(sh->cudnn_status)));
	set(doc, "newest", newest);
	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		set(counts, matrix_section_name((enum matrix_section)s),
		    json_integer((json_int_t)matrix_count(sh->m,
		    (enum matrix_section)s)));
	set(doc, "counts", counts);
	free(checked);
	return print_json(doc);
}

static const char *
status_note(const char *version, enum matrix_status st)
{
	if (version == NULL || st == MATRIX_CONFIRMED)
		return "";
	/* TRANSLATORS: after a version: "13.1.0 (unconfirmed)". */
	return st == MATRIX_UNCONFIRMED ? _(" (unconfirmed)") :
	    st == MATRIX_SECONDARY ? _(" (secondary source)") : _(" (derived)");
}

static void
show_text(const struct show *sh)
{
	const char *path = matrix_path(sh->m);
	char *checked = utc_time(sh->checked);

	printf(_("Matrix in use:  %s\n"),
	    matrix_source(sh->m) == MATRIX_EMBEDDED ? _("built in") :
	    matrix_source(sh->m) == MATRIX_CACHE ? _("cache") : _("file"));
	if (path != NULL)
		printf("                %s\n", path);
	printf(ngettext("Data date:      %s, %d day old (refreshed every %u days)\n",
	    "Data date:      %s, %d days old (refreshed every %u days)\n",
	    (unsigned long)sh->age), matrix_date(sh->m), sh->age,
	    matrix_refresh_days(sh->m));
	printf(_("Last update:    %s\n"), checked != NULL ? checked : _("never"));
	printf(_("Newest CUDA:    %s%s\n"),
	    sh->newest_cuda != NULL ? sh->newest_cuda : _("none"),
	    status_note(sh->newest_cuda, sh->cuda_status));
	printf(_("Newest cuDNN:   %s%s\n"),
	    sh->newest_cudnn != NULL ? sh->newest_cudnn : _("none"),
	    status_note(sh->newest_cudnn, sh->cudnn_status));
	if (sh->cache_path != NULL)
		printf(_("Cache file:     %s\n"), sh->cache_path);
	fputs(_("Rows:\n"), stdout);
	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		printf("  %-18s %zu\n", matrix_section_name((enum matrix_section)s),
		    matrix_count(sh->m, (enum matrix_section)s));
	if (sh->stale)
		printf(_("\nThe data is older than its refresh window; "
		    "run '%s matrix update'.\n"), PACKAGE);
	free(checked);
}

static int
matrix_show(const struct cli_opts *opts)
{
	struct show sh = { 0 };
	struct cache_meta meta;
	const struct matrix_cuda_release *cr;
	struct matrix *m;
	char *note, *err;
	int rc;

	m = select_matrix(opts->matrix_file, &note, &err);
	if (m == NULL) {
		print_error(err);
		free(err);
		return EXIT_USAGE;
	}
	if (note != NULL) {
		print_error(note);
		free(note);
	}
	sh.m = m;
	sh.cache_path = cache_matrix_path(&err);
	free(err);
	if (matrix_source(m) == MATRIX_CACHE) {
		if (cache_meta_load(matrix_path(m), &meta, &err) == 0)
			sh.checked = meta.checked;
		else
			free(err);
		cache_meta_free(&meta);
	}
	sh.age = select_age_days(matrix_date(m), time(NULL));
	sh.stale = select_stale(m, time(NULL), sh.checked);
	cr = matrix_newest_cuda(m);
	if (cr != NULL) {
		sh.newest_cuda = cr->version;
		sh.cuda_status = cr->status;
	}
	sh.newest_cudnn = matrix_newest_cudnn(m, &sh.cudnn_status);
	if (opts->json) {
		rc = show_json(&sh) ? EXIT_OK : EXIT_USAGE;
		if (rc == EXIT_OK)
			rc = finish_stdout();
		else
			perror(PACKAGE ": writing the output");
	} else {
		show_text(&sh);
		rc = finish_stdout();
	}
	free(sh.cache_path);
	matrix_free(m);
	return rc;
}

static int
matrix_path_cmd(const struct cli_opts *opts)
{
	char *path, *err;
	bool ok;

	path = cache_matrix_path(&err);
	if (path == NULL) {
		print_error(err);
		free(err);
		return EXIT_FINDINGS;
	}
	if (opts->json) {
		json_t *doc = json_object();

		if (doc == NULL)
			die(_("out of memory"));
		set(doc, "schema", jstr("cudawiz/matrix-path/1"));
		set(doc, "path", jstr(path));
		ok = print_json(doc);
	} else {
		ok = printf("%s\n", path) > 0;
	}
	free(path);
	if (!ok) {
		perror(PACKAGE ": writing the output");
		return EXIT_USAGE;
	}
	return finish_stdout();
}

/* ---------------------------------------------------------------- update */

static struct source *
add_source(struct update *u, const char *url, bool from_listing)
{
	struct source *s = VEC_PUSH(&u->src);

	s->url = xstrdup(url);
	s->from_listing = from_listing;
	return s;
}

static void
free_sources(struct update *u)
{
	for (size_t i = 0; i < u->src.n; i++) {
		struct source *s = &u->src.v[i];

		free(s->url);
		free(s->etag);
		free(s->last_modified);
		free(s->found);
		redistrib_free(&s->manifest);
	}
	FREE(&u->src.v);
	u->src.n = u->src.cap = 0;
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
take_body(struct update *u, size_t idx, const struct fetch_result *res,
    char **err)
{
	struct source *s = &u->src.v[idx];
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
			s->kind = KIND_MANIFEST;
			return 0;
		}
		if (u->fetched != NULL) {
			*err = xasprintf(_("%s: a second cudawiz matrix (the "
			    "first came from %s); give one"), s->url,
			    u->src.v[u->fetched_from].url);
			return -1;
		}
		u->fetched = matrix_parse(res->body, res->len, &why);
		if (u->fetched == NULL) {
			*err = xasprintf(_("%s: not a valid cudawiz matrix: %s"),
			    s->url, why);
			free(why);
			return -1;
		}
		u->fetched_from = idx;
		s->kind = KIND_MATRIX;
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
	s->kind = KIND_LISTING;
	s->found = xstrdup(names.v[0]);
	/* s is not used after this: add_source may move the vector. */
	add_source(u, next, true);
	free(next);
	free(base);
	strv_free(&names);
	return 0;
}

static int
fetch_one(struct update *u, size_t idx, bool conditional, char **err)
{
	struct fetch_opts fo = u->fo;
	struct fetch_result res;
	const struct cache_validator *v;
	struct source *s = &u->src.v[idx];
	int rc;

	v = conditional ? cache_meta_find(&u->old_meta, s->url) : NULL;
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
		s->kind = KIND_NONE;
		s->etag = v->etag != NULL ? xstrdup(v->etag) : NULL;
		s->last_modified = v->last_modified != NULL ?
		    xstrdup(v->last_modified) : NULL;
		fetch_result_free(&res);
		return 0;
	}
	s->etag = res.etag;
	s->last_modified = res.last_modified;
	res.etag = res.last_modified = NULL;
	rc = take_body(u, idx, &res, err);
	fetch_result_free(&res);
	return rc;
}

/* Fetches every source, and the manifests that listings name. */
static int
fetch_all(struct update *u, char **err)
{
	for (size_t i = 0; i < u->src.n; i++)
		if (fetch_one(u, i, u->conditional, err) != 0)
			return -1;
	/* A 304 means "what the cache holds", and the cache is about to be
	 * replaced by a fetched matrix: those sources are needed whole. */
	for (size_t i = 0; i < u->src.n && u->fetched != NULL; i++) {
		if (u->src.v[i].status != 304)
			continue;
		if (fetch_one(u, i, false, err) != 0)
			return -1;
	}
	return 0;
}

/* Merges the manifests into m, in the order given. */
static int
merge(struct update *u, struct matrix *m, char **err)
{
	for (size_t i = 0; i < u->src.n; i++) {
		struct source *s = &u->src.v[i];
		char *why;

		if (s->kind != KIND_MANIFEST)
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

static void
describe_source(const struct source *s, struct strbuf *sb)
{
	const struct redistrib *r = &s->manifest;

	if (s->status == 304) {
		strbuf_puts(sb, _("not modified"));
		return;
	}
	switch (s->kind) {
	case KIND_MATRIX:
		strbuf_puts(sb, _("cudawiz matrix"));
		break;
	case KIND_LISTING:
		strbuf_printf(sb, _("listing; newest %s"), s->found);
		break;
	case KIND_MANIFEST:
		if (r->kind == REDISTRIB_CUDA && r->driver != NULL)
			strbuf_printf(sb, _("CUDA %s, driver %s"), r->label,
			    r->driver);
		else if (r->kind == REDISTRIB_CUDA)
			strbuf_printf(sb, _("CUDA %s"), r->label);
		else {
			strbuf_printf(sb, _("cuDNN %s for CUDA"), r->label);
			for (size_t i = 0; i < r->cuda_majors.n; i++)
				strbuf_printf(sb, "%s%s", i ? ", " : " ",
				    r->cuda_majors.v[i]);
		}
		break;
	case KIND_NONE:
		break;
	}
}

static json_t *
sources_json(const struct update *u)
{
	json_t *a = json_array();

	if (a == NULL)
		die(_("out of memory"));
	for (size_t i = 0; i < u->src.n; i++) {
		const struct source *s = &u->src.v[i];
		json_t *o = json_object();

		if (o == NULL)
			die(_("out of memory"));
		set(o, "url", jstr(s->url));
		set(o, "status", s->status > 0 ? json_integer(s->status) :
		    json_null());
		set(o, "kind", jstr(kind_words[s->kind]));
		set(o, "release", s->kind == KIND_MANIFEST ?
		    jstr(s->manifest.label) : json_null());
		if (json_array_append_new(a, o) != 0)
			die(_("out of memory"));
	}
	return a;
}

/* The report: one JSON document, or a line per source and the result. */
static int
report(const struct update *u, const char *result, const char *path,
    const struct matrix *m, const char *error)
{
	if (u->opts->json) {
		json_t *doc = json_object(), *notes = json_array();
		const struct matrix_cuda_release *cr;
		enum matrix_status st;

		if (doc == NULL || notes == NULL)
			die(_("out of memory"));
		set(doc, "schema", jstr("cudawiz/matrix-update/1"));
		set(doc, "result", jstr(result));
		set(doc, "path", jstr(path));
		set(doc, "error", jstr(error));
		set(doc, "sources", sources_json(u));
		cr = m != NULL ? matrix_newest_cuda(m) : NULL;
		set(doc, "date", jstr(m != NULL ? matrix_date(m) : NULL));
		set(doc, "newest_cuda", jstr(cr != NULL ? cr->version : NULL));
		set(doc, "newest_cudnn", jstr(m != NULL ?
		    matrix_newest_cudnn(m, &st) : NULL));
		for (size_t i = 0; i < u->notes.n; i++)
			if (json_array_append_new(notes, jstr(u->notes.v[i])) != 0)
				die(_("out of memory"));
		set(doc, "notes", notes);
		if (!print_json(doc)) {
			perror(PACKAGE ": writing the output");
			return EXIT_USAGE;
		}
		return finish_stdout();
	}
	for (size_t i = 0; i < u->src.n && error == NULL; i++) {
		struct strbuf sb = STRBUF_INIT;

		describe_source(&u->src.v[i], &sb);
		printf("  %s: %s\n", u->src.v[i].url, strbuf_str(&sb));
		strbuf_free(&sb);
	}
	for (size_t i = 0; i < u->notes.n; i++)
		print_error(u->notes.v[i]);
	if (strcmp(result, "updated") == 0) {
		const struct matrix_cuda_release *cr = matrix_newest_cuda(m);
		enum matrix_status st;
		const char *cudnn = matrix_newest_cudnn(m, &st);

		printf(_("Updated %s: data of %s; newest CUDA %s, cuDNN %s.\n"),
		    path, matrix_date(m), cr != NULL ? cr->version : _("none"),
		    cudnn != NULL ? cudnn : _("none"));
	} else if (strcmp(result, "up-to-date") == 0) {
		printf(_("The cached matrix %s is up to date.\n"), path);
	}
	return finish_stdout();
}

static int
update_failed(struct update *u, const char *path, char *err)
{
	char *line = xasprintf(_("matrix update failed: %s; the cached matrix "
	    "is unchanged"), err);
	int rc;

	print_error(line);
	rc = report(u, "failed", path, NULL, line);
	free(line);
	free(err);
	return rc == EXIT_OK ? EXIT_FINDINGS : rc;
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

static int
run_update(struct update *u, const char *path)
{
	struct cache_meta meta = { 0 };
	struct matrix *base, *m;
	char *note, *err, *doc;
	bool changed = false;
	int rc;

	base = select_matrix(u->opts->matrix_file, &note, &err);
	if (base == NULL) {
		print_error(err);
		free(err);
		return EXIT_USAGE;
	}
	if (note != NULL)
		strv_push_owned(&u->notes, note);
	/* Validators describe the cache; they only make sense when the cache
	 * is what the update builds on. */
	u->conditional = matrix_source(base) == MATRIX_CACHE &&
	    strcmp(matrix_path(base), path) == 0;
	if (u->conditional && cache_meta_load(path, &u->old_meta, &err) != 0) {
		strv_push_owned(&u->notes, err);
		u->conditional = false;
	}
	if (fetch_global_init(&err) != 0) {
		matrix_free(base);
		return update_failed(u, path, err);
	}
	rc = fetch_all(u, &err);
	fetch_global_cleanup();
	if (rc != 0) {
		matrix_free(base);
		return update_failed(u, path, err);
	}
	for (size_t i = 0; i < u->src.n; i++)
		if (u->src.v[i].status == 200 && u->src.v[i].kind != KIND_LISTING)
			changed = true;
	if (u->fetched != NULL) {
		matrix_free(base);
		m = u->fetched;
		u->fetched = NULL;
	} else {
		m = base;
	}
	if (merge(u, m, &err) != 0) {
		matrix_free(m);
		return update_failed(u, path, err);
	}
	meta.checked = time(NULL);
	for (size_t i = 0; i < u->src.n; i++)
		if (u->src.v[i].kind != KIND_LISTING)
			cache_meta_set(&meta, u->src.v[i].url, u->src.v[i].etag,
			    u->src.v[i].last_modified);
	doc = matrix_to_json(m);
	if (!changed || same_as_cache(path, doc)) {
		/* Nothing new: the matrix file stays as it is; only the time
		 * of the check and the validators are recorded. */
		if (cache_store_meta(path, &meta, &err) != 0) {
			strv_push_owned(&u->notes, xasprintf(_("the time of "
			    "this check was not recorded: %s"), err));
			free(err);
		}
		rc = report(u, "up-to-date", path, m, NULL);
	} else {
		struct matrix *emb = matrix_embedded();

		if (strcmp(matrix_date(m), matrix_date(emb)) < 0)
			strv_pushf(&u->notes, _("the new data (%s) is older than "
			    "the built-in data (%s); cudawiz keeps using the "
			    "built-in data"), matrix_date(m), matrix_date(emb));
		matrix_free(emb);
		rc = cache_store(path, doc, strlen(doc), &meta, &err);
		if (rc < 0) {
			free(doc);
			matrix_free(m);
			cache_meta_free(&meta);
			return update_failed(u, path, err);
		}
		if (rc > 0) {
			/* The matrix is in place; only its validators are
			 * missing, which costs one full download later. */
			strv_push_owned(&u->notes, err);
		}
		rc = report(u, "updated", path, m, NULL);
	}
	free(doc);
	matrix_free(m);
	cache_meta_free(&meta);
	return rc;
}

static int
matrix_update(const struct cli_opts *opts)
{
	struct update u = { .opts = opts };
	char *path, *err;
	int rc;

	if (opts->offline) {
		print_error(_("matrix update needs the network, and --offline "
		    "forbids it; the cached matrix is unchanged"));
		return EXIT_FINDINGS;
	}
	if (opts->root != NULL && *opts->root != '\0' &&
	    strcmp(opts->root, "/") != 0) {
		print_error(_("matrix update fetches nothing under --root "
		    "(or CUDAWIZ_ROOT); the cached matrix is unchanged"));
		return EXIT_FINDINGS;
	}
	path = cache_matrix_path(&err);
	if (path == NULL) {
		print_error(err);
		free(err);
		return EXIT_FINDINGS;
	}
	fetch_opts_init(&u.fo);
	if (opts->connect_timeout_ms > 0)
		u.fo.connect_timeout_ms = opts->connect_timeout_ms;
	if (opts->timeout_ms > 0)
		u.fo.timeout_ms = opts->timeout_ms;
	if (opts->nurls > 0)
		for (size_t i = 0; i < opts->nurls; i++)
			add_source(&u, opts->urls[i], false);
	else
		for (size_t i = 0; i < sizeof default_urls / sizeof *default_urls; i++)
			if (default_urls[i][0] != '\0')
				add_source(&u, default_urls[i], false);
	rc = run_update(&u, path);
	free_sources(&u);
	matrix_free(u.fetched);
	cache_meta_free(&u.old_meta);
	strv_free(&u.notes);
	free(path);
	return rc;
}

int
cmd_matrix(const struct cli_opts *opts)
{
	const char *sub = opts->nargs > 0 ? opts->args[0] : NULL;

	if (sub == NULL) {
		fprintf(stderr, _("%s: matrix needs a subcommand: show, path or "
		    "update\n"), PACKAGE);
		return EXIT_USAGE;
	}
	if (opts->nargs > 1) {
		fprintf(stderr, _("%s: matrix %s takes no arguments ('%s')\n"),
		    PACKAGE, sub, opts->args[1]);
		return EXIT_USAGE;
	}
	if (strcmp(sub, "update") != 0 && (opts->nurls > 0 ||
	    opts->connect_timeout_ms > 0 || opts->timeout_ms > 0)) {
		fprintf(stderr, _("%s: --url, --connect-timeout and --timeout are "
		    "options of 'matrix update'\n"), PACKAGE);
		return EXIT_USAGE;
	}
	if (strcmp(sub, "show") == 0)
		return matrix_show(opts);
	if (strcmp(sub, "path") == 0)
		return matrix_path_cmd(opts);
	if (strcmp(sub, "update") == 0)
		return matrix_update(opts);
	fprintf(stderr, _("%s: unknown matrix subcommand '%s' (show, path or "
	    "update)\n"), PACKAGE, sub);
	return EXIT_USAGE;
}
