/* A one-line text editor for a field (the Fix page's output path), with
 * the keys of readline: characters (UTF-8) inserted at the cursor;
 * Left/Right (Ctrl-B/F) by whole characters; Home/End and Ctrl-A/E;
 * Backspace and Delete/Ctrl-D by one character; Ctrl-U and Ctrl-K cut to
 * the start and to the end; Ctrl-W cuts back to the previous '/' or
 * blank. A character comes as one key (its code point, from U+0100) or
 * as its UTF-8 bytes one key each (0x80 … 0xff). Pure. */
#ifndef CUDAWIZ_WIZARD_LINEEDIT_H
#define CUDAWIZ_WIZARD_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "wizard/screen.h"

#define WLINE_MAX	4095	/* bytes a field holds (PATH_MAX less one) */

struct wline_edit {
	char	*text;		/* owned, NUL-terminated */
	size_t	 len;
	size_t	 cursor;	/* byte offset, 0 … len, never inside a character */
	/* A character arriving as UTF-8 bytes, one key each (a terminal's
	 * getch gives 0x80 … 0xff so): kept until it is whole. */
	char	 pend[4];
	size_t	 npend, want;
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
