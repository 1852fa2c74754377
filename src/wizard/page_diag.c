/* Diagnosis: the findings, errors first, one entry each, named by what
 * they are about (two missing libraries read differently); Enter opens
 * an entry's detail (what, why, the evidence, the fix) and Esc closes
 * it. From the detail, f goes to the Fix page filled in for the finding
 * and c copies its fix lines. On a wide screen the detail stands beside
 * the list and follows the selection; Enter then moves into it. The
 * list keeps its cursor in view at any size. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/page.h"

static const struct wkeyhelp help[] = {
	{ N_("Up/Down, j/k"), N_("choose a finding") },
	{ N_("Enter"), N_("open its detail: evidence and fix") },
	{ N_("Esc"), N_("close the detail") },
	{ N_("f, Enter in the detail"), N_("fix it: the Fix page, filled in "
	    "for the finding") },
	{ N_("c in the detail"), N_("copy the finding's fix lines") },
	{ N_("Left/Right in the detail"), N_("scroll long commands sideways") },
	{ N_("Tab"), N_("next severity") },
	{ NULL, NULL },
};

/* How a list entry is drawn: two lines (what it is about; the severity,
 * the code and the title, dim), one line with the code at the right
 * (wide), or one line alone (compact). */
enum row_form {
	ROW_TWO,
	ROW_CODE,
	ROW_ONE,
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

static enum row_form
form_of(const struct wpage_ctx *c)
{
	return c->wide ? ROW_CODE : c->compact ? ROW_ONE : ROW_TWO;
}

/* Side by side on a wide screen: the list on the left (45 %), a rule,
 * the detail on the right. Otherwise each has the whole body. */
static struct wrect
list_rect(const struct wpage_ctx *c)
{
	struct wrect r = c->body;

	if (c->wide)
		r.cols = c->body.cols * 45 / 100;
	return r;
}

static struct wrect
detail_rect(const struct wpage_ctx *c)
{
	struct wrect r = c->body;
	int lw = list_rect(c).cols;

	if (c->wide) {
		r.col += lw + 3;
		r.cols -= lw + 3;
	}
	return r;
}

/* Is the detail what the keys act on (and, narrow, what is shown)? */
static bool
in_detail(const struct wpage_ctx *c)
{
	return c->st->detail && nfindings(c) > 0;
}

/* One entry of the list, item i of d. */
static void
add_row(struct wdoc *d, const struct wpage_ctx *c, size_t i,
    enum row_form form)
{
	const struct finding *f = &c->r->findings.v[i];
	const char *glyph = wsev_glyph(c->g, f->severity);
	const char *code = finding_code_name(f->code);
	enum wslot slot = wsev_slot(f->severity);
	int room = d->width - wtext_width(glyph) - 1;
	char *what, *line;

	d->item = (int)i;
	switch (form) {
	case ROW_TWO:
		wdoc_textf(d, 0, 2, slot, "%s %s", glyph, wfinding_text(f));
		if (f->subject != NULL && f->subject[0] != '\0')
			wdoc_textf(d, 2, 2, WS_DIM, "%s  %s: %s",
			    words_severity(f->severity), code,
			    _(finding_title(f->code)));
		else
			wdoc_textf(d, 2, 2, WS_DIM, "%s  %s",
			    words_severity(f->severity), code);
		break;
	case ROW_CODE:
		/* The code right-aligned (draw() dims it), at least two
		 * blanks after what the entry is about. */
		room -= (int)strlen(code) + 2;
		line = wfinding_headline(f);
		what = wcut(line, room, c->g->ellipsis);
		free(line);
		wdoc_textf(d, 0, 0, slot, "%s %s%*s%s", glyph, what,
		    room - wtext_width(what) + 2, "", code);
		free(what);
		break;
	case ROW_ONE:
		line = wfinding_headline(f);
		what = wcut(line, room, c->g->ellipsis);
		free(line);
		wdoc_textf(d, 0, 0, slot, "%s %s", glyph, what);
		free(what);
		break;
	}
	d->item = -1;
}

static void
build_list(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct findings *fs = &c->r->findings;
	enum row_form form = form_of(c);
	char *counts = wcounts(fs);

	wdoc_text(d, 0, 0, WS_NORMAL, counts);
	free(counts);
	if (!c->compact)
		wdoc_blank(d);
	if (fs->n == 0) {
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("No problems found."));
		return;
	}
	for (size_t i = 0; i < fs->n; i++) {
		size_t first = d->n;

		add_row(d, c, i, form);
		d->v[first].heading = i == 0 ||
		    fs->v[i - 1].severity != fs->v[i].severity;
	}
}

static void
build_detail(const struct wpage_ctx *c, struct wdoc *d)
{
	wdoc_finding_detail(d, c, (size_t)sel_of(c));
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

/* The list in r, its codes dimmed in the one-line-with-code form. */
static struct wview
draw_list(const struct wpage_ctx *c, struct wscreen *s, struct wrect r)
{
	struct wdoc d;
	struct wview v;
	int sel = nfindings(c) > 0 ? sel_of(c) : -1;

	wdoc_init(&d, r.cols);
	build_list(c, &d);
	v = wdoc_draw(&d, s, r, follow(&d, r.rows, c->st->scroll, sel), sel);
	for (int y = 0; form_of(c) == ROW_CODE && y < v.shown; y++) {
		const struct wline *l = &d.v[v.first + y];
		int w;

		if (l->item < 0 || l->item == sel)
			continue;
		w = (int)strlen(finding_code_name(c->r->findings.v[l->item].code));
		wscreen_paint(s, r.row + y, r.col + r.cols - w, w, WS_DIM);
	}
	wdoc_free(&d);
	return v;
}

static struct wview
draw_detail(const struct wpage_ctx *c, struct wscreen *s, struct wrect r)
{
	struct wdoc d;
	struct wview v;

	wdoc_init(&d, r.cols);
	build_detail(c, &d);
	v = wdoc_draw_h(&d, s, r, c->st->detail_scroll, -1, c->st->hscroll);
	wdoc_free(&d);
	return v;
}

static struct wview
draw(const struct wpage_ctx *c, struct wscreen *s)
{
	struct wview lv, dv;

	if (!c->wide || nfindings(c) == 0)
		return in_detail(c) ? draw_detail(c, s, c->body) :
		    draw_list(c, s, c->body);
	lv = draw_list(c, s, list_rect(c));
	for (int y = 0; y < c->body.rows; y++)
		wscreen_put(s, c->body.row + y, c->body.col + list_rect(c).cols + 1,
		    1, WS_FRAME, c->g->v);
	dv = draw_detail(c, s, detail_rect(c));
	/* The frame's "more" marks are for the part the keys move. */
	return c->st->detail ? dv : lv;
}

/* The document the page shows now, as the keys see it: the detail when
 * it has the keys, else the list (search, clicks). */
static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	struct wrect r = in_detail(c) ? detail_rect(c) : list_rect(c);

	wdoc_free(d);
	wdoc_init(d, r.cols);
	if (in_detail(c))
		build_detail(c, d);
	else
		build_list(c, d);
}

static void
reveal(const struct wpage_ctx *c, int line)
{
	struct wdoc d;

	if (in_detail(c)) {
		c->st->detail_scroll = line;
		return;
	}
	wdoc_init(&d, list_rect(c).cols);
	build_list(c, &d);
	if (line >= 0 && line < (int)d.n && d.v[line].item >= 0)
		c->st->sel = d.v[line].item;
	c->st->scroll = line;
	wdoc_free(&d);
}

/* f and c: the Fix page for the finding, its fix lines copied. */
static enum wpage_key
act(const struct wpage_ctx *c, int key)
{
	const struct finding *f = &c->r->findings.v[sel_of(c)];

	if (key == 'f' || key == WK_ENTER) {
		c->nav->fix = sel_of(c);
		return WPK_DONE;
	}
	free(c->nav->copy);
	c->nav->copy = wfinding_fix_text(f);
	if (c->nav->copy == NULL) {
		free(c->nav->flash);
		c->nav->flash = xstrdup(_("nothing to copy: this finding has "
		    "no fix lines"));
	}
	return WPK_DONE;
}

static void
close_detail(const struct wpage_ctx *c)
{
	c->st->detail = false;
	c->st->hscroll = 0;
}

static enum wpage_key
detail_key(const struct wpage_ctx *c, int key)
{
	struct wrect r = detail_rect(c);
	struct wdoc d;
	enum wpage_key used = WPK_DONE;

	if (key == WK_ESC) {
		close_detail(c);
		return WPK_DONE;
	}
	if (key == 'f' || key == 'c' || key == WK_ENTER)
		return act(c, key);
	wdoc_init(&d, r.cols);
	build_detail(c, &d);
	/* Left scrolls long commands back, and at their start is back to
	 * the list, as it was before commands scrolled. */
	if (key == WK_LEFT && c->st->hscroll == 0)
		close_detail(c);
	else if (!wdoc_hscroll_key(&d, r.cols, &c->st->hscroll, key) &&
	    !wdoc_scroll_key(&d, r.rows, &c->st->detail_scroll, key))
		used = WPK_IGNORED;
	wdoc_free(&d);
	return used;
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

static void
select_entry(const struct wpage_ctx *c, int sel)
{
	int n = nfindings(c);
	struct wrect r = list_rect(c);
	struct wdoc d;

	sel = sel < 0 ? 0 : sel >= n ? n - 1 : sel;
	if (sel != c->st->sel) {
		/* The detail beside the list starts at its top. */
		c->st->detail_scroll = 0;
		c->st->hscroll = 0;
	}
	c->st->sel = sel;
	wdoc_init(&d, r.cols);
	build_list(c, &d);
	c->st->scroll = follow(&d, r.rows, c->st->scroll, sel);
	wdoc_free(&d);
}

static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	int n = nfindings(c), sel = sel_of(c), rows = c->body.rows;

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
		if (!c->wide) {
			c->st->detail_scroll = 0;
			c->st->hscroll = 0;
		}
		return WPK_DONE;
	case 'f': case 'c':
		/* Beside the list the detail is open already. */
		return c->wide ? act(c, k) : WPK_IGNORED;
	default:
		return WPK_IGNORED;
	}
	select_entry(c, sel);
	return WPK_DONE;
}

/* Side by side, the wizard's line and item are those of the part the
 * keys move; a click on the other part is found here by its column: on
 * the detail it gives the detail the keys, on the list it selects the
 * entry on that row (and gives the list the keys back). */
static enum wpage_key
click_wide(const struct wpage_ctx *c, int row, int col)
{
	struct wrect lr = list_rect(c);
	struct wdoc d;
	int line, item = -1;

	if (col > lr.cols) {
		if (col == lr.cols + 1 || c->st->detail)
			return WPK_IGNORED;	/* the rule; or no change */
		c->st->detail = true;
		return WPK_DONE;
	}
	wdoc_init(&d, lr.cols);
	build_list(c, &d);
	line = follow(&d, lr.rows, c->st->scroll, sel_of(c)) + row;
	if (line >= 0 && line < (int)d.n)
		item = d.v[line].item;
	wdoc_free(&d);
	if (item < 0 || item >= nfindings(c))
		return WPK_IGNORED;
	c->st->detail = false;
	select_entry(c, item);
	return WPK_DONE;
}

/* A click on an entry opens it (beside the list: selects it). */
static enum wpage_key
click(const struct wpage_ctx *c, int line, int item, int row, int col)
{
	(void)line;
	if (c->wide && nfindings(c) > 0)
		return click_wide(c, row, col);
	if (in_detail(c) || item < 0 || item >= nfindings(c))
		return WPK_IGNORED;
	select_entry(c, item);
	c->st->detail = true;
	c->st->detail_scroll = 0;
	return WPK_DONE;
}

static const char *
hint_now(const struct wpage_ctx *c)
{
	struct wrect r = detail_rect(c);
	struct wdoc d;
	bool wider, fix;

	if (nfindings(c) == 0)
		return NULL;
	if (!c->st->detail)
		return c->wide ? N_("Enter: into the detail  f: fix this  "
		    "c: copy fix") : N_("Enter: open  Tab: next severity");
	fix = c->r->findings.v[sel_of(c)].fix.n > 0;
	wdoc_init(&d, r.cols);
	build_detail(c, &d);
	wider = wdoc_hscroll_max(&d, r.cols) > 0;
	wdoc_free(&d);
	if (wider)
		return N_("Esc: back  f: fix this  c: copy fix  Left/Right: scroll");
	return fix ? N_("Esc: back  f: fix this  c: copy fix") :
	    N_("Esc: back  f: fix this");
}

const struct wpage page_diagnosis = {
	.title = N_("Diagnosis"),
	.build = build,
	.draw = draw,
	.key = key,
	.help = help,
	.hint = N_("Enter: open"),
	.hint_now = hint_now,
	.reveal = reveal,
	.click = click,
};
