/* cudawiz doctor: probe, annotate with the matrix, diagnose, present. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "i18n.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "run/run.h"

extern char **environ;

int
cmd_doctor(const struct cli_opts *opts)
{
	struct run_live live = { 0 };
	struct cw_run r;
	int rc;

	if (run_open_or_say(&r, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	run_probe(&r, RUN_FULL);
	run_annotate(&r);
	live.no_verify = opts->no_verify;
	live.quick = true;
	live.timeout_ms = opts->timeout_ms;
	live.progress = !opts->json;
	run_verify_by_policy(&r, &live);
	run_diagnose(&r);
	if (opts->json)
		rc = json_print_doctor(stdout, r.facts, &r.findings, r.m, r.now,
		    r.matrix_checked);
	else
	{
		rc = text_print_doctor(stdout, r.facts, &r.findings, r.m,
		    style_want_color(STDOUT_FILENO, opts->color));
		if (rc == 0 && opts->next_steps)
			text_print_next(stdout, &r.findings);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0)
		perror(PACKAGE ": writing the report");
	if (rc != 0)
		rc = EXIT_USAGE;
	else
		rc = findings_count(&r.findings, SEV_ERROR) > 0 ? EXIT_FINDINGS :
		    EXIT_OK;
	run_close(&r);
	return rc;
}
