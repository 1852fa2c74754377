/* Live verification: whether the GPU checks ran (and why not), and how
 * each helper run ended. The checks run once at start with the probes;
 * this page only shows them. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"

static const enum finding_code related[] = {
	FINDING_RUNTIME_INIT_FAILED, FINDING_PTX_JIT_FAILED,
	FINDING_KERNEL_FAILED, FINDING_CUDNN_FAILED, FINDING_VERIFY_CRASHED,
	FINDING_VERIFY_TIMEOUT,
};

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct verify_facts *vf = &c->r->facts->verify;
	size_t before;

	wdoc_heading(d, _("Live GPU checks"));
	switch (vf->state) {
	case VERIFY_STATE_NOT_RUN:
	case VERIFY_STATE_SKIPPED:
		wdoc_textf(d, 2, 4, WS_DIM, _("not run: %s"),
		    vf->why != NULL ? vf->why : _("not asked for"));
		break;
	case VERIFY_STATE_RAN:
		for (size_t i = 0; i < vf->runs.n; i++) {
			const struct verify_run *run = &vf->runs.v[i];
			bool done = run->outcome == VERIFY_DONE && run->exit_status == 0;

			wdoc_textf(d, 2, 6, done ? WS_NORMAL : WS_ERROR, "%s %s %s",
			    done ? c->g->ok : c->g->bad, verify_kind_name(run->kind),
			    run->lib != NULL ? run->lib : "?");
			wdoc_textf(d, 6, 6, WS_DIM, _("%s, %.0f ms"),
			    verify_outcome_name(run->outcome), run->ms);
		}
		if (vf->runs.n == 0)
			wdoc_text(d, 2, 4, WS_DIM, _("no library to check"));
		break;
	}
	wdoc_heading(d, _("Findings from the checks"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_verify = {
	.title = N_("Live verification"),
	.build = build,
	.hint = N_("j/k: scroll"),
};
