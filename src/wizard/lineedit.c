/* The one-line editor; see lineedit.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/lineedit.h"

void
wline_set(struct wline_edit *e, const char *text)
{
	free(e->text);
	e->text = xstrdup(text);
	e->len = strlen(e->text);
	e->cursor = e->len;
}

void
wline_free(struct wline_edit *e)
{
	free(e->text);
	*e = (struct wline_edit){ 0 };
}

bool
wline_key(struct wline_edit *e, int key)
{
	if (e->text == NULL)
		wline_set(e, "");
	switch (key) {
	case WK_LEFT:
		if (e->cursor > 0)
			e->cursor--;
		return true;
	case WK_RIGHT:
		if (e->cursor < e->len)
			e->cursor++;
		return true;
	case WK_HOME:
		e->cursor = 0;
		return true;
	case WK_END:
		e->cursor = e->len;
		return true;
	case WK_BACKSPACE:
		if (e->cursor == 0)
			return true;
		memmove(e->text + e->cursor - 1, e->text + e->cursor,
		    e->len - e->cursor + 1);
		e->cursor--;
		e->len--;
		return true;
	default:
		break;
	}
	if (key < ' ' || key >= 0x7f)
		return false;
	if (e->len >= WLINE_MAX)
		return true;	/* full: the key is used, nothing added */
	e->text = xreallocarray(e->text, e->len + 2, 1);
	memmove(e->text + e->cursor + 1, e->text + e->cursor,
	    e->len - e->cursor + 1);
	e->text[e->cursor++] = (char)key;
	e->len++;
	return true;
}

void
wline_draw(const struct wline_edit *e, struct wscreen *s, int row, int col,
    int width, enum wslot slot, bool show_cursor)
{
	const char *t = e->text != NULL ? e->text : "";
	size_t cur = e->text != NULL ? e->cursor : 0, first = 0;

	if (width < 2)
		return;
	/* Keep the cursor in the last column at most: the text scrolls
	 * left as it grows (bytes are columns for what the editor types). */
	if (show_cursor && cur >= (size_t)width)
		first = cur - (size_t)width + 1;
	wscreen_put(s, row, col, width, slot, t + first);
	if (show_cursor) {
		/* An empty cell at the end still shows where typing goes. */
		if (cur == strlen(t))
			wscreen_put(s, row, col + (int)(cur - first), 1, slot, " ");
		wscreen_paint(s, row, col + (int)(cur - first), 1, WS_SELECTED);
	}
}
