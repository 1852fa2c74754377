/* Glyph sets and the box; see glyph.h. */
#include "config.h"

#include "wizard/glyph.h"

static const struct wglyphs utf8_glyphs = {
	.h = "─", .v = "│", .tl = "┌", .tr = "┐", .bl = "└", .br = "┘",
	.ok = "✓", .bad = "✗", .warn = "!", .info = "i",
	.bullet = "•", .up = "↑", .down = "↓", .right = "→", .ellipsis = "…",
	.bar_done = "█", .bar_todo = "░",
};

static const struct wglyphs ascii_glyphs = {
	.h = "-", .v = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.ok = "+", .bad = "x", .warn = "!", .info = "i",
	.bullet = "*", .up = "^", .down = "v", .right = ">", .ellipsis = "...",
	.bar_done = "#", .bar_todo = "-",
};

const struct wglyphs *
wglyphs_get(bool utf8)
{
	return utf8 ? &utf8_glyphs : &ascii_glyphs;
}

void
wdraw_box(struct wscreen *s, struct wrect r, const struct wglyphs *g,
    enum wslot slot, const char *title)
{
	int bottom = r.row + r.rows - 1, right = r.col + r.cols - 1;

	if (r.rows < 2 || r.cols < 2)
		return;
	for (int x = r.col + 1; x < right; x++) {
		wscreen_put(s, r.row, x, 1, slot, g->h);
		wscreen_put(s, bottom, x, 1, slot, g->h);
	}
	for (int y = r.row + 1; y < bottom; y++) {
		wscreen_put(s, y, r.col, 1, slot, g->v);
		wscreen_put(s, y, right, 1, slot, g->v);
	}
	wscreen_put(s, r.row, r.col, 1, slot, g->tl);
	wscreen_put(s, r.row, right, 1, slot, g->tr);
	wscreen_put(s, bottom, r.col, 1, slot, g->bl);
	wscreen_put(s, bottom, right, 1, slot, g->br);
	if (title != NULL && r.cols > 6) {
		int at = r.col + 2;

		at += wscreen_put(s, r.row, at, r.cols - 6, slot, " ");
		at += wscreen_put(s, r.row, at, r.cols - 6, WS_HEADING, title);
		wscreen_put(s, r.row, at, 1, slot, " ");
	}
}
