/* cudawiz env in the Windows program: the Windows pipeline (winrun.h)
 * over this machine, the plan its facts call for (envplan/winplan.h:
 * the directories holding the DLLs each framework loads put first on
 * PATH, the other toolkits' bin directories taken out, CUDA_PATH naming
 * the toolkit chosen), rendered as a PowerShell script (the default:
 * the console shell of Windows 10 and 11) or a cmd.exe batch file, for
 * this console or with --scope user for the user's environment too.
 * Printed, or written with -o (an existing file only with --force, kept
 * as FILE.bak); --json is Linux's cudawiz/env/1 document. What no PATH
 * change fixes is said on stderr, as on Linux. env --check FILE is
 * src/win/cmd_env_check.c. win_env_write (cmd_env.h) is the writing
 * half for the guided mode. */
#include "config.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "envplan/plan.h"
#include "envplan/winplan.h"
#include "envscript/envscript.h"
#include "i18n.h"
#include "present/envcmd.h"
#include "util/xalloc.h"
#include "win/cmd_env.h"
#include "win/winrun.h"

/* The options of Linux's env that need its probe or its shells. */
static bool
linux_only(const struct cli_opts *opts)
{
	if (opts->install_rc || opts->cudnn != NULL ||
	    opts->python_env != NULL || opts->nadd_lib > 0) {
		fprintf(stderr, _("%s: on Windows, env takes --shell, --scope, "
		    "--toolkit, --keep-other-cuda, -o, --force and --json; "
		    "--cudnn, --python-env, --add-lib and --install-rc are not "
		    "available on Windows yet\n"), PACKAGE);
		return true;
	}
	return false;
}

static int
format_of(const struct cli_opts *opts, enum script_format *fmt)
{
	const char *shell = opts->shell != NULL ? opts->shell : "powershell";

	if (script_format_parse(shell, fmt) && opts->scope_user &&
	    !script_user_scope(*fmt)) {
		fprintf(stderr, _("%s: --scope user changes the Windows user "
		    "environment, which only the powershell and cmd scripts can "
		    "do, not %s\n"), PACKAGE, script_format_name(*fmt));
		return -1;
	}
	if (!script_format_parse(shell, fmt) ||
	    (*fmt != SCRIPT_POWERSHELL && *fmt != SCRIPT_CMD)) {
		fprintf(stderr, _("%s: --shell %s: on Windows, env writes "
		    "powershell (the default) or cmd scripts\n"), PACKAGE, shell);
		return -1;
	}
	return 0;
}

/* The script on stdout as its bytes: the C runtime's text mode would
 * turn the cmd.exe script's CRLF into CR CR LF. */
static int
print_script(const char *text)
{
	int old;

	if (fflush(stdout) != 0)
		return -1;
	old = _setmode(_fileno(stdout), _O_BINARY);
	fputs(text, stdout);
	if (fflush(stdout) != 0)
		return -1;
	if (old != -1)
		(void)_setmode(_fileno(stdout), old);
	return 0;
}

static void
how_to_use(const struct env_plan *p, enum script_format fmt,
    const char *path, const char *backup)
{
	struct script_use u = { path, NULL, NULL };
	char *undo = script_deactivate_name(p), *use;

	u.undo = undo;
	printf(_("wrote %s\n"), path);
	if (backup != NULL)
		printf(_("  the file that was there is kept as %s\n"), backup);
	use = script_use_lines(fmt, &u);
	fputs(use, stdout);
	free(use);
	env_print_scope(stdout, fmt, p);
	free(undo);
}

/* Why no script is written for a plan that changes nothing. Owned. */
static char *
nothing_words(const struct winplan_report *rep)
{
	if (rep->unfixable.n > 0)
		return xstrdup(_("no change to PATH or CUDA_PATH would help; no "
		    "script written"));
	if (rep->targets.n > 0)
		return xstrdup(_("nothing needs changing: every framework here "
		    "finds its CUDA DLLs where it loads them"));
	return xstrdup(_("nothing needs changing: no framework here loads CUDA "
	    "DLLs (no --toolkit was asked for)"));
}

/* The plan and its script for r; text stays empty when the plan changes
 * nothing. -1 with *err. */
static int
plan_render(const struct win_run *r, const struct winplan_opts *wo,
    bool scope_user, enum script_format fmt, struct env_plan *plan,
    struct winplan_report *rep, struct script_text *text, char **err)
{
	if (winplan_build(&r->facts, r->m, wo, plan, rep, err) != 0)
		return -1;
	plan->win_user = scope_user;
	if (!rep->nothing && script_render(plan, fmt, VERSION, text, err) != 0)
		return -1;
	return 0;
}

enum win_env_result
win_env_write(const struct win_run *r, enum script_format fmt,
    const char *path, bool force, char **backup, char **why)
{
	struct winplan_opts wo = { NULL, false };
	struct env_plan plan = { 0 };
	struct winplan_report rep = { 0 };
	struct script_text text = { NULL, NULL };
	enum win_env_result res = WIN_ENV_FAILED;

	*backup = *why = NULL;
	if (plan_render(r, &wo, false, fmt, &plan, &rep, &text, why) != 0)
		goto out;
	if (rep.nothing) {
		*why = nothing_words(&rep);
		res = WIN_ENV_NOTHING;
	} else if (script_write_file(path, text.text, force, backup, why) == 0) {
		res = WIN_ENV_WRITTEN;
	}
out:
	script_text_free(&text);
	env_plan_free(&plan);
	winplan_report_free(&rep);
	return res;
}

int
cmd_env(const struct cli_opts *opts)
{
	struct winplan_opts wo = { opts->toolkit, opts->keep_other_cuda };
	struct env_plan plan = { 0 };
	struct winplan_report rep = { 0 };
	struct plan_report view;
	struct script_text text = { NULL, NULL };
	struct env_written_view wv = { 0 };
	enum script_format fmt;
	struct win_run r;
	char *err = NULL, *backup = NULL;
	int rc = EXIT_USAGE;

	if (opts->check != NULL)
		return cmd_env_check(opts);
	if (linux_only(opts) || format_of(opts, &fmt) != 0)
		return EXIT_USAGE;
	if (win_run_open_or_say(&r, opts->matrix_file, true) != 0)
		return EXIT_USAGE;
	if (plan_render(&r, &wo, opts->scope_user, fmt, &plan, &rep, &text,
	    &err) != 0)
		goto say;
	view.unfixable = rep.unfixable;
	view.targets = rep.targets;
	if (!rep.nothing && opts->output != NULL) {
		if (script_target_exists(opts->output) && !opts->force) {
			fprintf(stderr, _("%s: %s exists: not replaced without --force "
			    "(which keeps it as %s.bak)\n"), PACKAGE, opts->output,
			    opts->output);
			goto out;
		}
		if (script_write_file(opts->output, text.text, opts->force, &backup,
		    &err) != 0)
			goto say;
		wv.path = opts->output;
		wv.backup = backup;
	}
	if (opts->json) {
		rc = env_print_json(stdout, fmt, &plan, &view, &text, &wv) == 0 ?
		    EXIT_OK : EXIT_USAGE;
	} else if (rep.nothing) {
		char *words = nothing_words(&rep);

		fprintf(stderr, "%s: %s\n", PACKAGE, words);
		free(words);
		rc = EXIT_OK;
	} else if (wv.path == NULL) {
		rc = print_script(text.text) == 0 ? EXIT_OK : EXIT_USAGE;
	} else {
		how_to_use(&plan, fmt, wv.path, backup);
		rc = fflush(stdout) == 0 ? EXIT_OK : EXIT_USAGE;
	}
	if (!opts->json)
		env_print_unfixable(stderr, &view);
	/* Nothing to write while a framework still cannot load what it
	 * needs: the action failed. */
	if (rc == EXIT_OK && rep.nothing && rep.unfixable.n > 0)
		rc = EXIT_FINDINGS;
	goto out;
say:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	script_text_free(&text);
	env_plan_free(&plan);
	winplan_report_free(&rep);
	free(backup);
	free(err);
	win_run_close(&r);
	return rc;
}
