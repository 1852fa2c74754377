/* The help overlay (? or F1): the page's keys, then the keys every page
 * has, in a box centred on the screen that scrolls where it is cut. A
 * global key a page gives its own meaning is listed once, the page's. */
#ifndef CUDAWIZ_WIZARD_HELP_H
#define CUDAWIZ_WIZARD_HELP_H

#include <stdbool.h>

#include "wizard/glyph.h"
#include "wizard/page.h"
#include "wizard/screen.h"

/* Is page p's help longer than its box on a screen of rows x cols? */
bool	whelp_cut(const struct wpage *p, int rows, int cols);
/* Up/Down, PgUp/PgDn, Home/End move *scroll; false for any other key
 * (it closes the help). */
bool	whelp_key(const struct wpage *p, int rows, int cols, int *scroll,
	    int key);
/* Draws page p's help over s, scrolled by scroll lines. */
void	whelp_draw(const struct wpage *p, const struct wglyphs *g,
	    struct wscreen *s, int scroll);

#endif
