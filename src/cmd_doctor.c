/* cudawiz doctor: probe, annotate with the matrix, diagnose, present. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "i18n.h"
#include "matrix/cache.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"

extern char **environ;

int
cmd_doctor(const struct cli_opts *opts)
{
	struct findings findings = { 0 };
	struct diagnose_input in;
	struct sysroot *sr;
	struct facts *facts;
	struct matrix *m;
	char *note = NULL;
	int rc;

	if (cmd_open(opts, &m, &sr, &note) != 0)
		return EXIT_USAGE;
	facts = probe_all(sr, environ);
	if (note != NULL)
		facts_note(facts, _("compatibility matrix cache"), "%s", note);
	diagnose_annotate(facts, m);
	cmd_doctor_verify(opts, facts);
	in.facts = facts;
	in.matrix = m;
	in.now = time(NULL);
	in.matrix_checked = cmd_matrix_checked();
	diagnose(&in, &findings);
	if (opts->json)
		rc = json_print_doctor(stdout, facts, &findings, m, in.now,
		    in.matrix_checked);
	else
	{
		rc = text_print_doctor(stdout, facts, &findings, m,
		    style_want_color(STDOUT_FILENO, opts->color));
		if (rc == 0 && opts->next_steps)
			text_print_next(stdout, &findings);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0)
		perror(PACKAGE ": writing the report");
	if (rc != 0)
		rc = EXIT_USAGE;
	else
		rc = findings_count(&findings, SEV_ERROR) > 0 ? EXIT_FINDINGS : EXIT_OK;
	findings_free(&findings);
	facts_free(facts);
	sysroot_free(sr);
	matrix_free(m);
	free(note);
	return rc;
}
