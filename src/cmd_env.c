/* cudawiz env: probe, build the plan (src/envplan/), render it for a
 * shell (src/envscript/), and print it or write it where asked; with
 * --check, prove what a written script changes (cmd_env_check.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "envplan/plan.h"
#include "envscript/envscript.h"
#include "i18n.h"
#include "present/envcmd.h"
#include "run/run.h"
#include "util/homedir.h"
#include "util/xalloc.h"

extern char **environ;

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
	struct script_use u = { w->path, w->deactivate, NULL };
	char *undo, *use;

	if (w->path == NULL)
		return;
	undo = script_deactivate_name(p);
	u.undo = undo;
	fprintf(fp, _("wrote %s\n"), w->path);
	if (w->backup != NULL)
		fprintf(fp, _("  the file that was there is kept as %s\n"), w->backup);
	use = script_use_lines(fmt, &u);
	fputs(use, fp);
	free(use);
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
	if (script_into_conda(fmt)) {
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
		w->rc = script_rc_file(fmt, home, script_login_shell(environ));
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
		struct env_written_view wv = { .path = w.path,
		    .backup = w.backup, .deactivate = w.deactivate, .rc = w.rc,
		    .rc_changed = w.rc_changed };

		rc = env_print_json(stdout, fmt, &plan, &rep, &text, &wv) == 0 ?
		    EXIT_OK : EXIT_USAGE;
	} else if (w.path == NULL) {
		fputs(text.text, stdout);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE;
	} else {
		how_to_use(stdout, &plan, fmt, &w);
		rc = EXIT_OK;
	}
	/* What no script can fix: on stderr, so the script on stdout stays
	 * clean for a pipe. */
	if (!opts->json)
		env_print_unfixable(stderr, &rep);
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
