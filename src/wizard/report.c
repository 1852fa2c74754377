/* The wizard's report: doctor's pipeline (src/run/), kept for the
 * pages; see report.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "matrix/matrix.h"
#include "run/run.h"
#include "util/xalloc.h"
#include "wizard/report.h"

/* The matrix's name, date and file, as the pages show them. */
static void
describe_matrix(struct wiz_report *r, const struct matrix *m)
{
	free(r->matrix_source);
	free(r->matrix_date);
	free(r->matrix_path);
	r->matrix_source = xstrdup(matrix_source_name(matrix_source(m)));
	r->matrix_date = xstrdup(matrix_date(m));
	r->matrix_path = matrix_path(m) != NULL ? xstrdup(matrix_path(m)) : NULL;
	r->matrix_refresh_days = matrix_refresh_days(m);
}

void
wiz_report_make(struct wiz_report *r, const struct wiz_report_in *in)
{
	struct cw_run *run = in->run;

	*r = (struct wiz_report){ 0 };
	run_probe(run, RUN_FULL);
	run_annotate(run);
	if (in->live != NULL)
		run_verify_by_policy(run, in->live);
	run_diagnose(run);
	/* The report owns them from here; the run keeps the matrix. */
	r->facts = run->facts;
	r->findings = run->findings;
	run->facts = NULL;
	run->findings = (struct findings){ 0 };
	if (!r->facts->live_allowed)
		r->root = xstrdup(in->root_label != NULL ? in->root_label :
		    r->facts->root);
	describe_matrix(r, run->m);
	r->envp = run->envp;
	r->m = run->m;
	/* The check sources a script and may load a runtime: 30 s each at
	 * most, so a hung shell cannot hold the screen for ever. */
	r->check_timeout_s = 30.0;
	r->now = run->now;
	r->matrix_checked = run->matrix_checked;
	r->verify_timeout_s = in->verify_timeout_s;
	r->verify_quick = in->verify_quick;
	r->update = in->update;
	r->run = run;
}

void
wiz_report_rediagnose(struct wiz_report *r)
{
	struct diagnose_input di = { 0 };

	findings_free(&r->findings);
	r->findings = (struct findings){ 0 };
	di.facts = r->facts;
	di.matrix = r->m;
	di.now = r->now;
	di.matrix_checked = r->matrix_checked;
	diagnose(&di, &r->findings);
}

void
wiz_report_set_matrix(struct wiz_report *r, struct matrix *m, time_t checked)
{
	struct matrix *old = r->m_owned;

	/* Every fact the old matrix set is set anew (the annotations copy
	 * their strings), so nothing points into it once it is freed. */
	r->m = m;
	r->m_owned = m;
	r->matrix_checked = checked;
	describe_matrix(r, m);
	diagnose_annotate(r->facts, m);
	wiz_report_rediagnose(r);
	matrix_free(old);
}

void
wiz_report_free(struct wiz_report *r)
{
	findings_free(&r->findings);
	facts_free(r->facts);
	free(r->root);
	free(r->matrix_source);
	free(r->matrix_date);
	free(r->matrix_path);
	matrix_free(r->m_owned);
	*r = (struct wiz_report){ 0 };
}

bool
wiz_report_rescan(struct wiz_report *r)
{
	struct cw_run *run = r->run;
	struct facts *fresh;

	if (run == NULL)
		return false;
	run_reprobe(run);
	if (run->facts == NULL)
		return false;
	fresh = run->facts;
	run->facts = NULL;
	run_annotate_facts(run, fresh);
	/* A matrix an update brought is the one in use now. */
	if (r->m != run->m)
		diagnose_annotate(fresh, r->m);
	verify_facts_free(&fresh->verify);
	fresh->verify = r->facts->verify;
	memset(&r->facts->verify, 0, sizeof r->facts->verify);
	facts_free(r->facts);
	r->facts = fresh;
	wiz_report_rediagnose(r);
	return true;
}
