/* cudawiz doctor: probe, diagnose, present. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "diagnose/diagnose.h"
#include "i18n.h"
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
	struct sysroot *sr;
	struct facts *facts;
	char *err;
	int rc;

	if (opts->nargs > 0) {
		fprintf(stderr, _("%s: doctor takes no arguments ('%s')\n"),
		    PACKAGE, opts->args[0]);
		return EXIT_USAGE;
	}
	sr = sysroot_new(opts->root, &err);
	if (sr == NULL) {
		fprintf(stderr, "%s: %s\n", PACKAGE, err);
		free(err);
		return EXIT_USAGE;
	}
	facts = probe_all(sr, environ);
	diagnose(facts, &findings);
	if (opts->json)
		rc = json_print_doctor(stdout, facts, &findings);
	else
		rc = text_print_doctor(stdout, facts, &findings,
		    style_want_color(STDOUT_FILENO, opts->color));
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
	return rc;
}
