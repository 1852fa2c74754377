/* Live verification: whether the GPU checks ran (and why not), and how
 * each helper run ended. They run at start when a driver is loaded (as
 * doctor runs them); otherwise, and again on request, r (or Enter while
 * they have not run) runs them from here (vstep.h), each check shown as
 * it starts, and Esc, q or Ctrl-C stop them at once. Each run shows how
 * it really ended (✗ failed, ! warning, ✓ passed, with the error's name),
 * in the words `cudawiz verify` uses. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/verify_words.h"
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

/* A run's mark and slot: ✗ failed, ! warning, ✓ passed. */
static const char *
mark_glyph(const struct wglyphs *g, enum vrun_mark m, enum wslot *slot)
{
	switch (m) {
	case VRUN_FAILED:
		*slot = WS_ERROR;
		return g->bad;
	case VRUN_WARNING:
		*slot = WS_WARNING;
		return g->warn;
	case VRUN_PASSED:
		break;
	}
	*slot = WS_OK;
	return g->ok;
}

/* The first n runs, each with how it ended in `cudawiz verify`'s words
 * (the error's name and number where the library gave one). *all_passed:
 * whether every one of them worked. */
static void
build_runs(const struct wpage_ctx *c, struct wdoc *d, size_t n,
    bool *all_passed)
{
	const struct verify_facts *vf = &c->r->facts->verify;

	*all_passed = true;
	for (size_t i = 0; i < n && i < vf->runs.n; i++) {
		const struct verify_run *run = &vf->runs.v[i];
		char *title = verify_run_title(run);
		enum vrun_mark mark;
		char *end = verify_run_outcome(run, "", "", &mark);
		enum wslot slot;
		const char *glyph = mark_glyph(c->g, mark, &slot);

		if (mark != VRUN_PASSED)
			*all_passed = false;
		wdoc_textf(d, 2, 6, slot, "%s %s %s", glyph, title,
		    run->lib != NULL ? run->lib : "?");
		wdoc_textf(d, 6, 6, mark == VRUN_PASSED ? WS_DIM : slot,
		    _("%s, %.0f ms"), end, run->ms);
		free(title);
		free(end);
	}
}

static void
build_running(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wvstep *v = c->vstep;
	bool passed;

	wdoc_heading(d, _("Live GPU checks"));
	build_runs(c, d, v->index, &passed);
	if (v->total > 0)
		wdoc_textf(d, 2, 6, WS_WARNING, _("%s running check %zu of %zu: %s"),
		    c->g->right, v->index + 1, v->total,
		    v->current != NULL ? v->current : "");
	if (v->stop)
		wdoc_text(d, 2, 4, WS_DIM, _("stopping: the checks not yet "
		    "started are skipped"));
	else if (c->busy_s >= 0)
		wdoc_textf(d, 2, 4, WS_DIM, _("running for %.0f s: Esc, q or "
		    "Ctrl-C stops the checks"), c->busy_s);
	else
		wdoc_text(d, 2, 4, WS_DIM, _("Esc, q or Ctrl-C stops the checks"));
}

/* Under "Findings from the checks" when none is there: "none" only
 * when every check ran and passed. */
static void
build_no_findings(const struct wpage_ctx *c, struct wdoc *d, bool passed)
{
	const struct verify_facts *vf = &c->r->facts->verify;

	if (vf->state != VERIFY_STATE_RAN)
		wdoc_text(d, 2, 4, WS_DIM, _("not run"));
	else if (c->vstep->stopped)
		wdoc_text(d, 2, 4, WS_WARNING, _("stopped before the end: the "
		    "checks that did not run found nothing"));
	else if (vf->runs.n == 0)
		wdoc_text(d, 2, 4, WS_DIM, _("nothing was checked"));
	else if (!passed)
		wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn,
		    _("not every check passed (above)"));
	else
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct verify_facts *vf = &c->r->facts->verify;
	const struct wvstep *v = c->vstep;
	bool passed = false;
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
		build_runs(c, d, vf->runs.n, &passed);
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
		build_no_findings(c, d, passed);
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

/* While the checks run, the status line says how to stop them. */
static const char *
hint_now(const struct wpage_ctx *c)
{
	return c->vstep->running ? N_("Esc, q or Ctrl-C: stop the checks") :
	    NULL;
}

static const struct wkeyhelp help[] = {
	{ N_("r"), N_("run the GPU checks (again)") },
	{ N_("Enter"), N_("run them, while they have not run") },
	{ N_("Esc, q, Ctrl-C"), N_("while they run: stop them at once") },
	{ NULL, NULL },
};

const struct wpage page_verify = {
	.title = N_("Live verification"),
	.build = build,
	.key = key,
	.help = help,
	/* The body says when r runs the checks: under --root it does not. */
	.hint = N_("j/k: scroll"),
	.hint_now = hint_now,
};
