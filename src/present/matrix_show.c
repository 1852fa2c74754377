/* The text and JSON views of `cudawiz matrix show`, `path` and `update`
 * (present/matrix_show.h). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "matrix/update.h"
#include "present/json.h"
#include "present/matrix_show.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"

static const char *const kind_words[] = {
	[MATRIX_UPDATE_KIND_NONE] = NULL,
	[MATRIX_UPDATE_KIND_MATRIX] = "matrix",
	[MATRIX_UPDATE_KIND_MANIFEST] = "manifest",
	[MATRIX_UPDATE_KIND_LISTING] = "listing",
};

/* Prints a JSON document; false when it could not be written. */
static bool
print_json(FILE *fp, json_t *doc)
{
	int rc;

	if (doc == NULL)
		die(_("out of memory"));
	rc = json_write(fp, doc);
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

bool
matrix_show_json(FILE *fp, const struct matrix_show_view *sh)
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
	/* Keys a newer document holds that this version skipped. */
	set(doc, "ignored_keys", json_integer((json_int_t)matrix_ignored_keys(sh->m)));
	free(checked);
	return print_json(fp, doc);
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

void
matrix_show_text(FILE *fp, const struct matrix_show_view *sh)
{
	const char *path = matrix_path(sh->m);
	char *checked = utc_time(sh->checked);

	fprintf(fp, _("Matrix in use:  %s\n"),
	    matrix_source(sh->m) == MATRIX_EMBEDDED ? _("built in") :
	    matrix_source(sh->m) == MATRIX_CACHE ? _("cache") : _("file"));
	if (path != NULL)
		fprintf(fp, "                %s\n", path);
	fprintf(fp, ngettext("Data date:      %s, %d day old (refreshed every %u days)\n",
	    "Data date:      %s, %d days old (refreshed every %u days)\n",
	    (unsigned long)sh->age), matrix_date(sh->m), sh->age,
	    matrix_refresh_days(sh->m));
	fprintf(fp, _("Last update:    %s\n"), checked != NULL ? checked : _("never"));
	fprintf(fp, _("Newest CUDA:    %s%s\n"),
	    sh->newest_cuda != NULL ? sh->newest_cuda : _("none"),
	    status_note(sh->newest_cuda, sh->cuda_status));
	fprintf(fp, _("Newest cuDNN:   %s%s\n"),
	    sh->newest_cudnn != NULL ? sh->newest_cudnn : _("none"),
	    status_note(sh->newest_cudnn, sh->cudnn_status));
	if (sh->cache_path != NULL)
		fprintf(fp, _("Cache file:     %s\n"), sh->cache_path);
	fputs(_("Rows:\n"), fp);
	for (int s = 0; s < MATRIX_SEC_COUNT; s++)
		fprintf(fp, "  %-18s %zu\n", matrix_section_name((enum matrix_section)s),
		    matrix_count(sh->m, (enum matrix_section)s));
	if (matrix_ignored_keys(sh->m) > 0)
		fprintf(fp, ngettext("Ignored:        %zu key this cudawiz does not know "
		    "(from a newer release)\n",
		    "Ignored:        %zu keys this cudawiz does not know "
		    "(from a newer release)\n",
		    (unsigned long)matrix_ignored_keys(sh->m)), matrix_ignored_keys(sh->m));
	if (sh->stale)
		fprintf(fp, _("\nThe data is older than its refresh window; "
		    "run '%s matrix update'.\n"), PACKAGE);
	free(checked);
}

bool
matrix_path_print(FILE *fp, const char *path, bool json)
{
	if (json) {
		json_t *doc = json_object();

		if (doc == NULL)
			die(_("out of memory"));
		set(doc, "schema", jstr("cudawiz/matrix-path/1"));
		set(doc, "path", jstr(path));
		return print_json(fp, doc);
	}
	return fprintf(fp, "%s\n", path) > 0;
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

bool
matrix_update_print(FILE *fp, const struct matrix_update *u, bool json,
    const char *result, const struct matrix *m, const char *error)
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
		return print_json(fp, doc);
	}
	for (size_t i = 0; i < u->src.n && error == NULL; i++) {
		struct strbuf sb = STRBUF_INIT;

		describe_source(&u->src.v[i], &sb);
		fprintf(fp, "  %s: %s\n", u->src.v[i].url, strbuf_str(&sb));
		strbuf_free(&sb);
	}
	/* The notes are warnings: on stderr, as the command's errors. */
	for (size_t i = 0; i < u->notes.n; i++)
		fprintf(stderr, "%s: %s\n", PACKAGE, u->notes.v[i]);
	if (strcmp(result, "updated") == 0) {
		const struct matrix_cuda_release *cr = matrix_newest_cuda(m);
		enum matrix_status st;
		const char *cudnn = matrix_newest_cudnn(m, &st);

		fprintf(fp, _("Updated %s: data of %s; newest CUDA %s, cuDNN %s.\n"),
		    path, matrix_date(m), cr != NULL ? cr->version : _("none"),
		    cudnn != NULL ? cudnn : _("none"));
	} else if (strcmp(result, "up-to-date") == 0) {
		fprintf(fp, _("The cached matrix %s is up to date.\n"), path);
	}
	return true;
}
