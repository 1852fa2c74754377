/* cudawiz env --check FILE: the before/after proof that a script fixes
 * what it says. The script is sourced in the shell it is for
 * (src/envplan/source.c); the machine is probed twice, in cudawiz's own
 * environment and in the one the script leaves; every library a framework
 * needs and every CUDA library doctor tracks is resolved on both sides
 * (src/envplan/compare.c); and the runtime the script's environment
 * resolves is loaded live by the helper, in that environment. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "diagnose/diagnose.h"
#include "envplan/compare.h"
#include "envplan/source.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"
#include "util/envp.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "verify/verify.h"

extern char **environ;

static const char *const shown_vars[] = { "PATH", "LD_LIBRARY_PATH",
    "CUDA_HOME", "CUDA_PATH" };

/* One side of the proof. */
struct side {
	struct sysroot	*sr;
	struct facts	*facts;
	struct findings	 findings;
};

/* A runtime loaded live on both sides. */
struct live {
	char			*soname;
	struct verify_run	 before, after;
};

struct check {
	const char		*file;
	enum script_format	 fmt;
	struct sourced		 src;
	struct side		 before, after;
	struct check_rows	 rows;
	struct {
		struct live	*v;
		size_t		 n, cap;
	} live;
	char			*live_why;	/* why nothing ran live; NULL */
};

static int
probe_side(struct side *s, const char *root, char *const *envp,
    const struct matrix *m, char **err)
{
	struct diagnose_input in;

	s->sr = sysroot_new(root, err);
	if (s->sr == NULL)
		return -1;
	sysroot_keep_listings(s->sr);
	s->facts = probe_all(s->sr, envp);
	diagnose_annotate(s->facts, m);
	in.facts = s->facts;
	in.matrix = m;
	in.now = time(NULL);
	in.matrix_checked = 0;
	diagnose(&in, &s->findings);
	return 0;
}

static void
side_free(struct side *s)
{
	findings_free(&s->findings);
	if (s->facts != NULL)
		facts_free(s->facts);
	if (s->sr != NULL)
		sysroot_free(s->sr);
}

/* ------------------------------------------------------------ live */

static void
live_run(struct verify_run *r, const char *soname, const char *helper,
    char *const *envp, double timeout_s)
{
	memset(r, 0, sizeof *r);
	r->kind = VERIFY_RUNTIME;
	r->lib = xstrdup(soname);
	strv_push(&r->argv, "runtime");
	strv_push(&r->argv, "--lib");
	strv_push(&r->argv, soname);
	verify_exec(r, helper, envp, timeout_s);
}

/* Each libcudart soname the script's environment resolves, loaded by
 * soname so the dynamic loader searches exactly as a program would. */
static void
check_live(struct check *c, const char *helper, double timeout_s)
{
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct check_row *r = &c->rows.v[i];
		bool seen = false;
		struct live *l;

		if (strncmp(r->soname, "libcudart.so.", 13) != 0 ||
		    r->after.state != NEED_RESOLVES)
			continue;
		for (size_t j = 0; j < c->live.n; j++)
			seen = seen || strcmp(c->live.v[j].soname, r->soname) == 0;
		if (seen)
			continue;
		l = VEC_PUSH(&c->live);
		l->soname = xstrdup(r->soname);
		live_run(&l->before, r->soname, helper, environ, timeout_s);
		live_run(&l->after, r->soname, helper, c->src.envp, timeout_s);
	}
}

/* What a live run proved, in a few words. */
static char *
live_words(const struct verify_run *r)
{
	const struct verify_record *init = verify_find(r, "init", -1);
	const struct verify_record *ld = verify_find(r, "load", -1);
	const struct verify_record *rv = verify_find(r, "runtime_version", -1);
	double v;

	if (r->outcome == VERIFY_NOT_STARTED)
		return xasprintf(_("not run: %s"), r->start_error != NULL ?
		    r->start_error : "?");
	if (r->outcome != VERIFY_DONE)
		return xasprintf(_("the helper %s (last step: %s)"),
		    verify_outcome_name(r->outcome), r->last_step != NULL ?
		    r->last_step : "-");
	if (ld != NULL && ld->ok == 0) {
		const char *e = verify_str(ld, "error");

		return xasprintf(_("does not load: %s"), e != NULL ? e : "?");
	}
	if (init != NULL && init->ok == 0)
		return xasprintf("%s (%lld)", init->name != NULL ? init->name :
		    "?", init->code);
	if (rv != NULL && verify_num(rv, "version", &v))
		return xasprintf(_("works: runtime %d.%d"), (int)v / 1000,
		    ((int)v % 1000) / 10);
	return xstrdup(_("works"));
}

static void
live_free(struct check *c)
{
	for (size_t i = 0; i < c->live.n; i++) {
		free(c->live.v[i].soname);
		verify_run_free(&c->live.v[i].before);
		verify_run_free(&c->live.v[i].after);
	}
	free(c->live.v);
}

/* ------------------------------------------------------- findings */

static bool
has_code(const struct findings *fs, enum finding_code code)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].code == code)
			return true;
	return false;
}

/* Codes (problems: warnings and errors) in a and not in b. */
static void
codes_only(const struct findings *a, const struct findings *b, struct strv *out)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *name = finding_code_name(a->v[i].code);

		if (a->v[i].severity < SEV_WARNING || has_code(b, a->v[i].code) ||
		    strv_contains(out, name))
			continue;
		strv_push(out, name);
	}
}

/* ------------------------------------------------------------ text */

static const char *
verdict_words(enum need_verdict v)
{
	switch (v) {
	case VERDICT_UNCHANGED:
		return _("unchanged");
	case VERDICT_MOVED:
		return _("resolves elsewhere");
	case VERDICT_FIXED:
		return _("FIXED");
	case VERDICT_STILL_BROKEN:
		return _("STILL BROKEN");
	case VERDICT_BROKEN:
		return _("BROKEN BY THE SCRIPT");
	}
	return "?";
}

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

static void
print_text(FILE *fp, const struct check *c, bool ok)
{
	struct strv gone = STRV_INIT, new = STRV_INIT;
	bool any = false;

	fprintf(fp, _("%s: a %s script, sourced in %s\n\n"), c->file,
	    script_format_name(c->fmt), c->src.shell);
	fputs(_("What it changes\n"), fp);
	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++)
		var_text(fp, shown_vars[i], environ, c->src.envp);
	fputs(_("\nWhat the frameworks need\n"), fp);
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct check_row *r = &c->rows.v[i];

		if (r->framework == NULL)
			continue;
		any = true;
		fprintf(fp, _("  %s for %s (%s)%s: %s\n"), r->soname, r->framework,
		    r->env, r->optional ? _(", optional") : "",
		    verdict_words(r->verdict));
		side_text(fp, _("before:"), &r->before);
		side_text(fp, _("after: "), &r->after);
	}
	if (!any)
		fputs(_("  (no framework that runs on the GPU was found)\n"), fp);
	fputs(_("\nCUDA libraries\n"), fp);
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct check_row *r = &c->rows.v[i];

		if (r->framework != NULL)
			continue;
		/* Missing on both sides and optional: noise. */
		if (r->optional && r->verdict == VERDICT_STILL_BROKEN)
			continue;
		fprintf(fp, "  %s: %s\n", r->soname, verdict_words(r->verdict));
		if (r->verdict != VERDICT_UNCHANGED)
			side_text(fp, _("before:"), &r->before);
		side_text(fp, _("after: "), &r->after);
	}
	fputs(_("\nLive runtime check\n"), fp);
	if (c->live_why != NULL)
		fprintf(fp, _("  not run: %s\n"), c->live_why);
	else if (c->live.n == 0)
		fputs(_("  not run: no CUDA runtime resolves in the script's "
		    "environment\n"), fp);
	for (size_t i = 0; i < c->live.n; i++) {
		char *b = live_words(&c->live.v[i].before);
		char *a = live_words(&c->live.v[i].after);

		fprintf(fp, "  %s\n", c->live.v[i].soname);
		fprintf(fp, _("      before: %s\n      after:  %s\n"), b, a);
		free(b);
		free(a);
	}
	codes_only(&c->before.findings, &c->after.findings, &gone);
	codes_only(&c->after.findings, &c->before.findings, &new);
	fputs(_("\nFindings\n"), fp);
	for (size_t i = 0; i < gone.n; i++)
		fprintf(fp, _("  gone: %s\n"), gone.v[i]);
	for (size_t i = 0; i < new.n; i++)
		fprintf(fp, _("  new:  %s\n"), new.v[i]);
	if (gone.n + new.n == 0)
		fputs(_("  the same before and after\n"), fp);
	fputc('\n', fp);
	fputs(ok ? _("Result: inside the script's environment every library the "
	    "frameworks need resolves, and nothing that worked stopped working.\n") :
	    _("Result: the script does not fix everything: see the rows marked "
	    "above.\n"), fp);
	strv_free(&gone);
	strv_free(&new);
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
	char *words = live_words(r);

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

static int
print_json(const struct check *c, bool ok)
{
	json_t *doc = json_object(), *vars = json_object(), *rows = json_array();
	json_t *live = json_array(), *fnd = json_object();
	struct strv gone = STRV_INIT, new = STRV_INIT;
	int rc;

	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++) {
		json_t *v = json_object();

		json_object_set_new(v, "before", jstr(envp_get(environ, shown_vars[i])));
		json_object_set_new(v, "after", jstr(envp_get(c->src.envp,
		    shown_vars[i])));
		json_object_set_new(vars, shown_vars[i], v);
	}
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct check_row *r = &c->rows.v[i];
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
	for (size_t i = 0; i < c->live.n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "soname", json_string(c->live.v[i].soname));
		json_object_set_new(o, "before", live_json(&c->live.v[i].before));
		json_object_set_new(o, "after", live_json(&c->live.v[i].after));
		json_array_append_new(live, o);
	}
	codes_only(&c->before.findings, &c->after.findings, &gone);
	codes_only(&c->after.findings, &c->before.findings, &new);
	json_object_set_new(fnd, "gone", jstrv(&gone));
	json_object_set_new(fnd, "new", jstrv(&new));
	json_object_set_new(doc, "schema", json_string("cudawiz/env-check/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "file", json_string(c->file));
	json_object_set_new(doc, "format", json_string(script_format_name(c->fmt)));
	json_object_set_new(doc, "shell", jstr(c->src.shell));
	json_object_set_new(doc, "variables", vars);
	json_object_set_new(doc, "needs", rows);
	json_object_set_new(doc, "live", live);
	json_object_set_new(doc, "live_skipped", jstr(c->live_why));
	json_object_set_new(doc, "findings", fnd);
	json_object_set_new(doc, "ok", json_boolean(ok));
	rc = json_write(stdout, doc);
	json_decref(doc);
	strv_free(&gone);
	strv_free(&new);
	return rc;
}

/* ------------------------------------------------------------ main */

int
cmd_env_check(const struct cli_opts *opts)
{
	struct check c;
	struct matrix *m = NULL;
	char *err = NULL, *note = NULL, *helper;
	double timeout_s = opts->timeout_ms > 0 ? opts->timeout_ms / 1000.0 :
	    VERIFY_TIMEOUT_DEFAULT_S;
	int rc = EXIT_USAGE;
	bool ok;

	memset(&c, 0, sizeof c);
	c.file = opts->check;
	if (opts->shell != NULL) {
		if (!script_format_parse(opts->shell, &c.fmt)) {
			fprintf(stderr, _("%s: --shell %s: not a format cudawiz "
			    "writes\n"), PACKAGE, opts->shell);
			return EXIT_USAGE;
		}
	} else if (script_file_format(c.file, &c.fmt, &err) != 0) {
		goto fail;
	}
	m = select_matrix(opts->matrix_file, &note, &err);
	free(note);
	if (m == NULL)
		goto fail;
	if (script_source(c.file, c.fmt, environ, timeout_s, &c.src, &err) != 0 ||
	    probe_side(&c.before, opts->root, environ, m, &err) != 0 ||
	    probe_side(&c.after, opts->root, c.src.envp, m, &err) != 0)
		goto fail;
	check_compare(c.before.facts, c.after.facts, &c.rows);
	if (!c.after.facts->live_allowed)
		c.live_why = xstrdup(_("under --root nothing is loaded"));
	else if ((helper = verify_helper_path(environ, &c.live_why)) != NULL) {
		check_live(&c, helper, timeout_s);
		free(helper);
	}
	ok = check_rows_ok(&c.rows);
	if (opts->json) {
		if (print_json(&c, ok) != 0)
			goto write_fail;
	} else {
		print_text(stdout, &c, ok);
	}
	if (fflush(stdout) != 0)
		goto write_fail;
	rc = ok ? EXIT_OK : EXIT_FINDINGS;
	goto out;
write_fail:
	perror(PACKAGE ": writing the report");
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	free(err);
	check_rows_free(&c.rows);
	live_free(&c);
	free(c.live_why);
	side_free(&c.before);
	side_free(&c.after);
	sourced_free(&c.src);
	if (m != NULL)
		matrix_free(m);
	return rc;
}
