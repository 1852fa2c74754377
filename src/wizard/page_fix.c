/* Fix: the user chooses the toolkit, the cuDNN, the Python environment
 * to serve, the shell format and the output file; previews the script;
 * writes it; checks it. The page is a form of fields (Up/Down, j/k, Tab
 * move; Enter opens one), a list that opens over it, a line editor for
 * the path, and two scrolled views (page_fix_view.c). The choices and
 * results live in the wizard's struct wfix (fix.h), which the Done page
 * reads too. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/keys.h"
#include "wizard/layout.h"
#include "wizard/page.h"

#define LABELW	21	/* the value column of the form */

static const struct wkeyhelp help[] = {
	{ N_("Up/Down, j/k, Tab"), N_("move between the fields") },
	{ N_("Left/Right"), N_("move between the actions when one has the "
	    "focus; scroll wide lines sideways") },
	{ N_("Enter"), N_("open a field, pick an entry, or run an action "
	    "(Write and check writes the script and proves it)") },
	{ N_("Esc"), N_("close a list, the editor or a view; else the previous "
	    "page") },
	{ N_("typing"), N_("the output file, once opened: Ctrl-A/E or "
	    "Home/End, Ctrl-U/K/W, Delete, Backspace, ~ for your home") },
	{ N_("PgUp/PgDn, Home/End"), N_("scroll the preview or the check") },
	{ N_("w"), N_("write and check the script from the preview") },
	{ N_("c"), N_("copy the script (preview), the activate line (check) "
	    "or the install lines") },
	{ N_("y/n"), N_("replace an existing file, or keep it") },
	{ NULL, NULL },
};

static const char *const labels[WF_COUNT] = {
	[WF_TOOLKIT]	= N_("CUDA toolkit"),
	[WF_CUDNN]	= N_("cuDNN directory"),
	[WF_PYENV]	= N_("Python environment"),
	[WF_SHELL]	= N_("Shell format"),
	[WF_OUTPUT]	= N_("Output file"),
	[WF_PREVIEW]	= N_("Preview"),
	[WF_WRITE]	= N_("Write and check"),
	[WF_CHECK]	= N_("Check again"),
};

/* ------------------------------------------------------------ form */

/* The output field's value: the path, or where a conda script goes. */
static char *
output_value(const struct wfix *fx)
{
	if (wfix_format(fx) == SCRIPT_CONDA)
		return xstrdup(_("(the environment's etc/conda/activate.d)"));
	if (fx->mode == WFM_EDIT)
		return xstrdup("");	/* the editor draws it */
	return xstrdup(fx->path.text != NULL && fx->path.text[0] != '\0' ?
	    fx->path.text : _("(none)"));
}

/* What the page was opened for (f on a finding), and, when no script
 * fixes that, the commands that do: never wrapped, so they paste. */
static void
for_part(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;
	char *lines;

	if (fx->for_text == NULL)
		return;
	wdoc_textf(d, 0, 5, WS_HEADING, _("For: %s"), fx->for_text);
	if (!fx->for_unscriptable) {
		wdoc_blank(d);
		return;
	}
	wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn, _("No activation "
	    "script fixes this; these lines do (c copies them):"));
	if (fx->for_fix.n > 0) {
		lines = wjoin(&fx->for_fix, "\n");
		wdoc_command(d, 4, WS_KEY, lines);
		free(lines);
	}
	wdoc_blank(d);
}

/* A name that says another shell than the format chosen. */
static void
path_warning(const struct wpage_ctx *c, struct wdoc *d)
{
	char *w = wfix_path_warning(c->fix);

	if (w != NULL)
		wdoc_textf(d, LABELW + 2, LABELW + 4, WS_WARNING, "%s %s",
		    c->g->warn, w);
	free(w);
}

/* The form as a document: each field an item, the actions one line
 * (*actions gets its index), the last action's result and what the
 * plan leaves unfixed below. */
static void
build_form(const struct wpage_ctx *c, struct wdoc *d, int *actions)
{
	const struct wfix *fx = c->fix;
	char *v;

	for_part(c, d);
	if (!wfix_check_possible(fx))
		wdoc_text(d, 0, 0, WS_WARNING, _("Under --root the script is "
		    "written, not checked: the proof would test this machine."));
	if (fx->for_text == NULL) {
		wdoc_text(d, 0, 0, WS_DIM, _("Choose what the activation script "
		    "sets up, then write and check it."));
		wdoc_blank(d);
	}
	for (int f = 0; f <= WF_OUTPUT; f++) {
		/* The focus shows as a mark too, for a screen without
		 * colour or reverse video. */
		char *lab = xasprintf("%s %s", f == (int)fx->field ? c->g->right :
		    " ", _(labels[f]));

		v = f == WF_OUTPUT ? output_value(fx) :
		    xstrdup(fx->list[f].labels.v[fx->list[f].chosen]);
		d->item = f;
		wdoc_kv(d, 0, LABELW + 2, lab, WS_NORMAL, v);
		free(lab);
		free(v);
		if (f == WF_OUTPUT && fx->mode == WFM_EDIT)
			wdoc_text(d, LABELW + 2, LABELW + 2, WS_DIM, _("Enter: keep "
			    "it  Esc: put back what was there"));
		if (f == WF_OUTPUT)
			path_warning(c, d);
	}
	d->item = -1;
	wdoc_blank(d);
	*actions = (int)d->n;
	v = xstrdup("");
	for (int f = WF_PREVIEW; f <= WF_CHECK; f++) {
		char *t = xasprintf("%s%s [ %s ] ", v, f == (int)fx->field ?
		    c->g->right : " ", _(labels[f]));

		free(v);
		v = t;
	}
	wdoc_text(d, 0, 0, WS_KEY, v);
	free(v);
	if (fx->mode == WFM_CONFIRM) {
		char *p = wfix_path(fx);

		wdoc_blank(d);
		wdoc_textf(d, 2, 4, WS_WARNING, _("%s exists: replace it? (it is "
		    "kept as a .bak file)  y: replace  n: keep it"), p);
		free(p);
	}
	if (fx->msg != NULL) {
		wdoc_blank(d);
		wdoc_text(d, 2, 4, fx->msg_slot, fx->msg);
	}
	if (!fx->rendered && fx->render_err != NULL) {
		wdoc_blank(d);
		wdoc_textf(d, 2, 4, WS_ERROR, "%s %s", c->g->bad, fx->render_err);
	} else if (fx->rendered && fx->rep.unfixable.n > 0) {
		wdoc_heading(d, _("Not fixed by any script"));
		for (size_t i = 0; i < fx->rep.unfixable.n; i++)
			wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn,
			    fx->rep.unfixable.v[i]);
	}
}

/* The scroll that keeps the focused field (or the actions) in view. */
static int
form_scroll(const struct wdoc *d, int rows, int focus_line)
{
	int scroll = focus_line - rows + 1;

	return wdoc_clamp(d, rows, scroll > 0 ? scroll : 0);
}

static int
focus_line(const struct wfix *fx, const struct wdoc *d, int actions)
{
	int first, last;

	if (fx->field >= WF_PREVIEW)
		return actions;
	return wdoc_item_lines(d, (int)fx->field, &first, &last) ? last : 0;
}

/* Paints the focused action's "[ … ]" on the actions line. */
static void
paint_action(const struct wpage_ctx *c, struct wscreen *s, int row)
{
	int col = c->body.col + 2;

	/* As build_form lays them out: a mark, a blank, "[ … ]", a blank. */
	for (int f = WF_PREVIEW; f <= WF_CHECK; f++) {
		char *b = xasprintf("[ %s ]", _(labels[f]));
		int w = wtext_width(b);

		if (f == (int)c->fix->field)
			wscreen_paint(s, row, col, w, WS_SELECTED);
		col += w + 3;
		free(b);
	}
}

/* The open list, in a box over the form. */
static void
draw_pick(const struct wpage_ctx *c, struct wscreen *s)
{
	const struct wfix *fx = c->fix;
	const struct wfix_list *l = &fx->list[fx->field];
	struct wrect box;
	struct wdoc d;
	int widest = wtext_width(_(labels[fx->field])) + 4, scroll, first, last;

	for (size_t i = 0; i < l->labels.n; i++) {
		int w = wtext_width(l->labels.v[i]) + 5;

		widest = w > widest ? w : widest;
	}
	box = wlayout_center(s->rows, s->cols, (int)l->labels.n + 2,
	    widest + 4 < c->body.cols ? widest + 4 : c->body.cols);
	wscreen_fill(s, box, WS_NORMAL);
	wdraw_box(s, box, c->g, WS_FRAME, _(labels[fx->field]));
	wdoc_init(&d, box.cols - 2);
	for (size_t i = 0; i < l->labels.n; i++) {
		d.item = (int)i;
		wdoc_textf(&d, 0, 3, WS_NORMAL, "%s %s%s%s", (int)i == fx->pick ?
		    c->g->right : " ", l->labels.v[i], (int)i == l->chosen ?
		    "  " : "", (int)i == l->chosen ? c->g->ok : "");
	}
	scroll = 0;
	if (wdoc_item_lines(&d, fx->pick, &first, &last) &&
	    last >= box.rows - 2)
		scroll = last - (box.rows - 2) + 1;
	wdoc_draw(&d, s, (struct wrect){ box.row + 1, box.col + 1, box.rows - 2,
	    box.cols - 2 }, scroll, fx->pick);
	wdoc_free(&d);
}

static struct wview
draw_form(const struct wpage_ctx *c, struct wscreen *s)
{
	const struct wfix *fx = c->fix;
	struct wdoc d;
	struct wview v;
	int actions, scroll, first, last;

	wdoc_init(&d, c->body.cols);
	build_form(c, &d, &actions);
	scroll = form_scroll(&d, c->body.rows, focus_line(fx, &d, actions));
	v = wdoc_draw_h(&d, s, c->body, scroll, fx->mode == WFM_EDIT ||
	    fx->field >= WF_PREVIEW ? -1 : (int)fx->field, c->st->hscroll);
	if (fx->field >= WF_PREVIEW && actions >= scroll &&
	    actions < scroll + c->body.rows)
		paint_action(c, s, c->body.row + actions - scroll);
	if (fx->mode == WFM_EDIT &&
	    wdoc_item_lines(&d, WF_OUTPUT, &first, &last) && first >= scroll &&
	    first < scroll + c->body.rows)
		wline_draw(&fx->path, s, c->body.row + first - scroll,
		    c->body.col + 2 + LABELW, c->body.cols - 2 - LABELW,
		    WS_NORMAL, true);
	wdoc_free(&d);
	if (fx->mode == WFM_PICK)
		draw_pick(c, s);
	return v;
}

/* ------------------------------------------------------------ views */

static void
build_view(const struct wpage_ctx *c, struct wdoc *d)
{
	if (c->fix->mode == WFM_PREVIEW)
		wfix_build_preview(c, d);
	else
		wfix_build_result(c, d);
}

static struct wview
draw(const struct wpage_ctx *c, struct wscreen *s)
{
	const struct wfix *fx = c->fix;
	struct wdoc d;
	struct wview v;

	if (fx->mode != WFM_PREVIEW && fx->mode != WFM_RESULT)
		return draw_form(c, s);
	wdoc_init(&d, c->body.cols);
	build_view(c, &d);
	v = wdoc_draw_h(&d, s, c->body, fx->mode == WFM_PREVIEW ?
	    fx->preview_scroll : fx->result_scroll, -1, fx->mode == WFM_PREVIEW ?
	    fx->preview_h : fx->result_h);
	wdoc_free(&d);
	return v;
}

/* ------------------------------------------------------------ keys */

/* What c copies in a view: the whole script, or how to activate it. */
static char *
view_copy(const struct wfix *fx)
{
	if (fx->mode == WFM_PREVIEW)
		return fx->rendered ? xstrdup(fx->text.text) : NULL;
	return wfix_activate_line(fx);
}

static enum wpage_key
view_key(const struct wpage_ctx *c, int key)
{
	struct wfix *fx = c->fix;
	struct wdoc d;
	bool used;

	if (fx->check_pending || fx->check_running)
		return WPK_DONE;	/* the check runs before any key is read */
	if (key == WK_ESC || key == 'p' ||
	    (key == WK_ENTER && fx->mode == WFM_RESULT)) {
		fx->mode = WFM_FORM;
		return WPK_DONE;
	}
	if ((key == 'w' || key == WK_ENTER) && fx->mode == WFM_PREVIEW) {
		fx->mode = WFM_FORM;
		fx->field = WF_WRITE;
		wfix_write_and_check(fx);
		return WPK_DONE;
	}
	if (key == 'c') {
		c->nav->copy = view_copy(fx);
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build_view(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, fx->mode == WFM_PREVIEW ?
	    &fx->preview_scroll : &fx->result_scroll, key) ||
	    wdoc_hscroll_key(&d, c->body.cols, fx->mode == WFM_PREVIEW ?
	    &fx->preview_h : &fx->result_h, key);
	wdoc_free(&d);
	/* Left and Right stay in the view: it is not the page's top. */
	return used || key == WK_LEFT || key == WK_RIGHT || key == WK_BACKSPACE ?
	    WPK_DONE : WPK_IGNORED;
}

static enum wpage_key
pick_key(struct wfix *fx, int key, int rows)
{
	int n = (int)fx->list[fx->field].labels.n, step = rows / 2 > 0 ?
	    rows / 2 : 1;

	switch (key) {
	case WK_UP: case 'k': case WK_BTAB:
		fx->pick--;
		break;
	case WK_DOWN: case 'j': case WK_TAB:
		fx->pick++;
		break;
	case WK_PGUP:
		fx->pick -= step;
		break;
	case WK_PGDN:
		fx->pick += step;
		break;
	case WK_HOME: case 'g':
		fx->pick = 0;
		break;
	case WK_END: case 'G':
		fx->pick = n - 1;
		break;
	case WK_ENTER:
		wfix_choose(fx, (int)fx->field, fx->pick);
		fx->mode = WFM_FORM;
		return WPK_DONE;
	case WK_ESC: case WK_LEFT:
		fx->mode = WFM_FORM;
		return WPK_DONE;
	case 'q':
		return WPK_IGNORED;	/* quitting still works */
	default:
		return WPK_DONE;	/* the list stays open */
	}
	fx->pick = fx->pick < 0 ? 0 : fx->pick >= n ? n - 1 : fx->pick;
	return WPK_DONE;
}

static enum wpage_key
edit_key(struct wfix *fx, int key)
{
	if (key == WK_ENTER) {
		if (strcmp(fx->path_before, fx->path.text) != 0) {
			fx->path_typed = true;
			wfix_path_changed(fx);
		}
	} else if (key == WK_ESC) {
		wline_set(&fx->path, fx->path_before);
	} else {
		(void)wline_key(&fx->path, key);
		return WPK_DONE;	/* every key is the editor's */
	}
	free(fx->path_before);
	fx->path_before = NULL;
	fx->mode = WFM_FORM;
	return WPK_DONE;
}

static enum wpage_key
confirm_key(struct wfix *fx, int key)
{
	if (key == 'y' || key == 'Y')
		wfix_confirm(fx, true);
	else if (key == 'n' || key == 'N' || key == WK_ESC)
		wfix_confirm(fx, false);
	else if (key == 'q')
		return WPK_IGNORED;	/* quitting still works */
	return WPK_DONE;	/* the question stays until answered */
}

/* Enter on the focused field. */
static void
activate(struct wfix *fx)
{
	switch (fx->field) {
	case WF_TOOLKIT: case WF_CUDNN: case WF_PYENV: case WF_SHELL:
		fx->mode = WFM_PICK;
		fx->pick = fx->list[fx->field].chosen;
		break;
	case WF_OUTPUT:
		if (wfix_format(fx) == SCRIPT_CONDA)
			break;	/* the environment decides where it goes */
		free(fx->path_before);
		fx->path_before = xstrdup(fx->path.text);
		fx->mode = WFM_EDIT;
		break;
	case WF_PREVIEW:
		fx->mode = WFM_PREVIEW;
		fx->preview_scroll = fx->preview_h = 0;
		if (wfix_render(fx))
			fx->previewed = true;
		break;
	case WF_WRITE:
		wfix_write_and_check(fx);
		break;
	case WF_CHECK:
		wfix_check_request(fx);
		if (fx->check_pending) {
			fx->mode = WFM_RESULT;
			fx->result_scroll = fx->result_h = 0;
		}
		break;
	case WF_COUNT:
		break;
	}
}

/* Left/Right on the form: between the actions when one has the focus,
 * else sideways over wide install lines; otherwise the wizard's. */
static enum wpage_key
form_side(const struct wpage_ctx *c, int k)
{
	struct wfix *fx = c->fix;
	struct wdoc d;
	int actions;
	bool used;

	/* h and l always scroll: the install lines stay reachable with
	 * the focus on the actions. */
	if (k == 'h' || k == 'l')
		k = k == 'h' ? WK_LEFT : WK_RIGHT;
	else if (fx->field >= WF_PREVIEW) {
		if (k == WK_LEFT && fx->field > WF_PREVIEW)
			fx->field--;
		else if (k == WK_RIGHT && fx->field < WF_CHECK)
			fx->field++;
		return WPK_DONE;
	}
	wdoc_init(&d, c->body.cols);
	build_form(c, &d, &actions);
	used = wdoc_hscroll_key(&d, c->body.cols, &c->st->hscroll, k);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	struct wfix *fx = c->fix;
	int f = (int)fx->field;

	switch (fx->mode) {
	case WFM_PICK:
		return pick_key(fx, k, c->body.rows);
	case WFM_EDIT:
		return edit_key(fx, k);
	case WFM_CONFIRM:
		return confirm_key(fx, k);
	case WFM_PREVIEW: case WFM_RESULT:
		return view_key(c, k);
	case WFM_FORM:
		break;
	}
	switch (k) {
	case WK_UP: case 'k': case WK_BTAB:
		f = f > WF_PREVIEW && k != WK_BTAB ? WF_OUTPUT : f - 1;
		break;
	case WK_DOWN: case 'j': case WK_TAB:
		f = f >= WF_PREVIEW && k != WK_TAB ? f : f + 1;
		break;
	case WK_HOME: case 'g': case WK_PGUP:
		f = 0;
		break;
	case WK_END: case 'G': case WK_PGDN:
		f = WF_CHECK;
		break;
	case WK_LEFT: case 'h': case WK_RIGHT: case 'l':
		return form_side(c, k);
	case WK_ENTER:
		activate(fx);
		return WPK_DONE;
	case WK_ESC:
		c->nav->back = true;
		return WPK_DONE;
	case WK_BACKSPACE:
		return WPK_DONE;	/* editing only: nothing to edit here */
	case 'c':
		if (fx->for_unscriptable && fx->for_fix.n > 0) {
			c->nav->copy = wjoin(&fx->for_fix, "\n");
			return WPK_DONE;
		}
		return WPK_IGNORED;
	default:
		return WPK_IGNORED;
	}
	fx->field = (enum wfix_field)(f < 0 ? 0 : f >= WF_COUNT ? WF_COUNT - 1 : f);
	return WPK_DONE;
}

static const char *
hint_now(const struct wpage_ctx *c)
{
	const struct wfix *fx = c->fix;

	switch (fx->mode) {
	case WFM_PICK:
		return N_("Enter: pick  Esc: close the list");
	case WFM_EDIT:
		return N_("Enter: keep  Esc: undo  Ctrl-A/E: ends  Ctrl-U/K/W: cut");
	case WFM_CONFIRM:
		return N_("y: replace the file  n: keep it");
	case WFM_PREVIEW:
		return N_("Enter: write and check  c: copy  Esc: back");
	case WFM_RESULT:
		if (fx->check_pending || fx->check_running)
			return N_("Esc, q or Ctrl-C: stop the check");
		return N_("c: copy the activate line  Esc: back");
	case WFM_FORM:
		break;
	}
	if (fx->for_unscriptable && fx->for_fix.n > 0)
		return N_("c: copy the install lines  h/l: scroll  Esc: back");
	if (fx->field >= WF_PREVIEW)
		return N_("Left/Right: choose  Enter: run it  Esc: back");
	return N_("Enter: open  Tab: next field  Esc: back");
}

/* The document the page shows now, for search. */
static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	int actions;

	if (c->fix->mode == WFM_PREVIEW || c->fix->mode == WFM_RESULT)
		build_view(c, d);
	else
		build_form(c, d, &actions);
}

static void
reveal(const struct wpage_ctx *c, int line)
{
	if (c->fix->mode == WFM_PREVIEW)
		c->fix->preview_scroll = line;
	else if (c->fix->mode == WFM_RESULT)
		c->fix->result_scroll = line;
}

/* A click on a field focuses it; on an open list's row, nothing. */
static enum wpage_key
click(const struct wpage_ctx *c, int line, int item, int row, int col)
{
	(void)line;
	(void)row;
	(void)col;
	if (c->fix->mode != WFM_FORM || item < 0 || item > WF_OUTPUT)
		return WPK_IGNORED;
	c->fix->field = (enum wfix_field)item;
	return WPK_DONE;
}

const struct wpage page_fix = {
	.title = N_("Fix"),
	.build = build,
	.draw = draw,
	.key = key,
	.help = help,
	.hint = N_("Enter: open  Tab: next field  Esc: back"),
	.hint_now = hint_now,
	.reveal = reveal,
	.click = click,
};
