/* Live verification: whether the GPU checks ran (and why not), and how
 * each helper run ended. They run at start when a driver is loaded (as
 * doctor runs them); otherwise, and again on request, r (or Enter while
 * they have not run) runs them from here (vstep.h), each check shown as
 * it starts, and Esc, q or Ctrl-C stop them. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/page.h"
#include "wizard/vstep.h"

static const enum finding_code related[] = {
	FINDING_RUNTIME_INIT_FAILED, FINDING_PTX_JIT_FAILED,
	FINDING_KERNEL_FAILED, FINDING_CUDNN_FAILED, FINDING_VERIFY_CRASHED,
	FINDING_VERIFY_TIMEOUT, FINDING_GPU_OUT_OF_MEMORY, FINDING_PROGRAM_CUDA_ERROR,
	FINDING_MESSAGE_INCOMPLETE,
};

/* The first n runs, each with how it ended. */
static void
build_runs(const struct wpage_ctx *c, struct wdoc *d, size_t n)
{
	const struct verify_facts *vf = &c->r->facts->verify;

	for (size_t i = 0; i < n && i < vf->runs.n; i++) {
		const struct verify_run *run = &vf->runs.v[i];
		bool done = run->outcome == VERIFY_DONE && run->exit_status == 0;

		wdoc_textf(d, 2, 6, done ? WS_NORMAL : WS_ERROR, "%s %s %s",
		    done ? c->g->ok : c->g->bad, verify_kind_name(run->kind),
		    run->lib != NULL ? run->lib : "?");
		wdoc_textf(d, 6, 6, WS_DIM, _("%s, %.0f ms"),
		    verify_outcome_name(run->outcome), run->ms);
	}
}

static void
build_running(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wvstep *v = c->vstep;

	wdoc_heading(d, _("Live GPU checks"));
	build_runs(c, d, v->index);
	if (v->total > 0)
		wdoc_textf(d, 2, 6, WS_WARNING, _("%s running check %zu of %zu: %s"),
		    c->g->right, v->index + 1, v->total,
		    v->current != NULL ? v->current : "");
	if (v->stop)
		wdoc_text(d, 2, 4, WS_DIM, _("stopping: the checks not yet "
		    "started are skipped"));
	else
		wdoc_text(d, 2, 4, WS_DIM, _("Esc, q or Ctrl-C stops after this "
		    "check"));
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct verify_facts *vf = &c->r->facts->verify;
	const struct wvstep *v = c->vstep;
	size_t before;

	if (v->running) {
		build_running(c, d);
		return;
	}
	wdoc_heading(d, _("Live GPU checks"));
	switch (vf->state) {
	case VERIFY_STATE_NOT_RUN:
	case VERIFY_STATE_SKIPPED:
		wdoc_textf(d, 2, 4, WS_DIM, _("not run: %s"),
		    vf->why != NULL ? vf->why : _("not asked for"));
		break;
	case VERIFY_STATE_RAN:
		build_runs(c, d, vf->runs.n);
		if (v->stopped)
			wdoc_textf(d, 2, 4, WS_WARNING, _("stopped: %zu of %zu "
			    "checks finished"), vf->runs.n, v->planned);
		else if (vf->runs.n == 0)
			wdoc_text(d, 2, 4, WS_DIM, _("no library to check"));
		break;
	}
	if (wvstep_possible(c->r))
		wdoc_text(d, 2, 4, WS_KEY, vf->state == VERIFY_STATE_RAN ?
		    _("r: run the checks again") :
		    _("Enter or r: run the checks"));
	wdoc_heading(d, _("Findings from the checks"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

/* r runs the checks; Enter too while they have not run. Scrolling as
 * on any document. */
static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	bool ran = c->r->facts->verify.state == VERIFY_STATE_RAN;
	struct wdoc d;
	bool used;

	if (wvstep_possible(c->r) && (k == 'r' || (k == WK_ENTER && !ran))) {
		c->st->scroll = 0;
		wvstep_request(c->vstep);
		c->vstep->stopped = false;
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, k);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

static const struct wkeyhelp help[] = {
	{ N_("r"), N_("run the GPU checks (again)") },
	{ N_("Enter"), N_("run them, while they have not run") },
	{ N_("Esc, q, Ctrl-C"), N_("while they run: stop after the current check") },
	{ NULL, NULL },
};

const struct wpage page_verify = {
	.title = N_("Live verification"),
	.build = build,
	.key = key,
	.help = help,
	/* The body says when r runs the checks: under --root it does not. */
	.hint = N_("j/k: scroll"),
};
