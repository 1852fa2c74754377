/* cudawiz env --check FILE in the Windows program: the before/after
 * proof of a cmd or PowerShell script cudawiz wrote. The script is run
 * in its shell (win/envsource.c) and the environment it leaves read
 * back; the Windows probe and rules run over this process's environment
 * and over that one (winrun.h), each DLL a framework loads is compared
 * (envplan/wincompare.h) and the findings that went or came listed; the
 * report is Linux's (present/envcheck.c: text, or cudawiz/env-check/1
 * with --json). Nothing is loaded live: the Windows helper's runs are
 * verify's, which the report points to. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "envplan/check.h"
#include "envplan/wincompare.h"
#include "i18n.h"
#include "present/envcheck.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "verify/verify.h"
#include "win/envsource.h"
#include "win/here.h"
#include "win/winrun.h"

int
cmd_env_check(const struct cli_opts *opts)
{
	struct env_check ec;
	struct win_facts after = { 0 };
	struct findings after_fs = { 0 };
	struct strv env = STRV_INIT;
	struct win_run r;
	char **before = NULL, *err = NULL;
	unsigned long timeout_ms = opts->timeout_ms > 0 ?
	    (unsigned long)opts->timeout_ms :
	    (unsigned long)(VERIFY_TIMEOUT_DEFAULT_S * 1000);
	bool opened = false, probed = false;
	int rc = EXIT_USAGE;

	memset(&ec, 0, sizeof ec);
	if (opts->shell != NULL) {
		fprintf(stderr, _("%s: on Windows, env --check takes the format "
		    "from the script's \"cudawiz-format:\" line, not --shell\n"),
		    PACKAGE);
		return EXIT_USAGE;
	}
	if (win_script_format(opts->check, &ec.fmt, &err) != 0)
		goto fail;
	if (win_run_open(&r, opts->matrix_file, true, &err) != 0)
		goto fail;
	opened = true;
	win_run_diagnose(&r);
	if (win_script_source(opts->check, ec.fmt, timeout_ms, &ec.src,
	    &err) != 0)
		goto fail;
	if (win_run_probe_env(&r, true, ec.src.envp, &after, &after_fs,
	    &err) != 0)
		goto fail;
	probed = true;
	here_environment(&env);
	before = xcalloc(env.n + 1, sizeof *before);
	for (size_t i = 0; i < env.n; i++)
		before[i] = env.v[i];
	win_env_canonical(before);
	wincheck_compare(&r.facts, &after, &ec.rows);
	check_codes_only(&r.findings, &after_fs, &ec.gone);
	check_codes_only(&after_fs, &r.findings, &ec.new);
	ec.ok = check_rows_ok(&ec.rows);
	ec.live_why = xasprintf(_("on Windows, run '%s verify' in a console "
	    "where the script ran"), PACKAGE);
	if (env_check_print(stdout, opts->check, &ec, before, opts->json) != 0)
		goto write_fail;
	rc = ec.ok ? EXIT_OK : EXIT_FINDINGS;
	goto out;
write_fail:
	perror(PACKAGE ": writing the report");
	goto out;
fail:
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
out:
	free(err);
	free(before);
	strv_free(&env);
	check_rows_free(&ec.rows);
	strv_free(&ec.gone);
	strv_free(&ec.new);
	free(ec.live_why);
	win_sourced_free(&ec.src);
	if (probed) {
		findings_free(&after_fs);
		win_facts_free(&after);
	}
	if (opened)
		win_run_close(&r);
	return rc;
}
