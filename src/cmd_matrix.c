/* cudawiz matrix show | path | update: the compatibility matrix in use and
 * its refresh.
 *
 * An update is all or nothing (matrix/update.c, which the wizard runs
 * too): every source is fetched and checked first, NVIDIA's manifests are
 * merged into a copy of the data, the result is validated once more, and
 * only then is the cache replaced. Any failure on the way leaves the cache
 * byte-identical and ends with one line; this file only reports. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "matrix/select.h"
#include "matrix/update.h"
#include "present/json.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"

static const char *const kind_words[] = {
	[MATRIX_UPDATE_KIND_NONE] = NULL,
	[MATRIX_UPDATE_KIND_MATRIX] = "matrix",
	[MATRIX_UPDATE_KIND_MANIFEST] = "manifest",
	[MATRIX_UPDATE_KIND_LISTING] = "listing",
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

static void
describe_source(const struct matrix_update_source *s, struct strbuf *sb)
{
	const struct redistrib *r = &s->manifest;

	if (s->status == 304) {
		strbuf_puts(sb, _("not modified"));
		return;
	}
	switch (s->kind) {
	case MATRIX_UPDATE_KIND_MATRIX:
		strbuf_puts(sb, _("cudawiz matrix"));
		break;
	case MATRIX_UPDATE_KIND_LISTING:
		strbuf_printf(sb, _("listing; newest %s"), s->found);
		break;
	case MATRIX_UPDATE_KIND_MANIFEST:
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
	case MATRIX_UPDATE_KIND_NONE:
		break;
	}
}

static json_t *
sources_json(const struct matrix_update *u)
{
	json_t *a = json_array();

	if (a == NULL)
		die(_("out of memory"));
	for (size_t i = 0; i < u->src.n; i++) {
		const struct matrix_update_source *s = &u->src.v[i];
		json_t *o = json_object();

		if (o == NULL)
			die(_("out of memory"));
		set(o, "url", jstr(s->url));
		set(o, "status", s->status > 0 ? json_integer(s->status) :
		    json_null());
		set(o, "kind", jstr(kind_words[s->kind]));
		set(o, "release", s->kind == MATRIX_UPDATE_KIND_MANIFEST ?
		    jstr(s->manifest.label) : json_null());
		if (json_array_append_new(a, o) != 0)
			die(_("out of memory"));
	}
	return a;
}

/* The report: one JSON document, or a line per source and the result. */
static int
report(const struct matrix_update *u, bool json, const char *result,
    const struct matrix *m, const char *error)
{
	const char *path = u->path;

	if (json) {
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
update_failed(const struct matrix_update *u, bool json)
{
	char *line = xasprintf(_("matrix update failed: %s; the cached matrix "
	    "is unchanged"), u->err);
	int rc;

	print_error(line);
	rc = report(u, json, "failed", NULL, line);
	free(line);
	return rc == EXIT_OK ? EXIT_FINDINGS : rc;
}

/* The update itself is matrix/update.c's, shared with the wizard; this
 * says how it went. */
static int
matrix_update(const struct cli_opts *opts)
{
	struct matrix_update_opts o = {
		.urls = opts->urls,
		.nurls = opts->nurls,
		.matrix_file = opts->matrix_file,
		.offline = opts->offline,
		.root = opts->root,
		.connect_timeout_ms = opts->connect_timeout_ms,
		.timeout_ms = opts->timeout_ms,
	};
	struct matrix_update u;
	int rc = EXIT_FINDINGS;

	switch (matrix_update_run(&o, &u)) {
	case MATRIX_UPDATE_REFUSED:
		print_error(u.err);
		break;
	case MATRIX_UPDATE_BAD_BASE:
		print_error(u.err);
		rc = EXIT_USAGE;
		break;
	case MATRIX_UPDATE_FAILED:
	case MATRIX_UPDATE_CANCELLED:
		rc = update_failed(&u, opts->json);
		break;
	case MATRIX_UPDATE_UP_TO_DATE:
		rc = report(&u, opts->json, "up-to-date", u.m, NULL);
		break;
	case MATRIX_UPDATE_UPDATED:
		rc = report(&u, opts->json, "updated", u.m, NULL);
		break;
	}
	matrix_update_free(&u);
	return rc;
}

int
cmd_matrix(const struct cli_opts *opts)
{
	const char *sub = opts->args[0];	/* the dispatcher checked: one word */

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
