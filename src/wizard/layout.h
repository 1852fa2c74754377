/* Where everything goes on a screen of rows × cols: a pure function of
 * the size, so a resize is just another call and the tests can check it
 * with no terminal. */
#ifndef CUDAWIZ_WIZARD_LAYOUT_H
#define CUDAWIZ_WIZARD_LAYOUT_H

#include <stdbool.h>

#include "wizard/screen.h"

/* The size the pages are written for (the 80×24); down to
 * WIZ_MIN_* they are drawn compact (no side margins), below it only a
 * notice fits. From WIZ_WIDE_COLS a page may put things side by side. */
#define WIZ_FULL_ROWS	24
#define WIZ_FULL_COLS	80
#define WIZ_MIN_ROWS	20
#define WIZ_MIN_COLS	60
#define WIZ_WIDE_COLS	160

struct wlayout {
	bool		too_small;	/* below WIZ_MIN_*: only a notice fits */
	bool		compact;	/* below 80x24: no margins, one-line rows */
	bool		wide;		/* 160 columns or more: side by side */
	struct wrect	title;		/* one row: the page's title and place */
	struct wrect	frame;		/* the box around the body */
	struct wrect	body;		/* what a page draws in */
	struct wrect	status;		/* one row: the keys that work here */
};

void		wlayout_compute(int rows, int cols, struct wlayout *out);
/* A box of h × w (cut to fit, a margin kept) centred on the screen. */
struct wrect	wlayout_center(int rows, int cols, int h, int w);

#endif
