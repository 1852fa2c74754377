/* The help overlay; see help.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/help.h"
#include "wizard/keys.h"
#include "wizard/layout.h"

/* Keys every page has, after the page's own in the help: one meaning
 * per key (a page's own use of a key comes first and is listed above
 * these). */
static const struct wkeyhelp global_help[] = {
	{ N_("Right/Left, 1-9, 0"), N_("next or previous page; a digit goes "
	    "to that page (0: the tenth)") },
	{ N_("Up/Down, PgUp/PgDn"), N_("scroll a line or a screen (also j/k)") },
	{ N_("Home/End, g/G"), N_("go to the top or the bottom") },
	{ N_("Tab, Shift-Tab"), N_("next or previous section") },
	{ N_("Enter"), N_("open the highlighted finding, else go on") },
	{ N_("Esc"), N_("back: close what is open, else the previous page") },
	{ N_("/, n, N"), N_("search this page; next or previous match") },
	{ N_("c"), N_("copy the selected command") },
	{ N_("R"), N_("probe the machine again") },
	{ N_("Ctrl-L"), N_("draw the screen anew") },
	{ N_("mouse"), N_("click a row or a button (off: --no-mouse)") },
	{ N_("?, F1"), N_("this help (Up/Down scroll it, other keys close it)") },
	{ N_("q, Ctrl-C"), N_("quit") },
	{ NULL, NULL },
};

/* Does the page's help give the key that global line g starts with (its
 * keys up to the first comma)? Then the page's meaning is the one, and
 * the global line is left out, so no key is listed twice. */
static bool
page_has_key(const struct wpage *p, const char *g)
{
	size_t n = strcspn(g, ",");

	for (const struct wkeyhelp *h = p->help; h != NULL && h->keys != NULL; h++)
		if (strcspn(h->keys, ",") == n && strncmp(h->keys, g, n) == 0)
			return true;
	return false;
}

/* The help overlay on a screen of rows x cols: its lines (the page's
 * keys, then everyone's), the box fitted to them and the part of it
 * they are drawn in. */
static void
help_layout(const struct wpage *p, int rows, int cols, struct wdoc *d,
    struct wrect *box, struct wrect *in)
{
	int width = cols - 4 < 76 ? cols - 4 : 76, pad;

	/* Built at the box's inner width, then the box fitted to it. */
	wdoc_init(d, width - 4);
	for (const struct wkeyhelp *h = p->help; h != NULL && h->keys != NULL; h++)
		wdoc_kv(d, 0, 20, _(h->keys), WS_NORMAL, _(h->what));
	if (d->n > 0)
		wdoc_blank(d);
	for (const struct wkeyhelp *h = global_help; h->keys != NULL; h++)
		if (!page_has_key(p, h->keys))
			wdoc_kv(d, 0, 20, _(h->keys), WS_NORMAL, _(h->what));
	/* A blank line under the title and above the bottom where they fit. */
	pad = (int)d->n + 4 <= rows - 2 ? 2 : 1;
	*box = wlayout_center(rows, cols, (int)d->n + 2 * pad, width);
	*in = (struct wrect){ box->row + pad, box->col + 2, box->rows - 2 * pad,
	    box->cols - 4 };
}

bool
whelp_cut(const struct wpage *p, int rows, int cols)
{
	struct wdoc d;
	struct wrect box, in;
	bool cut;

	help_layout(p, rows, cols, &d, &box, &in);
	cut = (int)d.n > in.rows;
	wdoc_free(&d);
	return cut;
}

bool
whelp_key(const struct wpage *p, int rows, int cols, int *scroll, int key)
{
	struct wdoc d;
	struct wrect box, in;
	bool used;

	help_layout(p, rows, cols, &d, &box, &in);
	/* Space and Tab close it, as they did when any key closed it. */
	used = key != WK_TAB && key != WK_BTAB && key != ' ' &&
	    wdoc_scroll_key(&d, in.rows, scroll, key);
	wdoc_free(&d);
	return used;
}

void
whelp_draw(const struct wpage *p, const struct wglyphs *g, struct wscreen *s,
    int scroll)
{
	struct wdoc d;
	struct wrect box, in;
	struct wview v;
	char *title;

	help_layout(p, s->rows, s->cols, &d, &box, &in);
	wscreen_fill(s, box, WS_NORMAL);
	title = xasprintf(_("Keys: %s"), _(p->title));
	wdraw_box(s, box, g, WS_FRAME, title);
	free(title);
	v = wdoc_draw(&d, s, in, scroll, -1);
	if (v.first + v.shown < v.total) {
		title = xasprintf(_(" %s %d more "), g->down,
		    v.total - v.first - v.shown);
		wscreen_put(s, box.row + box.rows - 1, box.col + box.cols -
		    wtext_width(title) - 2, box.cols, WS_FRAME, title);
		free(title);
	}
	wdoc_free(&d);
}
