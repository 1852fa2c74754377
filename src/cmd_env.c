/* cudawiz env: probe, build the plan (src/envplan/), render it for a
 * shell (src/envscript/), and print it or write it where asked; with
 * --check, prove what a written script changes (cmd_env_check.c). */
#include "config.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diagnose/diagnose.h"
#include "envplan/plan.h"
#include "envscript/envscript.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "probe/probe.h"
#include "run/run.h"
#include "sysroot/sysroot.h"
#include "util/homedir.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

extern char **environ;

/* The rc file --install-rc edits, for the user's own shell; NULL for a
 * format no rc file sources. */
static char *
rc_file(const char *home, const char *shell, enum script_format fmt)
{
	if (fmt == SCRIPT_FISH)
		return xasprintf("%s/.config/fish/config.fish", home);
	if (fmt == SCRIPT_CSH)
		return xasprintf("%s/%s", home, strcmp(shell, "csh") == 0 ?
		    ".cshrc" : ".tcshrc");
	if (fmt != SCRIPT_SH)
		return NULL;
	if (strcmp(shell, "zsh") == 0)
		return xasprintf("%s/.zshrc", home);
	if (strcmp(shell, "ksh") == 0 || strcmp(shell, "mksh") == 0)
		return xasprintf("%s/.kshrc", home);
	if (strcmp(shell, "bash") == 0)
		return xasprintf("%s/.bashrc", home);
	return xasprintf("%s/.profile", home);
}

static json_t *
pathvar_json(const struct plan_pathvar *pv)
{
	json_t *o = json_object();

	json_object_set_new(o, "prepend", jstrv(&pv->prepend));
	json_object_set_new(o, "remove", jstrv(&pv->remove));
	json_object_set_new(o, "drop_stubs", json_boolean(pv->drop_stubs));
	json_object_set_new(o, "drop_missing", json_boolean(pv->drop_missing));
	return o;
}

static json_t *
var_json(const struct plan_var *v)
{
	json_t *o = json_object();
	static const char *const ops[] = { "keep", "set", "unset" };

	json_object_set_new(o, "op", json_string(ops[v->op]));
	json_object_set_new(o, "value", jstr(v->value));
	return o;
}

static json_t *
plan_json(const struct env_plan *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jstr(p->name));
	json_object_set_new(o, "notes", jstrv(&p->notes));
	json_object_set_new(o, "path", pathvar_json(&p->path));
	json_object_set_new(o, "ld_library_path", pathvar_json(&p->ld_library_path));
	json_object_set_new(o, "cuda_home", var_json(&p->cuda_home));
	json_object_set_new(o, "cuda_path", var_json(&p->cuda_path));
	json_object_set_new(o, "win_path_prepend", jstrv(&p->win_path_prepend));
	json_object_set_new(o, "win_path_remove", jstrv(&p->win_path_remove));
	return o;
}

/* Where the files went, for the text and JSON reports. */
struct written {
	char	*path;
	char	*backup;
	char	*deactivate;		/* conda */
	char	*rc;
	char	*rc_backup;
	bool	 rc_changed;
};

static void
written_free(struct written *w)
{
	free(w->path);
	free(w->backup);
	free(w->deactivate);
	free(w->rc);
	free(w->rc_backup);
}

/* The lines that tell a person how to use what was written. */
static void
how_to_use(FILE *fp, const struct env_plan *p, enum script_format fmt,
    const struct written *w)
{
	char *undo, *src;

	if (w->path == NULL)
		return;
	undo = script_deactivate_name(p);
	fprintf(fp, _("wrote %s\n"), w->path);
	if (w->backup != NULL)
		fprintf(fp, _("  the file that was there is kept as %s\n"), w->backup);
	switch (fmt) {
	case SCRIPT_SH:
	case SCRIPT_POWERSHELL:
	case SCRIPT_FISH:
	case SCRIPT_CSH:
		src = script_source_cmd(fmt, w->path);
		fprintf(fp, _("activate:  %s\nundo:      %s\n"), src, undo);
		free(src);
		break;
	case SCRIPT_CONDA:
		fprintf(fp, _("and %s\nactivate:  conda activate (the environment)\n"
		    "undo:      conda deactivate\n"), w->deactivate);
		break;
	case SCRIPT_LMOD:
	case SCRIPT_TCL: {
		char *dir = xstrdup(w->path), *base = xstrdup(w->path);
		char *b = basename(base), *dot = strrchr(b, '.');
		struct strbuf qd = STRBUF_INIT, qb = STRBUF_INIT;

		if (fmt == SCRIPT_LMOD && dot != NULL && strcmp(dot, ".lua") == 0)
			*dot = '\0';
		/* `module` is a shell function or alias: its arguments in
		 * sh quoting, so a blank in the directory stays in it. */
		shquote(&qd, dirname(dir));
		shquote(&qb, b);
		fprintf(fp, _("activate:  module use %s && module load %s\n"
		    "undo:      module unload %s\n"), strbuf_str(&qd),
		    strbuf_str(&qb), strbuf_str(&qb));
		strbuf_free(&qd);
		strbuf_free(&qb);
		free(dir);
		free(base);
		break;
	}
	case SCRIPT_DIRENV:
		src = script_source_cmd(fmt, w->path);
		fprintf(fp, _("activate:  %s\nundo:      leave the directory\n"),
		    src);
		free(src);
		break;
	}
	if (w->rc != NULL)
		fprintf(fp, w->rc_changed ? _("added a line sourcing it to %s\n") :
		    _("%s already sources it\n"), w->rc);
	free(undo);
}

static int
write_out(const struct cli_opts *opts, const struct env_plan *p,
    enum script_format fmt, const struct script_text *t, const struct facts *f,
    struct written *w, char **err)
{
	if (fmt == SCRIPT_CONDA) {
		const char *prefix = opts->python_env != NULL ? opts->python_env :
		    f->env.var[ENV_CONDA_PREFIX].set ?
		    f->env.var[ENV_CONDA_PREFIX].value : NULL;

		if (prefix == NULL || *prefix == '\0') {
			*err = xstrdup(_("--shell conda writes into a conda "
			    "environment: activate it or name it with --python-env"));
			return -1;
		}
		return script_write_conda(prefix, p, t, opts->force, &w->path,
		    &w->deactivate, err);
	}
	if (opts->output == NULL)
		return 0;
	/* Which rc file, before anything is written: a run that cannot
	 * add the line writes nothing. */
	if (opts->install_rc) {
		const char *home = home_dir();

		if (home == NULL) {
			const char *h = getenv("HOME");

			*err = h == NULL ? xstrdup(_("--install-rc: HOME is not "
			    "set, so there is no rc file to edit")) :
			    xasprintf(_("--install-rc: HOME ('%s') is not an "
			    "absolute path; the rc file would land under the "
			    "current directory"), h);
			return -1;
		}
		w->rc = rc_file(home, script_login_shell(environ), fmt);
		if (w->rc == NULL) {
			*err = xasprintf(_("--install-rc works for sh, fish and csh "
			    "scripts; source a %s file by hand"),
			    script_format_name(fmt));
			return -1;
		}
	}
	if (script_write_file(opts->output, t->text, opts->force, &w->backup,
	    err) != 0)
		return -1;
	w->path = xstrdup(opts->output);
	if (opts->install_rc) {
		char *abs = realpath(opts->output, NULL);

		if (script_install_rc(w->rc, abs != NULL ? abs : opts->output, fmt,
		    &w->rc_changed, &w->rc_backup, err) != 0) {
			free(abs);
			return -1;
		}
		free(abs);
	}
	return 0;
}

static int
usage_checks(const struct cli_opts *opts)
{
	if (opts->nargs > 0) {
		fprintf(stderr, _("%s: env takes no arguments ('%s')\n"), PACKAGE,
		    opts->args[0]);
		return -1;
	}
	if (opts->install_rc && opts->output == NULL) {
		fprintf(stderr, _("%s: --install-rc needs -o FILE: the rc file "
		    "sources that file\n"), PACKAGE);
		return -1;
	}
	return 0;
}

int
cmd_env(const struct cli_opts *opts)
{
	struct plan_opts po = { 0 };
	struct env_plan plan;
	struct plan_report rep;
	struct script_text text = { NULL, NULL };
	struct written w = { 0 };
	enum script_format fmt;
	struct cw_run cr;
	struct facts *facts;
	char *err = NULL;
	const char *shell = opts->shell != NULL ? opts->shell : script_login_shell(environ);
	int rc = EXIT_USAGE;

	if (usage_checks(opts) != 0)
		return EXIT_USAGE;
	if (opts->check != NULL)
		return cmd_env_check(opts);
	if (!script_format_parse(shell, &fmt)) {
		if (opts->shell != NULL) {
			fprintf(stderr, _("%s: --shell %s: not a format cudawiz writes "
			    "(sh, bash, zsh, dash, ksh, fish, csh, tcsh, powershell, "
			    "conda, lmod, tcl, direnv)\n"), PACKAGE, opts->shell);
			return EXIT_USAGE;
		}
		fmt = SCRIPT_SH;	/* an unknown login shell: POSIX sh */
	}
	if (run_open_or_say(&cr, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	run_say_note(&cr);
	run_probe(&cr, RUN_FULL);
	run_annotate(&cr);
	facts = cr.facts;
	po.toolkit = opts->toolkit;
	po.cudnn = opts->cudnn;
	po.python_env = opts->python_env;
	for (size_t i = 0; i < opts->nadd_lib; i++)
		strv_push(&po.add_lib, opts->add_lib[i]);
	po.keep_other_cuda = opts->keep_other_cuda;
	if (plan_build(facts, &po, &plan, &rep, &err) != 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		goto out;
	}
	if (script_render(&plan, fmt, VERSION, &text, &err) != 0 ||
	    write_out(opts, &plan, fmt, &text, facts, &w, &err) != 0) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		goto out;
	}
	if (opts->json) {
		json_t *doc = json_object(), *wr = json_null();

		if (w.path != NULL) {
			wr = json_object();
			json_object_set_new(wr, "path", jstr(w.path));
			json_object_set_new(wr, "backup", jstr(w.backup));
			json_object_set_new(wr, "deactivate", jstr(w.deactivate));
			json_object_set_new(wr, "rc", jstr(w.rc));
			json_object_set_new(wr, "rc_changed", json_boolean(w.rc_changed));
		}
		json_object_set_new(doc, "schema", json_string("cudawiz/env/1"));
		json_object_set_new(doc, "version", json_string(VERSION));
		json_object_set_new(doc, "format", json_string(script_format_name(fmt)));
		json_object_set_new(doc, "plan", plan_json(&plan));
		json_object_set_new(doc, "targets", jstrv(&rep.targets));
		json_object_set_new(doc, "unfixable", jstrv(&rep.unfixable));
		json_object_set_new(doc, "script", jstr(text.text));
		json_object_set_new(doc, "deactivate", jstr(text.deactivate));
		json_object_set_new(doc, "written", wr);
		rc = json_write(stdout, doc) == 0 ? EXIT_OK : EXIT_USAGE;
		json_decref(doc);
	} else if (w.path == NULL) {
		fputs(text.text, stdout);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE;
	} else {
		how_to_use(stdout, &plan, fmt, &w);
		rc = EXIT_OK;
	}
	/* What no script can fix: on stderr, so the script on stdout stays
	 * clean for a pipe. */
	for (size_t i = 0; i < rep.unfixable.n && !opts->json; i++)
		fprintf(stderr, _("%s: not fixed by this script: %s\n"), PACKAGE,
		    rep.unfixable.v[i]);
out:
	script_text_free(&text);
	env_plan_free(&plan);
	plan_report_free(&rep);
	written_free(&w);
	free(err);
	strv_free(&po.add_lib);
	run_close(&cr);
	return rc;
}
