/* The characters the wizard draws with: box lines, ticks, arrows, in
 * UTF-8 where the terminal's locale is UTF-8 and --ascii is not given,
 * in plain ASCII otherwise. Every glyph that carries meaning (a tick, a
 * cross) has a word beside it where it is used, so the ASCII set and a
 * screen without colour lose nothing. */
#ifndef CUDAWIZ_WIZARD_GLYPH_H
#define CUDAWIZ_WIZARD_GLYPH_H

#include <stdbool.h>

#include "wizard/screen.h"

struct wglyphs {
	const char	*h, *v, *tl, *tr, *bl, *br;	/* box */
	const char	*ok, *bad, *warn, *info;	/* states */
	const char	*bullet, *up, *down, *right, *ellipsis;
	const char	*bar_done, *bar_todo;	/* a progress bar's cells */
};

const struct wglyphs	*wglyphs_get(bool utf8);

/* A box around r, with an optional title in its top line. */
void	wdraw_box(struct wscreen *s, struct wrect r, const struct wglyphs *g,
	    enum wslot slot, const char *title);

#endif
