/* cudawiz verify: probe to learn which libraries there are, run the
 * helper on each (src/verify/), judge the runs, present them. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "i18n.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "run/run.h"
#include "verify/verify.h"

extern char **environ;

static int
print_json(const struct facts *facts, const struct findings *fs)
{
	json_t *doc = json_object();
	int rc;

	json_object_set_new(doc, "schema", json_string("cudawiz/verify/1"));
	json_object_set_new(doc, "version", json_string(VERSION));
	json_object_set_new(doc, "root", jstr(facts->root));
	json_object_set_new(doc, "verify", verify_json(&facts->verify));
	json_object_set_new(doc, "findings", findings_json(fs));
	rc = json_write(stdout, doc);
	json_decref(doc);
	return rc;
}

int
cmd_verify(const struct cli_opts *opts)
{
	struct run_live live = { 0 };
	struct diagnose_input in;
	struct cw_run r;
	char *env = NULL;
	int rc;

	/* --env is a request to run code from a tree: refused outright,
	 * before anything is probed, when someone else could have put that
	 * code there (docs/VERIFY.md, "What is loaded"). Under --root
	 * nothing is loaded anyway: it is only reported. */
	if (opts->verify_env != NULL && opts->root == NULL) {
		char *why = NULL;

		env = verify_env_check(opts->verify_env, environ, &why);
		if (env == NULL) {
			fprintf(stderr, _("%s: --env %s\n"), PACKAGE, why);
			free(why);
			return EXIT_USAGE;
		}
	}
	if (run_open_or_say(&r, opts->root, opts->matrix_file, environ) != 0) {
		free(env);
		return EXIT_USAGE;
	}
	run_say_note(&r);
	run_probe(&r, RUN_FULL);
	run_annotate(&r);
	live.quick = opts->quick;
	live.timeout_ms = opts->timeout_ms;
	live.progress = !opts->json;
	live.env = env;
	run_verify(&r, &live);
	free(env);
	run_diagnose_input(&r, r.facts, &in);
	rules_verify(&in, &r.findings);
	findings_sort(&r.findings);
	if (opts->json) {
		rc = print_json(r.facts, &r.findings);
	} else {
		bool color = style_want_color(STDOUT_FILENO, opts->color);

		text_print_verify(stdout, r.facts, color);
		fputc('\n', stdout);
		rc = text_print_findings(stdout, &r.findings, color);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0) {
		perror(PACKAGE ": writing the report");
		rc = EXIT_USAGE;
	} else if (r.facts->verify.state == VERIFY_STATE_SKIPPED &&
	    r.facts->live_allowed) {
		/* No helper: cudawiz itself cannot do what was asked. */
		fprintf(stderr, "%s: %s\n", PACKAGE, r.facts->verify.why);
		rc = EXIT_USAGE;
	} else {
		rc = findings_count(&r.findings, SEV_ERROR) > 0 ? EXIT_FINDINGS :
		    EXIT_OK;
	}
	run_close(&r);
	return rc;
}
