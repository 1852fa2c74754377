/* The one-line editor; see lineedit.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/utf8width.h"
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
	e->npend = 0;
}

void
wline_free(struct wline_edit *e)
{
	free(e->text);
	*e = (struct wline_edit){ 0 };
}

static bool
cont_byte(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* The start of the character before byte i (never inside one). */
static size_t
char_before(const struct wline_edit *e, size_t i)
{
	return utf8_prev(e->text, i);
}

/* The byte after the character at i. */
static size_t
char_after(const struct wline_edit *e, size_t i)
{
	if (i >= e->len)
		return e->len;
	do
		i++;
	while (i < e->len && cont_byte(e->text[i]));
	return i;
}

/* Removes bytes [from, to) and leaves the cursor at from. */
static void
cut(struct wline_edit *e, size_t from, size_t to)
{
	memmove(e->text + from, e->text + to, e->len - to + 1);
	e->len -= to - from;
	e->cursor = from;
}

/* Ctrl-W as a shell's: the blanks before the cursor, then back to the
 * previous '/' or blank, so a path loses one component at a time. */
static size_t
word_start(const struct wline_edit *e)
{
	size_t i = e->cursor;

	while (i > 0 && (e->text[i - 1] == ' ' || e->text[i - 1] == '/'))
		i--;
	while (i > 0 && e->text[i - 1] != ' ' && e->text[i - 1] != '/')
		i--;
	return i;
}

/* The UTF-8 bytes of code point cp (printable ASCII, or U+0100 …
 * U+10FFFF less surrogates: below that a key is a byte); 0 for one the
 * editor does not take. */
static size_t
encode(int cp, char out[4])
{
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0x100))
		return 0;
	return utf8_encode(cp, out);
}

static void
insert_bytes(struct wline_edit *e, const char *b, size_t n)
{
	if (e->len + n > WLINE_MAX)
		return;	/* full: the key is used, nothing added */
	e->text = xreallocarray(e->text, e->len + n + 1, 1);
	memmove(e->text + e->cursor + n, e->text + e->cursor,
	    e->len - e->cursor + 1);
	memcpy(e->text + e->cursor, b, n);
	e->cursor += n;
	e->len += n;
}

/* One byte of a UTF-8 character: kept until the character is whole,
 * then inserted; a byte that cannot be there drops what was kept. */
static void
byte(struct wline_edit *e, int b)
{
	if (b >= 0xc2 && b <= 0xf4) {
		e->pend[0] = (char)b;
		e->npend = 1;
		e->want = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
		return;
	}
	if (b > 0xbf || e->npend == 0) {
		e->npend = 0;
		return;
	}
	e->pend[e->npend++] = (char)b;
	if (e->npend == e->want) {
		insert_bytes(e, e->pend, e->npend);
		e->npend = 0;
	}
}

static bool
insert(struct wline_edit *e, int key)
{
	char b[4];
	size_t n;

	if (key >= 0x80 && key <= 0xff) {
		byte(e, key);
		return true;
	}
	n = encode(key, b);
	if (n == 0)
		return false;
	insert_bytes(e, b, n);
	return true;
}

bool
wline_key(struct wline_edit *e, int key)
{
	if (e->text == NULL)
		wline_set(e, "");
	if (key < 0x80 || key > 0xff)
		e->npend = 0;	/* a character's bytes come one after another */
	switch (key) {
	case WK_LEFT: case WK_CTRL('b'):
		e->cursor = char_before(e, e->cursor);
		return true;
	case WK_RIGHT: case WK_CTRL('f'):
		e->cursor = char_after(e, e->cursor);
		return true;
	case WK_HOME: case WK_CTRL('a'):
		e->cursor = 0;
		return true;
	case WK_END: case WK_CTRL('e'):
		e->cursor = e->len;
		return true;
	case WK_BACKSPACE: case WK_CTRL('h'):
		cut(e, char_before(e, e->cursor), e->cursor);
		return true;
	case WK_DELETE: case WK_CTRL('d'):
		cut(e, e->cursor, char_after(e, e->cursor));
		return true;
	case WK_CTRL('u'):
		cut(e, 0, e->cursor);
		return true;
	case WK_CTRL('k'):
		cut(e, e->cursor, e->len);
		return true;
	case WK_CTRL('w'):
		cut(e, word_start(e), e->cursor);
		return true;
	default:
		break;
	}
	return insert(e, key);
}

/* Columns of bytes [from, to): one per character (the field shows what
 * the editor types; wide characters are rare in a path). */
static size_t
columns(const char *t, size_t from, size_t to)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += !cont_byte(t[i]);
	return n;
}

void
wline_draw(const struct wline_edit *e, struct wscreen *s, int row, int col,
    int width, enum wslot slot, bool show_cursor)
{
	const char *t = e->text != NULL ? e->text : "";
	size_t cur = e->text != NULL ? e->cursor : 0, first = 0, len = strlen(t);
	int at;

	if (width < 2)
		return;
	/* Keep the cursor in the last column at most: the text scrolls
	 * left by whole characters as it grows. */
	while (show_cursor && columns(t, first, cur) >= (size_t)width) {
		first++;
		while (first < len && cont_byte(t[first]))
			first++;
	}
	wscreen_put(s, row, col, width, slot, t + first);
	if (show_cursor) {
		at = col + (int)columns(t, first, cur);
		/* An empty cell at the end still shows where typing goes. */
		if (cur == len)
			wscreen_put(s, row, at, 1, slot, " ");
		wscreen_paint(s, row, at, 1, WS_SELECTED);
	}
}
