/* A one-line text editor for a field (the Fix page's output path):
 * printable ASCII inserted at the cursor, Backspace, Left/Right,
 * Home/End. Bytes only: a path typed on the keyboard is ASCII here, and
 * a non-ASCII default is still shown and kept whole. Pure. */
#ifndef CUDAWIZ_WIZARD_LINEEDIT_H
#define CUDAWIZ_WIZARD_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "wizard/screen.h"

#define WLINE_MAX	4095	/* bytes a field holds (PATH_MAX less one) */

struct wline_edit {
	char	*text;		/* owned, NUL-terminated */
	size_t	 len;
	size_t	 cursor;	/* byte offset, 0 … len */
};

void	wline_set(struct wline_edit *e, const char *text);	/* cursor at the end */
void	wline_free(struct wline_edit *e);
/* Applies an editing key; false when key is not one (Enter, Esc, Up …). */
bool	wline_key(struct wline_edit *e, int key);
/* Draws the text in width columns at (row, col), the cursor's cell in
 * WS_SELECTED when show_cursor, scrolled so the cursor is visible. */
void	wline_draw(const struct wline_edit *e, struct wscreen *s, int row,
	    int col, int width, enum wslot slot, bool show_cursor);

#endif
