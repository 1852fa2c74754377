/* Compatibility: which compatibility data the verdicts rest on (source,
 * date, file) and what it says about this machine's driver and GPUs.
 * u refreshes the data from here (ustep.h, the steps of `cudawiz matrix
 * update`), with a progress bar while it fetches; Esc, q or Ctrl-C
 * cancel it and the data in use stays. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "i18n.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wizard/page.h"
#include "wizard/pagefacts.h"
#include "wizard/ustep.h"

/* Cells in the progress bar. */
#define BAR_CELLS	30

static const enum finding_code related[] = {
	FINDING_MATRIX_STALE, FINDING_DRIVER_TOO_OLD,
	FINDING_GPU_ARCH_UNSUPPORTED, FINDING_FRAMEWORK_CUDA_MISMATCH,
	FINDING_PTX_TOOLCHAIN_TOO_NEW,
};

/* "512 B", "12.3 kB", "4.5 MB": a count of bytes as a person reads it. */
static char *
bytes_text(uint64_t n)
{
	if (n < 1000)
		return xasprintf("%" PRIu64 " B", n);
	if (n < 1000 * 1000)
		return xasprintf("%.1f kB", (double)n / 1e3);
	return xasprintf("%.1f MB", (double)n / 1e6);
}

/* "[████░░░░] 40%  12.3 kB of 30.0 kB", or only the bytes while the size
 * is not known (the bar then stays empty). */
static void
build_bar(const struct wpage_ctx *c, struct wdoc *d, const struct wustep *u)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t total = u->total, now = u->now;
	int done = 0;
	char *got = bytes_text(now), *all;

	if (total > 0 && now > total)
		now = total;
	if (total > 0)
		done = (int)(now * BAR_CELLS / total);
	strbuf_puts(&sb, "[");
	for (int i = 0; i < BAR_CELLS; i++)
		strbuf_puts(&sb, i < done ? c->g->bar_done : c->g->bar_todo);
	strbuf_puts(&sb, "]");
	if (total > 0) {
		all = bytes_text(total);
		/* TRANSLATORS: after the bar: "40%  12.3 kB of 30.0 kB". */
		strbuf_printf(&sb, _(" %d%%  %s of %s"),
		    (int)(now * 100 / total), got, all);
		free(all);
	} else {
		/* TRANSLATORS: after the bar while the size is unknown. */
		strbuf_printf(&sb, _(" %s so far"), got);
	}
	wdoc_text(d, 4, 4, WS_NORMAL, strbuf_str(&sb));
	free(got);
	strbuf_free(&sb);
}

static void
build_running(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wustep *u = c->ustep;

	wdoc_heading(d, _("Updating the compatibility data"));
	if (u->url != NULL) {
		wdoc_textf(d, 2, 6, WS_WARNING, _("%s fetching source %zu of %zu:"),
		    c->g->right, u->index + 1, u->count);
		wdoc_text(d, 4, 4, WS_NORMAL, u->url);
		build_bar(c, d, u);
	}
	if (u->stop)
		wdoc_text(d, 2, 4, WS_DIM, _("cancelling: the data in use "
		    "stays as it is"));
	else if (c->busy_s >= 0)
		wdoc_textf(d, 2, 4, WS_DIM, _("running for %.0f s: Esc, q or "
		    "Ctrl-C cancels the update"), c->busy_s);
	else
		wdoc_text(d, 2, 4, WS_DIM, _("Esc, q or Ctrl-C cancels the "
		    "update"));
}

/* The value column, sized for the longest label in the language shown
 * (the GPUs' PCI addresses are labels too). */
static int
label_width(const struct wpage_ctx *c)
{
	static const char *const labels[] = {
		N_("source"), N_("date"), N_("file"), N_("kept fresh"),
		N_("driver runs"),
	};
	int w = 0;

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		w = wlabel_fit(w, _(labels[i]));
	for (size_t i = 0; i < c->r->facts->gpus.n; i++)
		w = wlabel_fit(w, c->r->facts->gpus.v[i].pci_address);
	return wlabel_done(w, c->body.cols);
}

/* How the last update went, under the data it left in use. */
static void
build_outcome(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wustep *u = c->ustep;
	const char *g = c->g->ok;

	switch (u->outcome) {
	case WU_NONE:
		return;
	case WU_UPDATED:
		wdoc_textf(d, 2, 4, WS_OK, _("%s updated: newer data (%s) is "
		    "now in use"), g, c->r->matrix_date);
		break;
	case WU_UP_TO_DATE:
		wdoc_textf(d, 2, 4, WS_OK, _("%s up to date: the sources have "
		    "nothing newer"), g);
		break;
	case WU_KEPT:
		wdoc_textf(d, 2, 4, WS_WARNING, _("%s the fetched data (%s) is "
		    "older than the data in use, which stays"), c->g->warn,
		    u->msg);
		break;
	case WU_CANCELLED:
		wdoc_textf(d, 2, 4, WS_WARNING, _("%s update cancelled: the data "
		    "in use and the cache are unchanged"), c->g->warn);
		break;
	case WU_FAILED:
		wdoc_textf(d, 2, 4, WS_ERROR, _("%s update failed: %s"),
		    c->g->bad, u->msg);
		wdoc_text(d, 4, 4, WS_DIM, _("the data in use and the cache "
		    "are unchanged"));
		break;
	case WU_REFUSED:
		wdoc_textf(d, 2, 4, WS_WARNING, _("%s not fetched: %s"),
		    c->g->warn, u->msg);
		break;
	}
	for (size_t i = 0; i < u->notes.n; i++)
		wdoc_textf(d, 4, 4, WS_DIM, "%s", u->notes.v[i]);
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wiz_report *r = c->r;
	const struct driver_facts *dr = &r->facts->driver;
	const char *blocked = wustep_blocked(r);
	int lw;
	size_t before;
	char *v;

	if (c->ustep->running) {
		build_running(c, d);
		return;
	}
	lw = label_width(c);
	wdoc_heading(d, _("Compatibility data"));
	wdoc_kv(d, 2, lw, _("source"), WS_NORMAL,
	    words_matrix_source(r->matrix_source));
	wdoc_kv(d, 2, lw, _("date"), WS_NORMAL, r->matrix_date);
	if (r->matrix_path != NULL)
		wdoc_kv(d, 2, lw, _("file"), WS_NORMAL, r->matrix_path);
	v = xasprintf(ngettext("refresh after %u day", "refresh after %u days",
	    r->matrix_refresh_days), r->matrix_refresh_days);
	wdoc_kv(d, 2, lw, _("kept fresh"), WS_DIM, v);
	free(v);
	build_outcome(c, d);
	wdoc_text(d, 2, 2, WS_DIM, _("'cudawiz matrix update' fetches newer "
	    "data; 'cudawiz matrix show' prints it all."));
	if (blocked != NULL)
		wdoc_text(d, 2, 4, WS_DIM, blocked);
	else
		wdoc_text(d, 2, 4, WS_KEY, _("u: fetch newer data now"));
	wdoc_heading(d, _("What it says about this machine"));
	if (fact_known(&dr->max_cuda)) {
		/* Too old for what is installed: not a plain fact. */
		const struct finding *old = findings_find(&r->findings,
		    FINDING_DRIVER_TOO_OLD);

		v = old != NULL ? xasprintf(_("%s %s  [see %s]"),
		    wsev_glyph(c->g, old->severity), dr->max_cuda.value,
		    finding_code_name(old->code)) : xstrdup(dr->max_cuda.value);
		wdoc_kv(d, 2, lw, _("driver runs"), old != NULL ?
		    wsev_slot(old->severity) : WS_NORMAL, v);
		free(v);
	} else
		wdoc_kv(d, 2, lw, _("driver runs"), WS_DIM,
		    _("unknown (no driver version)"));
	for (size_t i = 0; i < r->facts->gpus.n; i++) {
		const struct gpu_fact *g = &r->facts->gpus.v[i];

		v = xasprintf(_("compute capability %s"), wfact_text(&g->cc, "?"));
		wdoc_kv(d, 2, lw, g->pci_address, WS_NORMAL, v);
		free(v);
	}
	wdoc_heading(d, _("Findings from the compatibility data"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

/* u runs the update (it says itself why it will not under --offline or
 * --root); the rest scrolls as on any document. */
static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	struct wdoc d;
	bool used;

	if (k == 'u') {
		c->st->scroll = 0;
		wustep_request(c->ustep);
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, k);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

static const struct wkeyhelp help[] = {
	{ N_("u"), N_("fetch newer compatibility data (as 'cudawiz matrix "
	    "update')") },
	{ N_("Esc, q, Ctrl-C"), N_("while it fetches: cancel the update") },
	{ NULL, NULL },
};

const struct wpage page_compat = {
	.title = N_("Compatibility"),
	.build = build,
	.key = key,
	.help = help,
	.hint = N_("u: update  j/k: scroll"),
};
