/* Diagnosis: the findings, errors first, one entry each; Enter opens an
 * entry's detail (what, why, the evidence, the fix) and Esc, Left or
 * Backspace closes it. The list keeps its cursor in view at any size. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/page.h"

static const struct wkeyhelp help[] = {
	{ N_("Up/Down, j/k"), N_("choose a finding") },
	{ N_("Enter"), N_("open its detail: evidence and fix") },
	{ N_("Esc, Left"), N_("close the detail") },
	{ N_("Tab"), N_("next severity") },
	{ NULL, NULL },
};

static int
nfindings(const struct wpage_ctx *c)
{
	return (int)c->r->findings.n;
}

static int
sel_of(const struct wpage_ctx *c)
{
	int n = nfindings(c), s = c->st->sel;

	return s >= n ? n - 1 : s < 0 ? 0 : s;
}

static void
build_list(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct findings *fs = &c->r->findings;
	size_t ne = findings_count(fs, SEV_ERROR);
	size_t nw = findings_count(fs, SEV_WARNING);
	size_t ni = findings_count(fs, SEV_INFO);
	char *a, *b, *e;

	a = xasprintf(ngettext("%zu error", "%zu errors", ne), ne);
	b = xasprintf(ngettext("%zu warning", "%zu warnings", nw), nw);
	e = xasprintf(ngettext("%zu note", "%zu notes", ni), ni);
	wdoc_textf(d, 0, 0, WS_NORMAL, "%s, %s, %s", a, b, e);
	free(a);
	free(b);
	free(e);
	wdoc_blank(d);
	if (fs->n == 0) {
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("No problems found."));
		return;
	}
	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];

		d->item = (int)i;
		wdoc_textf(d, 0, 13, wsev_slot(f->severity), "%s %-9s  %s",
		    wsev_glyph(c->g, f->severity), words_severity(f->severity),
		    finding_code_name(f->code));
		d->v[d->n - 1].heading = i == 0 ||
		    fs->v[i - 1].severity != f->severity;
		wdoc_text(d, 13, 13, WS_NORMAL, _(finding_title(f->code)));
		d->item = -1;
	}
}

static void
build_detail(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct finding *f = &c->r->findings.v[sel_of(c)];

	wdoc_textf(d, 0, 2, wsev_slot(f->severity), "%s %s  %s",
	    wsev_glyph(c->g, f->severity), words_severity(f->severity),
	    finding_code_name(f->code));
	wdoc_text(d, 0, 0, WS_HEADING, _(finding_title(f->code)));
	if (f->detail != NULL && f->detail[0] != '\0') {
		wdoc_blank(d);
		wdoc_text(d, 0, 0, WS_NORMAL, f->detail);
	}
	if (f->evidence.n > 0) {
		wdoc_heading(d, _("Evidence"));
		for (size_t i = 0; i < f->evidence.n; i++)
			wdoc_textf(d, 2, 4, WS_NORMAL, "%s %s", c->g->bullet,
			    f->evidence.v[i]);
	}
	if (f->fix.n > 0) {
		wdoc_heading(d, _("Fix"));
		/* Commands to paste: cut only where the line ends, and
		 * continued one column in. */
		for (size_t i = 0; i < f->fix.n; i++)
			wdoc_text(d, 2, 3, WS_KEY, f->fix.v[i]);
	}
	wdoc_blank(d);
	wdoc_text(d, 0, 0, WS_DIM, _("Esc or Left: back to the list"));
}

/* The scroll that shows the selected entry, starting from scroll. */
static int
follow(const struct wdoc *d, int rows, int scroll, int sel)
{
	int first, last;

	if (!wdoc_item_lines(d, sel, &first, &last))
		return wdoc_clamp(d, rows, scroll);
	if (sel == 0)
		first = 0;	/* the counts above the first entry too */
	if (last >= scroll + rows)
		scroll = last - rows + 1;
	if (first < scroll)
		scroll = first;
	return wdoc_clamp(d, rows, scroll);
}

static struct wview
draw(const struct wpage_ctx *c, struct wscreen *s)
{
	struct wdoc d;
	struct wview v;

	wdoc_init(&d, c->body.cols);
	if (c->st->detail && nfindings(c) > 0) {
		build_detail(c, &d);
		v = wdoc_draw(&d, s, c->body, c->st->detail_scroll, -1);
	} else {
		build_list(c, &d);
		v = wdoc_draw(&d, s, c->body, follow(&d, c->body.rows,
		    c->st->scroll, sel_of(c)), nfindings(c) > 0 ? sel_of(c) : -1);
	}
	wdoc_free(&d);
	return v;
}

static enum wpage_key
detail_key(const struct wpage_ctx *c, int key)
{
	struct wdoc d;
	bool used;

	if (key == WK_ESC || key == WK_LEFT || key == WK_BACKSPACE || key == 'p' ||
	    key == WK_ENTER) {
		c->st->detail = false;
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build_detail(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->detail_scroll, key);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

/* The next entry of another severity in direction dir, or sel. */
static int
next_severity(const struct findings *fs, int sel, int dir)
{
	for (int i = sel + dir; i >= 0 && i < (int)fs->n; i += dir)
		if (fs->v[i].severity != fs->v[sel].severity)
			return i;
	return sel;
}

static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	int n = nfindings(c), sel = sel_of(c), rows = c->body.rows;
	struct wdoc d;

	if (n == 0)
		return WPK_IGNORED;
	if (c->st->detail)
		return detail_key(c, k);
	switch (k) {
	case WK_UP: case 'k':
		sel--;
		break;
	case WK_DOWN: case 'j':
		sel++;
		break;
	case WK_PGUP:
		sel -= rows / 2 > 0 ? rows / 2 : 1;
		break;
	case WK_PGDN: case ' ':
		sel += rows / 2 > 0 ? rows / 2 : 1;
		break;
	case WK_HOME: case 'g':
		sel = 0;
		break;
	case WK_END: case 'G':
		sel = n - 1;
		break;
	case WK_TAB:
		sel = next_severity(&c->r->findings, sel, 1);
		break;
	case WK_BTAB:
		sel = next_severity(&c->r->findings, sel, -1);
		break;
	case WK_ENTER:
		c->st->detail = true;
		c->st->detail_scroll = 0;
		return WPK_DONE;
	default:
		return WPK_IGNORED;
	}
	c->st->sel = sel < 0 ? 0 : sel >= n ? n - 1 : sel;
	wdoc_init(&d, c->body.cols);
	build_list(c, &d);
	c->st->scroll = follow(&d, rows, c->st->scroll, c->st->sel);
	wdoc_free(&d);
	return WPK_DONE;
}

const struct wpage page_diagnosis = {
	.title = N_("Diagnosis"),
	.draw = draw,
	.key = key,
	.help = help,
	.hint = N_("Enter: detail"),
};
