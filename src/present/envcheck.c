/* The text and JSON views of `cudawiz env --check FILE`
 * (present/envcheck.h). */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/envcheck.h"
#include "present/json.h"
#include "util/envp.h"

static const char *const shown_vars[] = { "PATH", "LD_LIBRARY_PATH",
    "CUDA_HOME", "CUDA_PATH" };

/* ------------------------------------------------------------ text */

static void
side_text(FILE *fp, const char *label, const struct check_side *s)
{
	switch (s->state) {
	case NEED_RESOLVES:
		fprintf(fp, "      %s %s\n", label, s->path);
		break;
	case NEED_SHADOWED:
		fprintf(fp, _("      %s %s (not the copy the framework expects)\n"),
		    label, s->path);
		break;
	case NEED_STUB:
		fprintf(fp, _("      %s %s (a stub: it cannot work)\n"), label,
		    s->path);
		break;
	case NEED_MISSING:
		fprintf(fp, _("      %s not found\n"), label);
		break;
	case NEED_ABSENT:
		fprintf(fp, _("      %s (not looked up)\n"), label);
		break;
	}
}

static void
var_text(FILE *fp, const char *name, char *const *before, char *const *after)
{
	const char *b = envp_get(before, name), *a = envp_get(after, name);

	if ((b == NULL) == (a == NULL) && (b == NULL || strcmp(a, b) == 0))
		return;
	fprintf(fp, "  %s\n", name);
	if (b != NULL)
		fprintf(fp, _("      before: '%s'\n"), b);
	else
		fprintf(fp, _("      before: unset\n"));
	if (a != NULL)
		fprintf(fp, _("      after:  '%s'\n"), a);
	else
		fprintf(fp, _("      after:  unset\n"));
}

void
env_check_print_text(FILE *fp, const char *file, const struct env_check *ec,
    char *const *before)
{
	const struct strv *gone = &ec->gone, *new = &ec->new;
	bool any = false;

	fprintf(fp, _("%s: a %s script, sourced in %s\n\n"), file,
	    script_format_name(ec->fmt), ec->src.shell);
	fputs(_("What it changes\n"), fp);
	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++)
		var_text(fp, shown_vars[i], before, ec->src.envp);
	fputs(_("\nWhat the frameworks need\n"), fp);
	for (size_t i = 0; i < ec->rows.n; i++) {
		const struct check_row *r = &ec->rows.v[i];

		if (r->framework == NULL)
			continue;
		any = true;
		fprintf(fp, _("  %s for %s (%s)%s: %s\n"), r->soname, r->framework,
		    r->env, r->optional ? _(", optional") : "",
		    env_check_verdict_words(r->verdict));
		side_text(fp, _("before:"), &r->before);
		side_text(fp, _("after: "), &r->after);
	}
	if (!any)
		fputs(_("  (no framework that runs on the GPU was found)\n"), fp);
	for (size_t i = 0, said = 0; i < ec->rows.n; i++) {
		const struct check_row *r = &ec->rows.v[i];

		if (r->framework != NULL)
			continue;
		/* Windows' rows are all frameworks' DLLs: no heading then. */
		if (said++ == 0)
			fputs(_("\nCUDA libraries\n"), fp);
		/* Missing on both sides and optional: noise. */
		if (r->optional && r->verdict == VERDICT_STILL_BROKEN)
			continue;
		fprintf(fp, "  %s: %s\n", r->soname, env_check_verdict_words(r->verdict));
		if (r->verdict != VERDICT_UNCHANGED)
			side_text(fp, _("before:"), &r->before);
		side_text(fp, _("after: "), &r->after);
	}
	fputs(_("\nLive runtime check\n"), fp);
	if (ec->live_why != NULL)
		fprintf(fp, _("  not run: %s\n"), ec->live_why);
	else if (ec->live.n == 0)
		fputs(_("  not run: no CUDA runtime resolves in the script's "
		    "environment\n"), fp);
	for (size_t i = 0; i < ec->live.n; i++) {
		char *b = env_check_live_words(&ec->live.v[i].before);
		char *a = env_check_live_words(&ec->live.v[i].after);

		fprintf(fp, "  %s\n", ec->live.v[i].soname);
		fprintf(fp, _("      before: %s\n      after:  %s\n"), b, a);
		free(b);
		free(a);
	}
	fputs(_("\nFindings\n"), fp);
	for (size_t i = 0; i < gone->n; i++)
		fprintf(fp, _("  gone: %s\n"), gone->v[i]);
	for (size_t i = 0; i < new->n; i++)
		fprintf(fp, _("  new:  %s\n"), new->v[i]);
	if (gone->n + new->n == 0)
		fputs(_("  the same before and after\n"), fp);
	fputc('\n', fp);
	fputs(ec->ok ? _("Result: inside the script's environment every library the "
	    "frameworks need resolves, and nothing that worked stopped working.\n") :
	    _("Result: the script does not fix everything: see the rows marked "
	    "above.\n"), fp);
}

/* ------------------------------------------------------------ JSON */

static json_t *
side_json(const struct check_side *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "state", json_string(need_state_name(s->state)));
	json_object_set_new(o, "resolved", jstr(s->path));
	json_object_set_new(o, "via", jstr(s->via));
	json_object_set_new(o, "error", jstr(s->error));
	return o;
}

static json_t *
live_json(const struct verify_run *r)
{
	json_t *o = json_object();
	const struct verify_record *init = verify_find(r, "init", -1);
	char *words = env_check_live_words(r);

	json_object_set_new(o, "outcome", json_string(verify_outcome_name(r->outcome)));
	json_object_set_new(o, "ok", json_boolean(r->outcome == VERIFY_DONE &&
	    (init == NULL || init->ok != 0) && verify_find(r, "load", -1) != NULL &&
	    verify_find(r, "load", -1)->ok != 0));
	json_object_set_new(o, "code", init != NULL && init->has_code ?
	    json_integer(init->code) : json_null());
	json_object_set_new(o, "name", jstr(init != NULL ? init->name : NULL));
	json_object_set_new(o, "summary", json_string(words));
	free(words);
	return o;
}

int
env_check_print_json(FILE *fp, const char *file, const struct env_check *ec,
    char *const *before)
{
	json_t *doc = json_object(), *vars = json_object(), *rows = json_array();
	json_t *live = json_array(), *fnd = json_object();
	int rc;

	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++) {
		json_t *v = json_object();

		json_object_set_new(v, "before", jstr(envp_get(before, shown_vars[i])));
		json_object_set_new(v, "after", jstr(envp_get(ec->src.envp,
		    shown_vars[i])));
		json_object_set_new(vars, shown_vars[i], v);
	}
	for (size_t i = 0; i < ec->rows.n; i++) {
		const struct check_row *r = &ec->rows.v[i];
		json_t *o = json_object();

		json_object_set_new(o, "soname", json_string(r->soname));
		json_object_set_new(o, "framework", jstr(r->framework));
		json_object_set_new(o, "env", jstr(r->env));
		json_object_set_new(o, "optional", json_boolean(r->optional));
		json_object_set_new(o, "before", side_json(&r->before));
		json_object_set_new(o, "after", side_json(&r->after));
		json_object_set_new(o, "verdict", json_string(need_verdict_name(r->verdict)));
		json_array_append_new(rows, o);
	}
	for (size_t i = 0; i < ec->live.n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "soname", json_string(ec->live.v[i].soname));
		json_object_set_new(o, "before", live_json(&ec->live.v[i].before));
		json_object_set_new(o, "after", live_json(&ec->live.v[i].after));
		json_array_append_new(live, o);
	}
	json_object_set_new(fnd, "gone", jstrv(&ec->gone));
	json_object_set_new(fnd, "new", jstrv(&ec->new));
	json_object_set_new(doc, "schema", json_string("cudawiz/env-check/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "file", json_string(file));
	json_object_set_new(doc, "format", json_string(script_format_name(ec->fmt)));
	json_object_set_new(doc, "shell", jstr(ec->src.shell));
	json_object_set_new(doc, "variables", vars);
	json_object_set_new(doc, "needs", rows);
	json_object_set_new(doc, "live", live);
	json_object_set_new(doc, "live_skipped", jstr(ec->live_why));
	json_object_set_new(doc, "findings", fnd);
	json_object_set_new(doc, "ok", json_boolean(ec->ok));
	rc = json_write(fp, doc);
	json_decref(doc);
	return rc == 0 ? 0 : -1;
}

int
env_check_print(FILE *fp, const char *file, const struct env_check *ec,
    char *const *before, bool json)
{
	if (json) {
		if (env_check_print_json(fp, file, ec, before) != 0)
			return -1;
	} else {
		env_check_print_text(fp, file, ec, before);
	}
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
