/* The wizard's state machine: which page, the help overlay, the
 * too-small notice, the "quit without writing?" question; global keys
 * first the page's, then the wizard's own. Drawing is a function of the
 * state and the screen size alone. A slow step a page asks for (the Fix
 * page's check, the live checks, the matrix update) runs in the loop
 * between two frames, so the screen says it is running first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/keys.h"
#include "wizard/layout.h"
#include "wizard/page.h"
#include "wizard/ustep.h"
#include "wizard/vstep.h"
#include "wizard/wizard.h"

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
	bool			 help;
	bool			 confirm;	/* asking before a quit */
	bool			 quit;
	int			 rows, cols;
};

/* Keys every page has, after the page's own in the help. */
static const struct wkeyhelp global_help[] = {
	{ N_("Right, n"), N_("next page") },
	{ N_("Left, p, Backspace"), N_("previous page") },
	{ N_("Up/Down, j/k"), N_("move or scroll one line") },
	{ N_("PgUp/PgDn"), N_("scroll one screen") },
	{ N_("Home/End"), N_("go to the top or the bottom") },
	{ N_("Tab, Shift-Tab"), N_("next or previous section") },
	{ N_("?, F1"), N_("this help (any key closes it)") },
	{ N_("q, Esc"), N_("quit") },
	{ NULL, NULL },
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
	w->rows = WIZ_MIN_ROWS;
	w->cols = WIZ_MIN_COLS;
	return w;
}

void
wizard_free(struct wizard *w)
{
	if (w == NULL)
		return;
	free(w->st);
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
	    w->vstep, w->ustep };

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

/* A document page's keys: scrolling; Enter moves on. */
static enum wpage_key
doc_key(const struct wpage *p, const struct wpage_ctx *c, int key)
{
	struct wdoc d;
	bool used;

	wdoc_init(&d, c->body.cols);
	p->build(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, key);
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

void
wizard_key(struct wizard *w, int key)
{
	const struct wpage *p = wiz_page(w->page);
	struct wlayout lay;
	struct wpage_ctx c;
	enum wpage_key r;

	if (w->confirm) {
		if (key == 'y' || key == 'Y')
			w->quit = true;
		else if (key == 'n' || key == 'N' || key == WK_ESC)
			w->confirm = false;
		return;
	}
	wlayout_compute(w->rows, w->cols, &lay);
	if (lay.too_small) {
		/* Nothing but quitting makes sense on a notice. */
		if (key == 'q' || key == WK_ESC)
			quit(w);
		return;
	}
	if (w->help) {
		w->help = false;
		return;
	}
	c = page_ctx(w, &lay);
	/* A field being typed into takes every key, '?' and 'q' too. */
	if (p == &page_fix && w->fix->mode == WFM_EDIT) {
		(void)p->key(&c, key);
		return;
	}
	if (key == '?' || key == WK_F1) {
		w->help = true;
		return;
	}
	r = p->key != NULL ? p->key(&c, key) : doc_key(p, &c, key);
	if (r == WPK_DONE)
		return;
	switch (key) {
	case WK_RIGHT: case 'n':
		go(w, 1);
		break;
	case WK_ENTER:
		if (w->page + 1 == wiz_page_count())
			quit(w);
		else
			go(w, 1);
		break;
	case WK_LEFT: case 'p': case WK_BACKSPACE:
		go(w, -1);
		break;
	case 'q': case WK_ESC:
		quit(w);
		break;
	default:
		break;
	}
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

static void
draw_status(const struct wizard *w, struct wscreen *s, struct wrect r)
{
	const struct wpage *p = wiz_page(w->page);
	char *text;

	wscreen_fill(s, r, WS_STATUS);
	if (w->confirm)
		text = xstrdup(_(" y: quit without writing  n, Esc: stay"));
	else if (w->help)
		text = xstrdup(_(" any key: close the help"));
	else
		text = xasprintf(" %s%s%s", p->hint != NULL ? _(p->hint) : "",
		    p->hint != NULL ? "  " : "",
		    _("n: next  p: back  ?: help  q: quit"));
	wscreen_put(s, r.row, r.col, r.cols, WS_STATUS, text);
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
draw_help(const struct wizard *w, struct wscreen *s)
{
	const struct wpage *p = wiz_page(w->page);
	struct wdoc d;
	struct wrect box;
	char *title;

	/* Built at the box's inner width, then the box fitted to it. */
	wdoc_init(&d, 60);
	for (const struct wkeyhelp *h = p->help; h != NULL && h->keys != NULL; h++)
		wdoc_kv(&d, 0, 22, _(h->keys), WS_NORMAL, _(h->what));
	if (d.n > 0)
		wdoc_blank(&d);
	for (const struct wkeyhelp *h = global_help; h->keys != NULL; h++)
		wdoc_kv(&d, 0, 22, _(h->keys), WS_NORMAL, _(h->what));
	box = wlayout_center(s->rows, s->cols, (int)d.n + 4, 64);
	wscreen_fill(s, box, WS_NORMAL);
	title = xasprintf(_("Keys: %s"), _(p->title));
	wdraw_box(s, box, w->g, WS_FRAME, title);
	free(title);
	wdoc_draw(&d, s, (struct wrect){ box.row + 2, box.col + 2, box.rows - 4,
	    box.cols - 4 }, 0, -1);
	wdoc_free(&d);
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

		wdoc_init(&d, lay.body.cols);
		p->build(&c, &d);
		v = wdoc_draw(&d, s, lay.body, c.st->scroll, -1);
		wdoc_free(&d);
	}
	draw_more(w, s, &lay, v);
	draw_status(w, s, lay.status);
	if (w->help)
		draw_help(w, s);
	if (w->confirm)
		draw_confirm(w, s);
}

/* A frame while a step runs, then the keys pressed meanwhile: Esc, q
 * and Ctrl-C ask it to stop; the others are dropped, as the screen they
 * were meant for has moved on. */
static bool
step_tick(void *arg, bool draw)
{
	struct wizard *w = arg;
	bool stop = false;
	int key;

	if (w->io == NULL)
		return false;
	if (draw) {
		wizard_draw(w, w->s);
		w->io->show(w->io->arg, w->s, WK_PROGRESS);
	}
	while (w->io->poll != NULL && (key = w->io->poll(w->io->arg)) != WK_NONE)
		if (key == WK_ESC || key == 'q' || key == WK_INTR)
			stop = true;
	return stop;
}

/* The findings changed: the Diagnosis list starts again at the top. */
static void
findings_changed(struct wizard *w)
{
	for (size_t i = 0; i < wiz_page_count(); i++)
		if (wiz_page(i) == &page_diagnosis)
			w->st[i] = (struct page_state){ 0 };
}

/* Runs a slow step a page asked for, after the frame that says it runs
 * was shown; false when there was none. */
static bool
wizard_work(struct wizard *w)
{
	bool worked;

	if (wfix_work(w->fix))
		return true;
	if (!w->vstep->pending && !w->ustep->pending)
		return false;
	if (w->io->busy != NULL)
		w->io->busy(w->io->arg, true);
	worked = wvstep_work(w->vstep, w->r);
	/* The update re-diagnoses too, whatever it found. */
	worked = wustep_work(w->ustep, w->r) || worked;
	if (w->io->busy != NULL)
		w->io->busy(w->io->arg, false);
	if (worked)
		findings_changed(w);
	return worked;
}

void
wizard_loop(struct wizard *w, const struct wiz_io *io, int rows, int cols,
    bool utf8)
{
	struct wscreen *s = wscreen_new(rows, cols, utf8);

	wizard_resize(w, s->rows, s->cols);
	w->io = io;
	w->s = s;
	wizard_draw(w, s);
	io->show(io->arg, s, WK_NONE);
	while (!wizard_done(w)) {
		int key = io->next(io->arg, &rows, &cols);

		if (key == WK_EOF)
			break;
		if (key == WK_RESIZE) {
			wscreen_free(s);
			s = wscreen_new(rows, cols, utf8);
			w->s = s;
			wizard_resize(w, s->rows, s->cols);
		} else {
			wizard_key(w, key);
		}
		wizard_draw(w, s);
		io->show(io->arg, s, key);
		/* The frame just shown says a slow step is running; run it
		 * and show what it found. */
		if (wizard_work(w)) {
			wizard_draw(w, s);
			io->show(io->arg, s, WK_WORKED);
		}
	}
	w->io = NULL;
	w->s = NULL;
	wscreen_free(s);
}
