/* cudawiz env: probe, build the plan (src/envplan/), render it for a
 * shell (src/envscript/), and print it or write it where asked; with
 * --check, prove what a written script changes (cmd_env_check.c). */
#include "config.h"

#include <errno.h>
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
#include "sysroot/sysroot.h"
#include "util/envp.h"
#include "util/homedir.h"
#include "util/pathnorm.h"
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
	env_print_scope(fp, fmt, p);
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

/* --toolkit 12.4 or 12 (digits and dots) is a version; anything else is
 * a directory (./12.4 names a directory called 12.4). */
static bool
is_version_word(const char *s)
{
	if (*s < '0' || *s > '9')
		return false;
	return s[strspn(s, "0123456789.")] == '\0';
}

/* dir as the tree sees it, absolute and normalised: a relative one is
 * taken from the current directory, as a shell would, since the script
 * is sourced elsewhere. Under --root that is $PWD, as doctor reads it
 * (the tree's own view; the process's directory is on the host). NULL
 * with *err when there is none to take it from. */
static char *
absolute_dir(const struct sysroot *sr, const char *opt, const char *dir,
    char **err)
{
	const char *cwd = NULL;
	char *host_cwd = NULL, *joined, *norm;

	if (*dir == '/')
		return path_normalise(dir);
	if (sysroot_is_host(sr))
		cwd = host_cwd = getcwd(NULL, 0);
	else if ((cwd = envp_get(environ, "PWD")) != NULL && *cwd != '/')
		cwd = NULL;
	if (cwd == NULL) {
		*err = sysroot_is_host(sr) ? xasprintf(_("--%s %s: cannot tell "
		    "the current directory (%s); give the directory as an "
		    "absolute path"), opt, dir, strerror(errno)) :
		    xasprintf(_("--%s %s: a relative directory under --root is "
		    "taken from $PWD, which is not an absolute path in the tree; "
		    "give the directory as the tree sees it (/opt/...)"), opt,
		    dir);
		return NULL;
	}
	joined = path_join(cwd, dir);
	norm = path_normalise(joined);
	free(joined);
	free(host_cwd);
	return norm;
}

/* Why a directory named by --toolkit or --cudnn cannot be used; for a
 * directory without one, none says what it lacks. */
static void
say_named(const char *opt, const char *given, int rc, const char *none)
{
	if (rc == PROBE_NAMED_NONE)
		fprintf(stderr, "%s: %s\n", PACKAGE, none);
	else if (rc == ENOENT)
		fprintf(stderr, _("%s: --%s %s: no such directory\n"), PACKAGE,
		    opt, given);
	else if (rc == ENOTDIR)
		fprintf(stderr, _("%s: --%s %s: not a directory\n"), PACKAGE, opt,
		    given);
	else
		fprintf(stderr, _("%s: --%s %s: cannot look at it: %s\n"),
		    PACKAGE, opt, given, sysroot_strerror(rc));
}

/* The toolkit and cuDNN directories the user named, probed as such
 * (src/probe: toolkit.c, cudnn.c); the plan then gets the facts' own
 * paths. -1 after saying why on stderr. */
static int
named_dirs(const struct cli_opts *opts, const struct cw_run *cr,
    struct plan_opts *po)
{
	const struct facts *f = cr->facts;
	const struct probe_named *tk = &cr->shared.toolkit_dir;
	const struct probe_named *dn = &cr->shared.cudnn_dir;

	if (tk->dir != NULL && tk->rc != 0) {
		char *none = xasprintf(_("%s has no version.json or version.txt, "
		    "no lib64/libcudart.so.N (nor lib/ or targets/*/lib/), no "
		    "bin/nvcc: it holds no CUDA toolkit"), opts->toolkit);

		say_named("toolkit", opts->toolkit, tk->rc, none);
		free(none);
		return -1;
	}
	if (tk->dir != NULL) {
		const struct toolkit_fact *t = &f->toolkits.v[tk->index];

		/* Only a version file: nothing to put on a path. */
		if (t->cudart.n == 0 && t->nvcc == NULL) {
			fprintf(stderr, _("%s: --toolkit %s: %s says CUDA %s, but "
			    "there is no lib64/libcudart.so.N (nor lib/ or "
			    "targets/*/lib/) and no bin/nvcc: nothing to put on "
			    "PATH or LD_LIBRARY_PATH\n"), PACKAGE, opts->toolkit,
			    t->version.source != NULL ? t->version.source : t->root,
			    fact_known(&t->version) ? t->version.value : "?");
			return -1;
		}
		po->toolkit = t->root;
	}
	if (dn->dir != NULL && dn->rc != 0) {
		char *none = xasprintf(_("%s has no libcudnn.so.N, in it or in "
		    "its lib/ or lib64/: it holds no cuDNN"), opts->cudnn);

		say_named("cudnn", opts->cudnn, dn->rc, none);
		free(none);
		return -1;
	}
	if (dn->dir != NULL)
		po->cudnn = f->cudnn.v[dn->index].lib_dir;
	return 0;
}

int
cmd_env(const struct cli_opts *opts)
{
	struct plan_opts po = { 0 };
	struct env_plan plan = { 0 };
	struct plan_report rep = { 0 };
	struct script_text text = { NULL, NULL };
	struct written w = { 0 };
	enum script_format fmt;
	struct cw_run cr;
	struct facts *facts;
	char *err = NULL, *tk_dir = NULL, *cudnn_dir = NULL;
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
	if (opts->scope_user && !script_user_scope(fmt)) {
		fprintf(stderr, _("%s: --scope user changes the Windows user "
		    "environment, which only the powershell and cmd scripts can "
		    "do, not %s\n"), PACKAGE, script_format_name(fmt));
		return EXIT_USAGE;
	}
	if (run_open_or_say(&cr, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	run_say_note(&cr);
	if (opts->toolkit != NULL && !is_version_word(opts->toolkit) &&
	    (tk_dir = absolute_dir(cr.sr, "toolkit", opts->toolkit, &err)) == NULL)
		goto say;
	if (opts->cudnn != NULL &&
	    (cudnn_dir = absolute_dir(cr.sr, "cudnn", opts->cudnn, &err)) == NULL)
		goto say;
	cr.shared.toolkit_dir.dir = tk_dir;
	cr.shared.cudnn_dir.dir = cudnn_dir;
	run_probe(&cr, RUN_FULL);
	run_annotate(&cr);
	facts = cr.facts;
	po.toolkit = opts->toolkit;
	if (named_dirs(opts, &cr, &po) != 0)
		goto out;
	po.python_env = opts->python_env;
	for (size_t i = 0; i < opts->nadd_lib; i++)
		strv_push(&po.add_lib, opts->add_lib[i]);
	po.keep_other_cuda = opts->keep_other_cuda;
	if (plan_build(facts, &po, &plan, &rep, &err) != 0)
		goto say;
	plan.win_user = opts->scope_user;
	if (script_render(&plan, fmt, VERSION, &text, &err) != 0 ||
	    write_out(opts, &plan, fmt, &text, facts, &w, &err) != 0)
		goto say;
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
	goto out;
say:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	script_text_free(&text);
	env_plan_free(&plan);
	plan_report_free(&rep);
	written_free(&w);
	free(err);
	strv_free(&po.add_lib);
	free(tk_dir);
	free(cudnn_dir);
	run_close(&cr);
	return rc;
}
