/* cudawiz verify: probe to learn which libraries there are, run the
 * helper on each (src/verify/), judge the runs, present them. Also the
 * part of doctor that decides whether to verify. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "diagnose/diagnose.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/select.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"
#include "verify/verify.h"

extern char **environ;

/* Progress on a terminal's stderr: a check can take seconds. */
static void
progress(void *arg, const struct verify_run *r, size_t i, size_t n)
{
	(void)arg;
	/* The line rewrites itself: the control bytes stay out of the
	 * message translators see. */
	fputc('\r', stderr);
	fprintf(stderr, _("checking %zu/%zu: %s %s"), i + 1, n,
	    verify_kind_name(r->kind), r->lib);
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void
opts_of(const struct cli_opts *opts, bool quick, struct verify_opts *vo)
{
	*vo = (struct verify_opts){ 0 };
	vo->timeout_s = opts->timeout_ms > 0 ? opts->timeout_ms / 1000.0 : 0;
	vo->quick = quick;
	vo->envp = environ;
	vo->progress = isatty(STDERR_FILENO) && !opts->json ? progress : NULL;
}

static void
progress_done(const struct verify_opts *vo)
{
	if (vo->progress != NULL)
		fputs("\r\033[K", stderr);
}

void
cmd_doctor_verify(const struct cli_opts *opts, struct facts *facts)
{
	struct verify_opts vo;
	struct verify_facts *vf = &facts->verify;

	if (opts->no_verify) {
		vf->why = xstrdup(_("--no-verify"));
		return;
	}
	if (!facts->live_allowed) {
		vf->why = xstrdup(_("a --root tree is read, not run: nothing is "
		    "loaded"));
		return;
	}
	if (!facts_driver_present(facts)) {
		vf->why = xstrdup(_("no NVIDIA driver is loaded ('cudawiz verify' "
		    "checks the libraries anyway)"));
		return;
	}
	opts_of(opts, true, &vo);
	verify_all(facts, &vo);
	progress_done(&vo);
}

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
	struct findings findings = { 0 };
	struct diagnose_input in;
	struct verify_opts vo;
	struct sysroot *sr;
	struct facts *facts;
	struct matrix *m;
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
	if (cmd_open(opts, &m, &sr, NULL) != 0) {
		free(env);
		return EXIT_USAGE;
	}
	facts = probe_all(sr, environ);
	diagnose_annotate(facts, m);
	opts_of(opts, opts->quick, &vo);
	vo.env = env;
	verify_all(facts, &vo);
	free(env);
	progress_done(&vo);
	in.facts = facts;
	in.matrix = m;
	in.now = time(NULL);
	in.matrix_checked = 0;
	rules_verify(&in, &findings);
	findings_sort(&findings);
	if (opts->json) {
		rc = print_json(facts, &findings);
	} else {
		bool color = style_want_color(STDOUT_FILENO, opts->color);

		text_print_verify(stdout, facts, color);
		fputc('\n', stdout);
		rc = text_print_findings(stdout, &findings, color);
	}
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc != 0) {
		perror(PACKAGE ": writing the report");
		rc = EXIT_USAGE;
	} else if (facts->verify.state == VERIFY_STATE_SKIPPED &&
	    facts->live_allowed) {
		/* No helper: cudawiz itself cannot do what was asked. */
		fprintf(stderr, "%s: %s\n", PACKAGE, facts->verify.why);
		rc = EXIT_USAGE;
	} else {
		rc = findings_count(&findings, SEV_ERROR) > 0 ? EXIT_FINDINGS : EXIT_OK;
	}
	findings_free(&findings);
	facts_free(facts);
	sysroot_free(sr);
	matrix_free(m);
	return rc;
}
