/* cudawiz doctor: probe, annotate with the matrix, diagnose, present;
 * on stdout, or with -o into a file that is replaced in one step
 * (util/atomicfile.h) so a collector never reads half a report. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "i18n.h"
#include "present/html.h"
#include "present/json.h"
#include "present/prom.h"
#include "present/reportfile.h"
#include "present/style.h"
#include "present/text.h"
#include "run/run.h"
#include "util/memstream.h"
#include "util/safeout.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

extern char **environ;

/* The text report for a file: never coloured, and the names in it pass
 * through safeout as they would to a terminal (whoever cats the file
 * later gets the same protection). */
static int
print_text_to_file(FILE *fp, const struct cw_run *r, bool next_steps)
{
	struct safeout st = { 0 };
	struct strbuf out = STRBUF_INIT;
	struct memstream ms;
	FILE *mem = memstream_open(&ms);
	int rc;

	if (mem == NULL)
		return -1;
	rc = text_print_doctor(mem, r->facts, &r->findings, r->m, false);
	if (rc == 0 && next_steps)
		text_print_next(mem, &r->findings);
	if (memstream_close(&ms) != 0)
		rc = -1;
	if (rc == 0) {
		safeout_filter(&st, ms.buf, ms.len, &out);
		safeout_finish(&st, &out);
		if (out.len > 0 && fwrite(out.buf, 1, out.len, fp) != out.len)
			rc = -1;
	}
	strbuf_free(&out);
	free(ms.buf);
	return rc;
}

static int
print_report(FILE *fp, const struct cli_opts *opts, const struct cw_run *r,
    bool to_file)
{
	int rc;

	if (opts->json)
		return json_print_doctor(fp, r->facts, &r->findings, r->m,
		    r->now, r->matrix_checked);
	if (opts->html)
		return html_print_doctor(fp, r->facts, &r->findings, r->m,
		    r->now, r->matrix_checked);
	if (opts->prometheus)
		return prom_print_doctor(fp, r->facts, &r->findings, r->m,
		    r->now);
	if (to_file)
		return print_text_to_file(fp, r, opts->next_steps);
	rc = text_print_doctor(fp, r->facts, &r->findings, r->m,
	    style_want_color(STDOUT_FILENO, opts->color));
	if (rc == 0 && opts->next_steps)
		text_print_next(fp, &r->findings);
	return rc;
}

struct file_report {
	const struct cli_opts	*opts;
	const struct cw_run	*r;
};

static int
print_to_file(FILE *fp, void *arg)
{
	const struct file_report *fr = arg;

	return print_report(fp, fr->opts, fr->r, true);
}

/* --baseline FILE into r, or -1 (r closed) after saying why. */
static int
baseline_or_say(struct cw_run *r, const char *path)
{
	char *err = NULL;

	if (run_load_baseline(r, path, &err) == 0)
		return 0;
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	run_close(r);
	return -1;
}

int
cmd_doctor(const struct cli_opts *opts)
{
	struct run_live live = { 0 };
	struct cw_run r;
	int rc;

	if (run_open_or_say(&r, opts->root, opts->matrix_file, environ) != 0)
		return EXIT_USAGE;
	if (opts->baseline != NULL && baseline_or_say(&r, opts->baseline) != 0)
		return EXIT_USAGE;
	run_probe(&r, RUN_FULL);
	run_annotate(&r);
	live.no_verify = opts->no_verify;
	live.quick = true;
	live.timeout_ms = opts->timeout_ms;
	live.progress = !opts->json && !opts->html && !opts->prometheus;
	run_verify_by_policy(&r, &live);
	run_diagnose(&r);
	if (opts->output != NULL) {
		struct file_report fr = { opts, &r };

		rc = report_write_file(opts->output, print_to_file, &fr);
		/* report_write_file said what went wrong. */
		rc = rc != 0 ? EXIT_USAGE : cmd_report_exit(0, &r.findings);
	} else {
		rc = cmd_report_exit(print_report(stdout, opts, &r, false),
		    &r.findings);
	}
	run_close(&r);
	return rc;
}
