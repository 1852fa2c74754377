/* cudawiz env --check FILE: the before/after proof that a script fixes
 * what it says, as text or JSON. The proof itself (the script sourced in
 * its shell, the machine probed on both sides, every need compared, the
 * runtime loaded live) is src/envplan/check.c, which the wizard's Fix
 * page shares; this file picks the format and prints. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "envplan/check.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "run/run.h"
#include "util/envp.h"
#include "util/openreg.h"
#include "util/xalloc.h"

extern char **environ;

static const char *const shown_vars[] = { "PATH", "LD_LIBRARY_PATH",
    "CUDA_HOME", "CUDA_PATH" };

/* What the command prints: the proof (envplan/check.h) and the file. */
struct check {
	const char		*file;
	struct env_check	 ec;
};

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

static void
print_text(FILE *fp, const struct check *c, bool ok)
{
	const struct strv *gone = &c->ec.gone, *new = &c->ec.new;
	bool any = false;

	fprintf(fp, _("%s: a %s script, sourced in %s\n\n"), c->file,
	    script_format_name(c->ec.fmt), c->ec.src.shell);
	fputs(_("What it changes\n"), fp);
	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++)
		var_text(fp, shown_vars[i], environ, c->ec.src.envp);
	fputs(_("\nWhat the frameworks need\n"), fp);
	for (size_t i = 0; i < c->ec.rows.n; i++) {
		const struct check_row *r = &c->ec.rows.v[i];

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
	fputs(_("\nCUDA libraries\n"), fp);
	for (size_t i = 0; i < c->ec.rows.n; i++) {
		const struct check_row *r = &c->ec.rows.v[i];

		if (r->framework != NULL)
			continue;
		/* Missing on both sides and optional: noise. */
		if (r->optional && r->verdict == VERDICT_STILL_BROKEN)
			continue;
		fprintf(fp, "  %s: %s\n", r->soname, env_check_verdict_words(r->verdict));
		if (r->verdict != VERDICT_UNCHANGED)
			side_text(fp, _("before:"), &r->before);
		side_text(fp, _("after: "), &r->after);
	}
	fputs(_("\nLive runtime check\n"), fp);
	if (c->ec.live_why != NULL)
		fprintf(fp, _("  not run: %s\n"), c->ec.live_why);
	else if (c->ec.live.n == 0)
		fputs(_("  not run: no CUDA runtime resolves in the script's "
		    "environment\n"), fp);
	for (size_t i = 0; i < c->ec.live.n; i++) {
		char *b = env_check_live_words(&c->ec.live.v[i].before);
		char *a = env_check_live_words(&c->ec.live.v[i].after);

		fprintf(fp, "  %s\n", c->ec.live.v[i].soname);
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
	fputs(ok ? _("Result: inside the script's environment every library the "
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

static int
print_json(const struct check *c, bool ok)
{
	json_t *doc = json_object(), *vars = json_object(), *rows = json_array();
	json_t *live = json_array(), *fnd = json_object();
	int rc;

	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++) {
		json_t *v = json_object();

		json_object_set_new(v, "before", jstr(envp_get(environ, shown_vars[i])));
		json_object_set_new(v, "after", jstr(envp_get(c->ec.src.envp,
		    shown_vars[i])));
		json_object_set_new(vars, shown_vars[i], v);
	}
	for (size_t i = 0; i < c->ec.rows.n; i++) {
		const struct check_row *r = &c->ec.rows.v[i];
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
	for (size_t i = 0; i < c->ec.live.n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "soname", json_string(c->ec.live.v[i].soname));
		json_object_set_new(o, "before", live_json(&c->ec.live.v[i].before));
		json_object_set_new(o, "after", live_json(&c->ec.live.v[i].after));
		json_array_append_new(live, o);
	}
	json_object_set_new(fnd, "gone", jstrv(&c->ec.gone));
	json_object_set_new(fnd, "new", jstrv(&c->ec.new));
	json_object_set_new(doc, "schema", json_string("cudawiz/env-check/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "file", json_string(c->file));
	json_object_set_new(doc, "format", json_string(script_format_name(c->ec.fmt)));
	json_object_set_new(doc, "shell", jstr(c->ec.src.shell));
	json_object_set_new(doc, "variables", vars);
	json_object_set_new(doc, "needs", rows);
	json_object_set_new(doc, "live", live);
	json_object_set_new(doc, "live_skipped", jstr(c->ec.live_why));
	json_object_set_new(doc, "findings", fnd);
	json_object_set_new(doc, "ok", json_boolean(ok));
	rc = json_write(stdout, doc);
	json_decref(doc);
	return rc;
}

/* ------------------------------------------------------------ main */

/* The script must be a regular file before anything reads it: reading a
 * FIFO waits for a writer (the format sniffing and the shell that sources
 * it would both hang), and opening a device can have effects of its own. */
static int
check_script_file(const char *file, char **err)
{
	struct stat st;
	int fd, rc = openreg(AT_FDCWD, file, OPENREG_FOLLOW, &fd, &st);

	if (rc != 0) {
		*err = xasprintf("%s: %s", file, openreg_strerror(rc, &st));
		return -1;
	}
	if (close(fd) != 0) {
		/* Only read from; nothing to lose. */
	}
	return 0;
}

int
cmd_env_check(const struct cli_opts *opts)
{
	struct check c;
	enum script_format fmt;
	struct cw_run run;
	bool opened = false;
	char *err = NULL;
	double timeout_s = opts->timeout_ms > 0 ? opts->timeout_ms / 1000.0 :
	    VERIFY_TIMEOUT_DEFAULT_S;
	int rc = EXIT_USAGE;

	memset(&c, 0, sizeof c);
	c.file = opts->check;
	if (check_script_file(c.file, &err) != 0)
		goto fail;
	if (opts->shell != NULL) {
		if (!script_format_parse(opts->shell, &fmt)) {
			fprintf(stderr, _("%s: --shell %s: not a format cudawiz "
			    "writes\n"), PACKAGE, opts->shell);
			return EXIT_USAGE;
		}
	} else if (script_file_format(c.file, &fmt, &err) != 0) {
		goto fail;
	}
	if (run_open(&run, opts->root, opts->matrix_file, environ, &err) != 0)
		goto fail;
	opened = true;
	run_say_note(&run);
	if (env_check_run_in(&run, c.file, fmt, timeout_s, NULL, &c.ec,
	    &err) != 0)
		goto fail;
	if (opts->json) {
		if (print_json(&c, c.ec.ok) != 0)
			goto write_fail;
	} else {
		print_text(stdout, &c, c.ec.ok);
	}
	if (fflush(stdout) != 0)
		goto write_fail;
	rc = c.ec.ok ? EXIT_OK : EXIT_FINDINGS;
	goto out;
write_fail:
	perror(PACKAGE ": writing the report");
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	free(err);
	env_check_free(&c.ec);
	if (opened)
		run_close(&run);
	return rc;
}
