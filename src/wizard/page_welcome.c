/* Summary, the first screen: the answer first. The verdict with its
 * counts, the top findings one line each by what they are about (as
 * many as fit), the one thing to do next (Enter opens the top finding),
 * then the pages as a numbered menu and, last, what was looked at. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/page.h"

/* Two blanks between menu entries. */
#define MENU_GAP	2

static size_t
page_number(const struct wpage *p)
{
	for (size_t i = 0; i < wiz_page_count(); i++)
		if (wiz_page(i) == p)
			return i + 1;
	return 0;
}

/* "1 Summary" … "0 Done": the key that jumps to page i (digits 1-9, 0
 * for the tenth). */
static char *
menu_entry(size_t i)
{
	return xasprintf("%zu %s", (i + 1) % 10, _(wiz_page(i)->title));
}

/* The pages in columns, filled top to bottom (a menu); where two
 * columns do not fit (compact, long translations), one after the other
 * on as few lines as they fill. */
static void
add_menu(struct wdoc *d)
{
	size_t np = wiz_page_count() < 10 ? wiz_page_count() : 10;
	int avail = d->width - 2, cellw = 0, ncols, nrows;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < np; i++) {
		char *e = menu_entry(i);

		if (wtext_width(e) > cellw)
			cellw = wtext_width(e);
		free(e);
	}
	ncols = (avail + MENU_GAP) / (cellw + MENU_GAP);
	if (ncols < 2) {
		for (size_t i = 0; i < np; i++) {
			char *e = menu_entry(i);
			int used = wtext_width(strbuf_str(&sb));

			if (used > 0 && used + MENU_GAP + wtext_width(e) > avail) {
				wdoc_text(d, 2, 2, WS_NORMAL, strbuf_str(&sb));
				strbuf_free(&sb);
				used = 0;
			}
			strbuf_printf(&sb, "%*s%s", used > 0 ? MENU_GAP : 0, "",
			    e);
			free(e);
		}
		wdoc_text(d, 2, 2, WS_NORMAL, strbuf_str(&sb));
		strbuf_free(&sb);
		return;
	}
	nrows = ((int)np + ncols - 1) / ncols;
	for (int r = 0; r < nrows; r++) {
		for (size_t i = (size_t)r; i < np; i += (size_t)nrows) {
			char *e = menu_entry(i);
			int pad = i + (size_t)nrows < np ?
			    cellw + MENU_GAP - wtext_width(e) : 0;

			strbuf_printf(&sb, "%s%*s", e, pad, "");
			free(e);
		}
		wdoc_text(d, 2, 2, WS_NORMAL, strbuf_str(&sb));
		strbuf_free(&sb);
	}
}

/* What was looked at: short, dim, last (below the fold when findings
 * fill the screen). */
static void
add_machine(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wiz_report *r = c->r;
	char *v;

	wdoc_kv(d, 0, 20, _("Machine"), WS_DIM, r->root != NULL ? r->root :
	    _("this one (/)"));
	/* TRANSLATORS: the compatibility data's source and date, "a file,
	 * 2026-11-24"; your language's comma. */
	v = xasprintf(_("%s, %s"), words_matrix_source(r->matrix_source),
	    r->matrix_date);
	wdoc_kv(d, 0, 20, _("Compatibility data"), WS_DIM, v);
	free(v);
	/* Nothing is fetched unless asked for: say so before anyone wonders. */
	wdoc_kv(d, 0, 20, _("Network"), WS_DIM, r->update.offline ?
	    _("offline: nothing is fetched") : r->root != NULL ?
	    _("not used under --root") :
	    _("used only when you ask (u on the Compatibility page)"));
}

/* The page down to the menu, with its first nshow findings (and "and
 * N more" when that is not all of them). */
static void
build_head(const struct wpage_ctx *c, struct wdoc *d, size_t nshow)
{
	const struct findings *fs = &c->r->findings;
	size_t ne = findings_count(fs, SEV_ERROR);
	size_t nw = findings_count(fs, SEV_WARNING);
	const char *glyph = ne > 0 ? c->g->bad : nw > 0 ? c->g->warn : c->g->ok;
	char *counts = wcounts(fs);

	/* TRANSLATORS: the verdict's mark, the verdict and the counts of
	 * errors, warnings and notes. */
	wdoc_textf(d, 0, 2, ne > 0 ? WS_ERROR : nw > 0 ? WS_WARNING : WS_OK,
	    _("%s %s: %s"), glyph, ne > 0 ?
	    _("CUDA will not work as it is set up now") : nw > 0 ?
	    _("CUDA may work, with problems") : _("no problem found"), counts);
	free(counts);
	if (!c->compact && fs->n > 0)
		wdoc_blank(d);
	for (size_t i = 0; i < nshow && i < fs->n; i++) {
		const struct finding *f = &fs->v[i];
		const char *g = wsev_glyph(c->g, f->severity);
		/* The subject alone would not say what is wrong with it. */
		char *line = wfinding_headline(f);
		char *what = wcut(line, d->width - 3 - wtext_width(g),
		    c->g->ellipsis);

		d->item = (int)i;
		wdoc_textf(d, 2, 2, wsev_slot(f->severity), "%s %s", g, what);
		d->item = -1;
		free(what);
		free(line);
	}
	if (nshow < fs->n)
		wdoc_textf(d, 4, 4, WS_DIM, ngettext("and %zu more (%s, %zu)",
		    "and %zu more (%s, %zu)", fs->n - nshow), fs->n - nshow,
		    _(page_diagnosis.title), page_number(&page_diagnosis));
	if (!c->compact)
		wdoc_blank(d);
	/* Notes alone are nothing to fix: Enter still opens the one
	 * chosen, and says so. */
	wdoc_text(d, 0, 2, WS_KEY, ne + nw > 0 ? _("Enter: see why and fix it") :
	    _("Enter: see what was found"));
	wdoc_heading(d, _("Pages"));
	add_menu(d);
}

static void
build_n(const struct wpage_ctx *c, struct wdoc *d, size_t nshow)
{
	build_head(c, d, nshow);
	if (!c->compact)
		wdoc_blank(d);
	add_machine(c, d);
}

/* How many findings the first screen lists: as many as fit with the
 * verdict, the next action and the menu (at least the top one: a
 * short terminal scrolls rather than hides the answer). */
static size_t
shown(const struct wpage_ctx *c)
{
	size_t n = c->r->findings.n, fixed, avail;
	struct wdoc d;

	/* What comes after the menu may fall below the fold. */
	wdoc_init(&d, c->body.cols);
	build_head(c, &d, 0);
	fixed = d.n;
	wdoc_free(&d);
	if (n == 0)
		return 0;
	avail = (size_t)c->body.rows > fixed ? (size_t)c->body.rows - fixed : 0;
	/* The "and N more" line, counted in fixed, is freed when all fit. */
	if (n <= avail + 1)
		return n;
	return avail > 1 ? avail : 1;
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	build_n(c, d, shown(c));
}

static int
sel_of(const struct wpage_ctx *c, size_t nshow)
{
	int s = c->st->sel;

	return nshow == 0 ? -1 : s >= (int)nshow ? (int)nshow - 1 : s < 0 ? 0 : s;
}

static struct wview
draw(const struct wpage_ctx *c, struct wscreen *s)
{
	size_t nshow = shown(c);
	struct wdoc d;
	struct wview v;

	wdoc_init(&d, c->body.cols);
	build_n(c, &d, nshow);
	v = wdoc_draw(&d, s, c->body, c->st->scroll, sel_of(c, nshow));
	wdoc_free(&d);
	return v;
}

/* Up/Down choose among the findings listed, Enter opens the chosen one
 * (or, with none, goes on to what was found); the other scrolling keys
 * scroll. */
static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	size_t nshow = shown(c);
	int sel = sel_of(c, nshow);
	struct wdoc d;
	bool used;

	if (k == WK_ENTER) {
		if (nshow > 0)
			c->nav->finding = sel;
		else
			c->nav->page = 1;
		return WPK_DONE;
	}
	if (nshow > 0 && (k == WK_UP || k == 'k' || k == WK_DOWN || k == 'j')) {
		sel += k == WK_UP || k == 'k' ? -1 : 1;
		c->st->sel = sel < 0 ? 0 : sel >= (int)nshow ? (int)nshow - 1 : sel;
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build_n(c, &d, nshow);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, k);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

static enum wpage_key
click(const struct wpage_ctx *c, int line, int item, int row, int col)
{
	(void)line;
	(void)row;
	(void)col;
	if (item < 0 || (size_t)item >= c->r->findings.n)
		return WPK_IGNORED;
	c->nav->finding = item;
	return WPK_DONE;
}

static const char *
hint_now(const struct wpage_ctx *c)
{
	const struct findings *fs = &c->r->findings;

	return findings_count(fs, SEV_ERROR) + findings_count(fs, SEV_WARNING) > 0 ?
	    N_("Up/Down: choose  Enter: see why and fix it") :
	    N_("Enter: see what was found");
}

static const struct wkeyhelp help[] = {
	{ N_("Up/Down, j/k"), N_("choose one of the findings listed") },
	{ N_("Enter"), N_("open it: why, the evidence and the fix") },
	{ NULL, NULL },
};

const struct wpage page_welcome = {
	.title = N_("Summary"),
	.build = build,
	.draw = draw,
	.key = key,
	.help = help,
	.hint = N_("Enter: open"),
	.hint_now = hint_now,
	.click = click,
};
