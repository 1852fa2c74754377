/* The wizard's state machine: which page, the help overlay (help.c),
 * the too-small notice, the "quit without writing?" question, the `/`
 * search; keys go first to the page, then mean the wizard's own (the
 * key map: Right/Left and digits for pages, Esc back, q quit, / n N
 * search, R rescan). Drawing is a function of the state and the screen
 * size alone. A slow step a page asks for (the Fix
 * page's check, the live checks, the matrix update) runs in the loop
 * between two frames, so the screen says it is running first. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/help.h"
#include "wizard/keys.h"
#include "wizard/layout.h"
#include "wizard/page.h"
#include "wizard/search.h"
#include "wizard/ustep.h"
#include "wizard/vstep.h"
#include "wizard/wizard.h"

#define STATUS_MAX 1024

struct wizard {
	struct wiz_report	*r;
	const struct wglyphs	*g;
	bool			 utf8;
	size_t			 page;
	struct page_state	*st;	/* one per page; owned */
	struct wfix		*fix;	/* the Fix step's choices; owned */
	struct wvstep		*vstep;	/* the checks run from the wizard; owned */
	struct wustep		*ustep;	/* the matrix update; owned */
	/* While wizard_loop runs: where a slow step draws its frames. */
	const struct wiz_io	*io;
	struct wscreen		*s;
	bool			 s_utf8;	/* the grid's, as wizard_loop was told */
	struct wnav		*nav;	/* what the page asked for by its last key; owned */
	char			*flash;	/* a message for the status line; owned */
	double			 busy_t0;	/* when the slow step began; < 0 none */
	/* The first line of each page's document its last draw showed:
	 * a click's row is counted from it. Owned; written while drawing. */
	int			*view;
	/* The status line as its last draw wrote it (STATUS_MAX bytes,
	 * cut), for a click on its keys. Owned; written while drawing. */
	char			*status;
	struct wsearch		 search;	/* the `/` search */
	bool			 busy;		/* a slow step runs */
	bool			 rescan_pending;
	int			 detail_from;	/* the page a detail was opened from; -1 */
	bool			 help;
	int			 help_scroll;
	bool			 confirm;	/* asking before a quit */
	bool			 quit;
	int			 rows, cols;
};

static bool step_tick(void *arg, bool draw);

struct wizard *
wizard_new(struct wiz_report *r, bool utf8)
{
	struct wizard *w = xcalloc(1, sizeof *w);

	w->r = r;
	w->utf8 = utf8;
	w->g = wglyphs_get(utf8);
	w->st = xcalloc(wiz_page_count(), sizeof *w->st);
	w->fix = wfix_new(r);
	w->vstep = xcalloc(1, sizeof *w->vstep);
	w->vstep->tick = step_tick;
	w->vstep->tick_arg = w;
	w->ustep = xcalloc(1, sizeof *w->ustep);
	w->ustep->tick = step_tick;
	w->ustep->tick_arg = w;
	w->fix->tick = step_tick;
	w->fix->tick_arg = w;
	w->nav = xmalloc(sizeof *w->nav);
	*w->nav = (struct wnav){ .page = -1, .finding = -1, .fix = -1 };
	w->view = xcalloc(wiz_page_count(), sizeof *w->view);
	w->status = xcalloc(1, STATUS_MAX);
	w->search.match = -1;
	w->busy_t0 = -1;
	w->detail_from = -1;
	w->rows = WIZ_FULL_ROWS;
	w->cols = WIZ_FULL_COLS;
	return w;
}

void
wizard_free(struct wizard *w)
{
	if (w == NULL)
		return;
	free(w->st);
	free(w->view);
	free(w->status);
	free(w->nav->copy);
	free(w->nav->flash);
	free(w->nav);
	free(w->flash);
	wsearch_free(&w->search);
	wfix_free(w->fix);
	wvstep_free(w->vstep);
	free(w->vstep);
	wustep_free(w->ustep);
	free(w->ustep);
	free(w);
}

void
wizard_resize(struct wizard *w, int rows, int cols)
{
	w->rows = rows;
	w->cols = cols;
}

bool
wizard_done(const struct wizard *w)
{
	return w->quit;
}

static struct wpage_ctx
page_ctx(const struct wizard *w, const struct wlayout *lay)
{
	struct wpage_ctx c = { w->r, w->g, &w->st[w->page], lay->body, w->fix,
	    w->vstep, w->ustep, w->nav, lay->compact,
	    lay->wide, -1 };

	if (w->busy_t0 >= 0 && w->io != NULL && w->io->now != NULL)
		c.busy_s = w->io->now(w->io->arg) - w->busy_t0;
	return c;
}

static void
go(struct wizard *w, int dir)
{
	if (dir > 0 && w->page + 1 < wiz_page_count())
		w->page++;
	else if (dir < 0 && w->page > 0)
		w->page--;
}

/* A document page: drawn by the wizard from build(), no draw() of its
 * own. Its lines of item i are about finding i (wdoc_findings_of). */
static bool
is_doc_page(const struct wpage *p)
{
	return p->draw == NULL && p->build != NULL;
}

/* The highlighted finding of a document page: the first line in view
 * (rows lines from first) about a finding; -1 when none is in view. */
static int
finding_in_view(const struct wdoc *d, int first, int rows, size_t nfindings)
{
	for (int i = first; i < first + rows && i < (int)d->n; i++)
		if (d->v[i].item >= 0 && (size_t)d->v[i].item < nfindings)
			return d->v[i].item;
	return -1;
}

/* A document page's keys: scrolling, and sideways where a command is
 * wider than the view; at either end of that, Left and Right are the
 * wizard's again (pages). */
static enum wpage_key
doc_key(const struct wpage *p, const struct wpage_ctx *c, int key)
{
	struct wdoc d;
	int h = c->st->hscroll;
	bool used;

	wdoc_init(&d, c->body.cols);
	p->build(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, key);
	if (!used && wdoc_hscroll_key(&d, c->body.cols, &c->st->hscroll, key))
		used = c->st->hscroll != h;
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

/* Quits, or first asks when a previewed script would be lost. */
static void
quit(struct wizard *w)
{
	if (wfix_unsaved(w->fix))
		w->confirm = true;
	else
		w->quit = true;
}

static size_t
page_index(const struct wpage *p)
{
	for (size_t i = 0; i < wiz_page_count(); i++)
		if (wiz_page(i) == p)
			return i;
	return 0;
}

static void
set_flash(struct wizard *w, char *msg)
{
	free(w->flash);
	w->flash = msg;
}

/* Does what the page asked for with its last key (struct wnav). */
static void
apply_nav(struct wizard *w)
{
	struct wnav *n = w->nav;
	size_t nf = w->r->findings.n;

	if (n->finding >= 0 && (size_t)n->finding < nf) {
		size_t i = page_index(&page_diagnosis);

		/* Esc in that detail comes back here (wizard_key). */
		w->detail_from = w->page != i ? (int)w->page : -1;
		w->page = i;
		w->st[i].sel = n->finding;
		w->st[i].detail = true;
		w->st[i].detail_scroll = 0;
		w->st[i].hscroll = 0;
	} else if (n->fix >= 0 && (size_t)n->fix < nf) {
		wfix_prefill(w->fix, &w->r->findings.v[n->fix]);
		w->page = page_index(&page_fix);
	} else if (n->page >= 0 && (size_t)n->page < wiz_page_count()) {
		w->page = (size_t)n->page;
	} else if (n->back) {
		go(w, -1);
	}
	if (n->rescan)
		w->rescan_pending = true;
	if (n->copy != NULL) {
		char *msg = w->io != NULL && w->io->copy != NULL ?
		    w->io->copy(w->io->arg, n->copy) : NULL;

		set_flash(w, msg != NULL ? msg : xstrdup(_("copying is not "
		    "possible here")));
	}
	if (n->flash != NULL) {
		set_flash(w, n->flash);
		n->flash = NULL;
	}
	if (n->quit)
		quit(w);
	free(n->copy);
	*n = (struct wnav){ .page = -1, .finding = -1, .fix = -1 };
}

char *
wizard_farewell(const struct wizard *w)
{
	return wfix_farewell(w->fix);
}

/* Moves the view to the next (dir > 0) or previous match of the query
 * on the current page, and says where the search wrapped or that it
 * found nothing. */
static void
search_step(struct wizard *w, const struct wpage_ctx *c, int dir, bool fresh)
{
	const struct wpage *p = wiz_page(w->page);
	struct wdoc d;
	bool wrapped;
	int line;

	if (w->search.query[0] == '\0') {
		set_flash(w, xstrdup(_("no search yet: / starts one")));
		return;
	}
	if (p->build == NULL) {
		set_flash(w, xstrdup(_("this page cannot be searched")));
		return;
	}
	wdoc_init(&d, c->body.cols);
	p->build(c, &d);
	line = wsearch_next(&w->search, &d, w->page, w->view[w->page], dir,
	    fresh, &wrapped);
	wdoc_free(&d);
	if (line < 0)
		set_flash(w, xasprintf(_("not found: %s"), w->search.query));
	else if (wrapped)
		set_flash(w, xstrdup(dir > 0 ? _("search hit the bottom, "
		    "continuing at the top") : _("search hit the top, "
		    "continuing at the bottom")));
	if (line < 0)
		return;
	if (p->reveal != NULL)
		p->reveal(c, line);
	else if (line < w->view[w->page] ||
	    line >= w->view[w->page] + c->body.rows)
		c->st->scroll = line;
}

/* The wizard's own meaning of a key the page left alone. */
static void
global_key(struct wizard *w, const struct wpage *p,
    const struct wpage_ctx *c, int key)
{
	switch (key) {
	case WK_RIGHT:
		go(w, 1);
		break;
	case WK_LEFT:
		go(w, -1);
		break;
	case WK_ENTER:
		if (is_doc_page(p)) {
			struct wdoc d;
			int f;

			wdoc_init(&d, c->body.cols);
			p->build(c, &d);
			f = finding_in_view(&d, wdoc_clamp(&d, c->body.rows,
			    c->st->scroll), c->body.rows, w->r->findings.n);
			wdoc_free(&d);
			if (f >= 0) {
				w->nav->finding = f;
				apply_nav(w);
				break;
			}
		}
		if (w->page + 1 == wiz_page_count())
			quit(w);
		else
			go(w, 1);
		break;
	case WK_ESC:
		/* A search's marks are closed first, then the page. */
		if (w->search.query[0] != '\0' && w->search.page == w->page)
			w->search.query[0] = '\0';
		else
			go(w, -1);
		break;
	case '/':
		w->search.typing = true;
		wline_set(&w->search.prompt, "");
		break;
	case 'n': case 'N':
		search_step(w, c, key == 'n' ? 1 : -1, false);
		break;
	case 'R':
		w->rescan_pending = true;
		break;
	case 'c':
		set_flash(w, xstrdup(_("nothing to copy here: open a finding "
		    "or a preview first")));
		break;
	case 'q':
		quit(w);
		break;
	case WK_INTR:
		w->quit = true;
		break;
	default:
		/* 1 to 9 and 0 (the tenth) jump to a page. */
		if (key >= '0' && key <= '9') {
			size_t i = key == '0' ? 9 : (size_t)(key - '1');

			if (i < wiz_page_count())
				w->page = i;
		}
		break;
	}
}

void
wizard_key(struct wizard *w, int key)
{
	const struct wpage *p = wiz_page(w->page);
	struct wlayout lay;
	struct wpage_ctx c;
	enum wpage_key r;
	bool was_detail;

	if (key == WK_REDRAW)
		return;		/* the loop draws the screen anew anyway */
	if (p != &page_diagnosis)
		w->detail_from = -1;	/* the detail was left another way */
	if (w->confirm) {
		if (key == 'y' || key == 'Y' || key == WK_INTR)
			w->quit = true;
		else if (key == 'n' || key == 'N' || key == WK_ESC)
			w->confirm = false;
		return;
	}
	wlayout_compute(w->rows, w->cols, &lay);
	if (lay.too_small) {
		/* Nothing but quitting makes sense on a notice. */
		if (key == 'q' || key == WK_INTR)
			quit(w);
		return;
	}
	if (w->help) {
		if (key == WK_INTR)
			w->quit = true;
		else if (!whelp_key(p, w->rows, w->cols, &w->help_scroll, key))
			w->help = false;
		return;
	}
	c = page_ctx(w, &lay);
	if (w->search.typing) {
		set_flash(w, NULL);
		if (key == WK_INTR)
			w->quit = true;
		else if (wsearch_prompt_key(&w->search, key))
			search_step(w, &c, 1, w->search.prompt.len > 0);
		return;
	}
	/* A field being typed into takes every key, '?' and 'q' too. */
	if (p == &page_fix && w->fix->mode == WFM_EDIT) {
		(void)p->key(&c, key);
		apply_nav(w);
		return;
	}
	if (key == '?' || key == WK_F1) {
		w->help = true;
		w->help_scroll = 0;
		return;
	}
	set_flash(w, NULL);
	was_detail = p == &page_diagnosis && c.st->detail;
	r = p->key != NULL ? p->key(&c, key) : WPK_IGNORED;
	/* A detail opened from another page (the Summary's Enter) closes
	 * back to that page: Esc returns where the user was. */
	if (was_detail && key == WK_ESC && !c.st->detail && w->detail_from >= 0 &&
	    wiz_page(w->page) == &page_diagnosis) {
		w->page = (size_t)w->detail_from;
		w->detail_from = -1;
		return;
	}
	/* A document page with keys of its own scrolls (sideways too) as
	 * any document does with the keys it leaves. */
	if (r == WPK_IGNORED && is_doc_page(p))
		r = doc_key(p, &c, key);
	apply_nav(w);
	if (r == WPK_IGNORED)
		global_key(w, p, &c, key);
}

/* Is column col on the text `key` where the status line shows it? */
static bool
status_at(const struct wizard *w, int col, const char *key)
{
	const char *at = strstr(w->status, key);
	char *before;
	int from;

	if (at == NULL)
		return false;
	before = xstrndup(w->status, (size_t)(at - w->status));
	from = wtext_width(before);
	free(before);
	return col >= from && col < from + wtext_width(key);
}

/* A click on the status line's global keys does what they say. */
static void
status_click(struct wizard *w, int col)
{
	if (w->confirm || w->search.typing || w->flash != NULL)
		return;
	if (status_at(w, col, _("?: help"))) {
		w->help = true;
		w->help_scroll = 0;
	} else if (status_at(w, col, _("q: quit"))) {
		quit(w);
	}
}

/* A mouse click on the cell (row, col): on the body, the line there is
 * the page's to handle, else a finding row opens that finding; the
 * title, the frame and the status line do nothing. */
void
wizard_click(struct wizard *w, int row, int col)
{
	const struct wpage *p = wiz_page(w->page);
	struct wlayout lay;
	struct wpage_ctx c;
	int line, item = -1;

	wlayout_compute(w->rows, w->cols, &lay);
	if (w->help) {
		w->help = false;
		return;
	}
	if (!lay.too_small && row == lay.status.row) {
		status_click(w, col);
		return;
	}
	if (w->confirm || w->search.typing || lay.too_small || row < lay.body.row ||
	    row >= lay.body.row + lay.body.rows)
		return;
	c = page_ctx(w, &lay);
	line = w->view[w->page] + row - lay.body.row;
	if (p->build != NULL) {
		struct wdoc d;

		wdoc_init(&d, c.body.cols);
		p->build(&c, &d);
		if (line >= (int)d.n)
			line = -1;	/* below the end: nothing there */
		else
			item = d.v[line].item;
		wdoc_free(&d);
	}
	if (line < 0)
		return;
	set_flash(w, NULL);
	if (p->click != NULL) {
		(void)p->click(&c, line, item, row - lay.body.row,
		    col - lay.body.col);
	} else if ((is_doc_page(p) || p == &page_diagnosis) && item >= 0 &&
	    (size_t)item < w->r->findings.n) {
		/* The lines of an item are a finding's on these pages. */
		w->nav->finding = item;
	}
	apply_nav(w);
}

static void
draw_too_small(const struct wizard *w, struct wscreen *s)
{
	struct wdoc d;
	char *msg;
	int top;

	/* Wrapped to whatever width there is, down to a few columns. */
	wdoc_init(&d, s->cols);
	if (w->confirm)
		msg = xstrdup(_("The script you previewed is not written. Quit "
		    "anyway? y: quit  n: stay"));
	else
		msg = xasprintf(_("Terminal too small: cudawiz needs %d%s%d, this "
		    "one is %d%s%d. Make the window larger, or press q to quit."),
		    WIZ_MIN_COLS, w->utf8 ? "×" : "x", WIZ_MIN_ROWS, s->cols,
		    w->utf8 ? "×" : "x", s->rows);
	wdoc_text(&d, 0, 0, WS_WARNING, msg);
	free(msg);
	top = (s->rows - (int)d.n) / 2;
	wdoc_draw(&d, s, (struct wrect){ top > 0 ? top : 0, 0, s->rows, s->cols },
	    0, -1);
	wdoc_free(&d);
}

static void
draw_title(const struct wizard *w, struct wscreen *s, struct wrect r)
{
	char *left, *right;
	int rw;

	wscreen_fill(s, r, WS_TITLE);
	left = xasprintf(" %s %s %s", PACKAGE, w->g->right,
	    _(wiz_page(w->page)->title));
	right = xasprintf(_("page %zu of %zu "), w->page + 1, wiz_page_count());
	rw = wtext_width(right);
	wscreen_put(s, r.row, r.col, r.cols - rw - 1, WS_TITLE, left);
	wscreen_put(s, r.row, r.col + r.cols - rw, rw, WS_TITLE, right);
	free(left);
	free(right);
}

/* The keys of the current context: the page's (hint_now, else hint;
 * on a plain document page with a finding in view, Enter opens it),
 * then as many of the global keys as fit, the most needed first. */
static char *
status_keys(const struct wizard *w, const struct wpage_ctx *c, int cols,
    bool finding_row)
{
	static const char *const globals[] = {	/* shown in this order */
		N_("1-0: pages"), N_("?: help"), N_("q: quit"),
	};
	static const int priority[] = { 2, 1, 0 };	/* kept in this order */
	const struct wpage *p = wiz_page(w->page);
	const char *hint = p->hint_now != NULL ? p->hint_now(c) : NULL;
	bool keep[3] = { false, false, false };
	int width;
	char *text, *t;

	if (hint == NULL && w->busy)
		hint = N_("Esc, q, Ctrl-C: stop");
	if (hint == NULL && finding_row && p->key == NULL)
		hint = N_("Enter: open the highlighted finding");
	if (hint == NULL)
		hint = p->hint;
	text = xasprintf(" %s", hint != NULL ? _(hint) : "");
	width = wtext_width(text);
	for (size_t i = 0; i < 3 && !w->busy; i++) {
		int g = priority[i], gw = wtext_width(_(globals[g])) + 2;

		if (width + gw <= cols) {
			keep[g] = true;
			width += gw;
		}
	}
	for (size_t g = 0; g < 3; g++) {
		if (!keep[g])
			continue;
		t = xasprintf("%s%s%s", text, text[1] != '\0' ? "  " : "",
		    _(globals[g]));
		free(text);
		text = t;
	}
	return text;
}

static void
draw_status(const struct wizard *w, const struct wpage_ctx *c,
    struct wscreen *s, struct wrect r, bool finding_row)
{
	char *text;

	wscreen_fill(s, r, WS_STATUS);
	if (w->confirm)
		text = xstrdup(_(" y: quit without writing  n, Esc: stay"));
	else if (w->help && !whelp_cut(wiz_page(w->page), s->rows, s->cols))
		text = xstrdup(_(" any key: close the help"));
	else if (w->help)
		text = xasprintf(" %s", _("Up/Down: scroll  any other key: close "
		    "the help"));
	else if (w->search.typing)
		text = NULL;	/* the prompt is a field: drawn below */
	else if (w->rescan_pending)
		text = xasprintf(" %s%s", _("probing the machine again"),
		    w->g->ellipsis);
	else if (w->flash != NULL)
		text = xasprintf(" %s", w->flash);
	else
		text = status_keys(w, c, r.cols, finding_row);
	if (text == NULL) {
		int pw = r.cols / 2 > 4 ? r.cols / 2 : 4;
		const char *hint = _("Enter: search  Esc: cancel");

		wscreen_put(s, r.row, r.col, 2, WS_STATUS, " /");
		wline_draw(&w->search.prompt, s, r.row, r.col + 2, pw - 2,
		    WS_STATUS, true);
		wscreen_put(s, r.row, r.col + pw + 1, r.cols - pw - 1, WS_STATUS,
		    hint);
		snprintf(w->status, STATUS_MAX, " /%s  %s",
		    w->search.prompt.text != NULL ? w->search.prompt.text : "",
		    hint);
		return;
	}
	wscreen_put(s, r.row, r.col, r.cols, WS_STATUS, text);
	snprintf(w->status, STATUS_MAX, "%s", text);
	free(text);
}

/* "↑ 3 more" and "↓ 12 more" on the frame where the body is cut. */
static void
draw_more(const struct wizard *w, struct wscreen *s, const struct wlayout *lay,
    struct wview v)
{
	int below = v.total - v.first - v.shown;
	char *t;

	if (v.first > 0) {
		t = xasprintf(_(" %s %d more "), w->g->up, v.first);
		wscreen_put(s, lay->frame.row, lay->frame.col + lay->frame.cols -
		    wtext_width(t) - 2, 20, WS_FRAME, t);
		free(t);
	}
	if (below > 0) {
		t = xasprintf(_(" %s %d more "), w->g->down, below);
		wscreen_put(s, lay->frame.row + lay->frame.rows - 1,
		    lay->frame.col + lay->frame.cols - wtext_width(t) - 2, 30,
		    WS_FRAME, t);
		free(t);
	}
}

static void
draw_confirm(const struct wizard *w, struct wscreen *s)
{
	struct wdoc d;
	struct wrect box;

	wdoc_init(&d, 50);
	wdoc_text(&d, 0, 0, WS_WARNING, _("The script you previewed is not "
	    "written yet."));
	wdoc_blank(&d);
	wdoc_text(&d, 0, 0, WS_NORMAL, _("Quit anyway? y: quit, n or Esc: stay "
	    "(Write is on the Fix page)."));
	box = wlayout_center(s->rows, s->cols, (int)d.n + 4, 54);
	wscreen_fill(s, box, WS_NORMAL);
	wdraw_box(s, box, w->g, WS_FRAME, _("Quit?"));
	wdoc_draw(&d, s, (struct wrect){ box.row + 2, box.col + 2, box.rows - 4,
	    box.cols - 4 }, 0, -1);
	wdoc_free(&d);
}

void
wizard_draw(const struct wizard *w, struct wscreen *s)
{
	const struct wpage *p = wiz_page(w->page);
	struct wlayout lay;
	struct wpage_ctx c;
	struct wview v;
	bool finding_row = false;

	wscreen_clear(s);
	wlayout_compute(s->rows, s->cols, &lay);
	if (lay.too_small) {
		draw_too_small(w, s);
		return;
	}
	draw_title(w, s, lay.title);
	wdraw_box(s, lay.frame, w->g, WS_FRAME, NULL);
	c = page_ctx(w, &lay);
	if (p->draw != NULL) {
		v = p->draw(&c, s);
	} else {
		struct wdoc d;
		int sel;

		wdoc_init(&d, lay.body.cols);
		p->build(&c, &d);
		sel = finding_in_view(&d, wdoc_clamp(&d, lay.body.rows,
		    c.st->scroll), lay.body.rows, w->r->findings.n);
		finding_row = sel >= 0;
		v = wdoc_draw_h(&d, s, lay.body, c.st->scroll, sel,
		    c.st->hscroll);
		wdoc_free(&d);
	}
	/* Where this draw began, for the next click's row. */
	w->view[w->page] = v.first;
	if (w->search.query[0] != '\0' && w->search.page == w->page &&
	    !w->search.typing)
		(void)wsearch_paint(s, lay.body, w->search.query);
	draw_more(w, s, &lay, v);
	draw_status(w, &c, s, lay.status, finding_row);
	if (w->help)
		whelp_draw(p, w->g, s, w->help_scroll);
	if (w->confirm)
		draw_confirm(w, s);
}

/* A new grid for a new size: the loop's and the slow steps' frames
 * draw into w->s. */
static void
new_screen(struct wizard *w, int rows, int cols)
{
	wscreen_free(w->s);
	w->s = wscreen_new(rows, cols, w->s_utf8);
	wizard_resize(w, w->s->rows, w->s->cols);
}

/* A frame while a step runs, then the keys pressed meanwhile: Esc, q
 * and Ctrl-C ask it to stop; a resize or Ctrl-L draws the frame anew at
 * once; the others are dropped, as the screen they were meant for has
 * moved on. */
static bool
step_tick(void *arg, bool draw)
{
	struct wizard *w = arg;
	bool stop = false;
	int key, rows = 0, cols = 0;

	if (w->io == NULL)
		return false;
	/* Bounded: a terminal that keeps sending cannot hold the step. */
	for (int i = 0; i < 64; i++) {
		if (draw) {
			wizard_draw(w, w->s);
			w->io->show(w->io->arg, w->s, WK_PROGRESS);
			draw = false;
		}
		if (w->io->poll == NULL ||
		    (key = w->io->poll(w->io->arg, &rows, &cols)) == WK_NONE)
			break;
		if (key == WK_ESC || key == 'q' || key == WK_INTR) {
			stop = true;
		} else if (key == WK_RESIZE) {
			new_screen(w, rows, cols);
			draw = true;
		} else if (key == WK_REDRAW) {
			draw = true;
		}
	}
	return stop;
}

/* The findings changed: the Diagnosis list starts again at the top,
 * and a search's last match means nothing any more. */
static void
findings_changed(struct wizard *w)
{
	for (size_t i = 0; i < wiz_page_count(); i++)
		if (wiz_page(i) == &page_diagnosis)
			w->st[i] = (struct page_state){ 0 };
	w->search.match = -1;
}

/* Runs a slow step a page asked for, after the frame that says it runs
 * was shown; false when there was none. */
static bool
wizard_work(struct wizard *w)
{
	bool worked;

	if (!w->fix->check_pending && !w->vstep->pending &&
	    !w->ustep->pending && !w->rescan_pending)
		return false;
	w->busy_t0 = w->io->now != NULL ? w->io->now(w->io->arg) : -1;
	w->busy = true;
	if (w->io->busy != NULL)
		w->io->busy(w->io->arg, true);
	worked = wfix_work(w->fix);
	if (!worked) {
		worked = wvstep_work(w->vstep, w->r);
		/* The update re-diagnoses too, whatever it found. */
		worked = wustep_work(w->ustep, w->r) || worked;
		if (w->rescan_pending) {
			w->rescan_pending = false;
			set_flash(w, xstrdup(wiz_report_rescan(w->r) ?
			    _("probed the machine again") :
			    _("the machine could not be probed again")));
			worked = true;
		}
		if (worked)
			findings_changed(w);
	}
	if (w->io->busy != NULL)
		w->io->busy(w->io->arg, false);
	w->busy_t0 = -1;
	w->busy = false;
	return worked;
}

void
wizard_loop(struct wizard *w, const struct wiz_io *io, int rows, int cols,
    bool utf8)
{
	w->s_utf8 = utf8;
	w->io = io;
	new_screen(w, rows, cols);
	wizard_draw(w, w->s);
	io->show(io->arg, w->s, WK_NONE);
	while (!wizard_done(w)) {
		int key = io->next(io->arg, &rows, &cols);

		if (key == WK_EOF)
			break;
		if (key == WK_RESIZE)
			new_screen(w, rows, cols);
		else if (key == WK_CLICK)
			wizard_click(w, rows, cols);
		else
			wizard_key(w, key);
		wizard_draw(w, w->s);
		io->show(io->arg, w->s, key);
		/* The frame just shown says a slow step is running; run it
		 * and show what it found. */
		if (wizard_work(w)) {
			wizard_draw(w, w->s);
			io->show(io->arg, w->s, WK_WORKED);
		}
	}
	w->io = NULL;
	wscreen_free(w->s);
	w->s = NULL;
}
