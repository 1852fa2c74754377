/* The wizard command: doctor's pipeline once (the probes, live checks
 * when a driver is loaded, diagnose), then the pages on the terminal.
 * Where the terminal cannot be set up, the doctor report is printed
 * instead, as it is off a terminal. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "i18n.h"
#include "present/style.h"
#include "present/text.h"
#include "run/run.h"
#include "wizard/cmd_wizard.h"
#include "wizard/report.h"
#include "wizard/term.h"

extern char **environ;

bool
cmd_wizard_wanted(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 &&
	    term != NULL && term[0] != '\0' && strcmp(term, "dumb") != 0;
}

/* What was written and what is left to run, on the normal screen, where
 * the scrollback keeps it after the wizard's screen is gone. */
static void
say_farewell(char *text)
{
	if (text == NULL)
		return;
	if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
		perror(PACKAGE ": writing what the wizard did");
	free(text);
}

int
cmd_wizard(const struct cli_opts *opts, bool ascii, bool mouse)
{
	struct wiz_term_opts to = { ascii, opts->color, mouse };
	char *farewell = NULL;
	struct wiz_report_in in = { 0 };
	struct run_live live = { 0 };
	struct wiz_report r;
	struct cw_run run;
	int rc;

	if (run_open_or_say(&run, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	/* doctor's live checks, as doctor runs them. */
	live.no_verify = opts->no_verify;
	live.quick = true;
	live.timeout_ms = opts->timeout_ms;
	live.progress = !opts->json;
	in.run = &run;
	in.live = &live;
	/* The page's own runs: doctor's quick sizes, --timeout's limit. */
	in.verify_timeout_s = opts->timeout_ms > 0 ? opts->timeout_ms / 1000.0 : 0;
	in.verify_quick = true;
	/* The Compatibility page's update, as `matrix update` would run
	 * with these options. */
	in.update.offline = opts->offline;
	in.update.matrix_file = opts->matrix_file;
	in.update.urls = opts->urls;
	in.update.nurls = opts->nurls;
	in.update.connect_timeout_ms = opts->connect_timeout_ms;
	wiz_report_make(&r, &in);
	rc = wiz_term_run(&r, &to, &farewell);
	say_farewell(farewell);
	/* r.m: the matrix an update brought in, if one did. */
	if (rc < 0 && text_print_doctor(stdout, r.facts, &r.findings, r.m,
	    style_want_color(STDOUT_FILENO, opts->color)) != 0)
		perror(PACKAGE ": writing the report");
	if (rc > 0) {
		/* Ended by a signal: die of it, as the shell expects. */
		wiz_report_free(&r);
		run_close(&run);
		signal(rc, SIG_DFL);
		raise(rc);
		return EXIT_USAGE;
	}
	rc = findings_count(&r.findings, SEV_ERROR) > 0 ? EXIT_FINDINGS : EXIT_OK;
	/* The report borrows the run's matrix until it is freed. */
	wiz_report_free(&r);
	run_close(&run);
	return rc;
}
