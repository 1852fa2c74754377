/* The abstract screen; see screen.h.
 *
 * Widths: one column per character, two for the East Asian wide and
 * emoji blocks, none for combining marks (kept with the character before
 * them). That is what terminals do for the text cudawiz shows (paths,
 * versions, messages); the locale's wcwidth() is not used, so the test
 * grid and a terminal agree whatever LC_ALL the tests run under. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "wizard/screen.h"

struct wscreen *
wscreen_new(int rows, int cols, bool utf8)
{
	struct wscreen *s = xcalloc(1, sizeof *s);

	s->rows = rows > 0 ? rows : 1;
	s->cols = cols > 0 ? cols : 1;
	s->utf8 = utf8;
	s->cells = xcalloc((size_t)s->rows * (size_t)s->cols, sizeof *s->cells);
	wscreen_clear(s);
	return s;
}

void
wscreen_free(struct wscreen *s)
{
	if (s == NULL)
		return;
	free(s->cells);
	free(s);
}

void
wscreen_clear(struct wscreen *s)
{
	wscreen_fill(s, (struct wrect){ 0, 0, s->rows, s->cols }, WS_NORMAL);
}

const struct wcell *
wscreen_cell(const struct wscreen *s, int row, int col)
{
	return &s->cells[(size_t)row * (size_t)s->cols + (size_t)col];
}

static struct wcell *
cell_at(struct wscreen *s, int row, int col)
{
	return &s->cells[(size_t)row * (size_t)s->cols + (size_t)col];
}

/* Decodes one UTF-8 character at p; *len gets its length. Returns the
 * code point, or -1 for a byte that does not start a valid sequence. */
static long
utf8_decode(const unsigned char *p, size_t *len)
{
	long cp;
	size_t n;

	if (p[0] < 0x80) {
		*len = 1;
		return p[0];
	}
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		*len = 1;
		return -1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*len = i;
			return -1;
		}
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	*len = n;
	/* Overlong forms, surrogates and values past Unicode are not text. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	return cp;
}

static bool
is_combining(long cp)
{
	return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
	    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) ||
	    (cp >= 0xfe20 && cp <= 0xfe2f) || cp == 0x200b || cp == 0x200d;
}

static bool
is_wide(long cp)
{
	return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
	    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
	    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
	    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
	    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

/* Columns a decoded character takes: 0, 1 or 2; invalid and control
 * characters take one (they show as '?'). */
static int
cp_width(long cp)
{
	if (cp < 0)
		return 1;
	if (is_combining(cp))
		return 0;
	return is_wide(cp) ? 2 : 1;
}

static bool
is_control(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

int
wtext_width(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	int w = 0;

	while (*p != '\0') {
		size_t len;
		long cp = utf8_decode(p, &len);

		w += cp_width(cp);
		p += len;
	}
	return w;
}

size_t
wtext_fit(const char *text, int maxw)
{
	const unsigned char *p = (const unsigned char *)text;
	int w = 0;

	while (*p != '\0') {
		size_t len;
		long cp = utf8_decode(p, &len);
		int cw = cp_width(cp);

		if (w + cw > maxw)
			break;
		w += cw;
		p += len;
	}
	return (size_t)(p - (const unsigned char *)text);
}

int
wscreen_put(struct wscreen *s, int row, int col, int maxw, enum wslot slot,
    const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	struct wcell *last = NULL;
	int used = 0;

	if (row < 0 || row >= s->rows || col < 0 || col >= s->cols)
		return 0;
	if (maxw > s->cols - col)
		maxw = s->cols - col;
	while (*p != '\0') {
		size_t len;
		long cp = utf8_decode(p, &len);
		int cw = cp_width(cp);
		struct wcell *c;

		if (cw == 0) {
			/* A combining mark joins the character before it
			 * when there is room; alone it is dropped. */
			if (last != NULL && s->utf8 &&
			    strlen(last->ch) + len < sizeof last->ch)
				strncat(last->ch, (const char *)p, len);
			p += len;
			continue;
		}
		if (used + cw > maxw)
			break;
		c = cell_at(s, row, col + used);
		c->slot = (unsigned char)slot;
		if (cp < 0 || is_control(cp) || (!s->utf8 && cp >= 0x80)) {
			/* Off UTF-8 a wide character still takes its two
			 * columns, as '?' and a blank. */
			strcpy(c->ch, "?");
			if (cw == 2) {
				struct wcell *r = cell_at(s, row, col + used + 1);

				strcpy(r->ch, " ");
				r->slot = (unsigned char)slot;
			}
		} else {
			memcpy(c->ch, p, len);
			c->ch[len] = '\0';
			if (cw == 2) {
				struct wcell *r = cell_at(s, row, col + used + 1);

				r->ch[0] = '\0';
				r->slot = (unsigned char)slot;
			}
		}
		last = c;
		used += cw;
		p += len;
	}
	return used;
}

void
wscreen_fill(struct wscreen *s, struct wrect r, enum wslot slot)
{
	for (int y = r.row; y < r.row + r.rows && y < s->rows; y++) {
		if (y < 0)
			continue;
		for (int x = r.col; x < r.col + r.cols && x < s->cols; x++) {
			struct wcell *c;

			if (x < 0)
				continue;
			c = cell_at(s, y, x);
			strcpy(c->ch, " ");
			c->slot = (unsigned char)slot;
		}
	}
}

void
wscreen_paint(struct wscreen *s, int row, int col, int n, enum wslot slot)
{
	if (row < 0 || row >= s->rows)
		return;
	for (int x = col < 0 ? 0 : col; x < col + n && x < s->cols; x++)
		cell_at(s, row, x)->slot = (unsigned char)slot;
}

void
wscreen_print(const struct wscreen *s, FILE *fp)
{
	for (int y = 0; y < s->rows; y++) {
		int end = s->cols;

		while (end > 0 && strcmp(wscreen_cell(s, y, end - 1)->ch, " ") == 0)
			end--;
		for (int x = 0; x < end; x++)
			fputs(wscreen_cell(s, y, x)->ch, fp);
		fputc('\n', fp);
	}
}

void
wscreen_print_slots(const struct wscreen *s, FILE *fp)
{
	/* One letter per slot, in enum order. */
	static const char letters[WS_COUNT + 1] = ".THDSKOIWEFB";

	for (int y = 0; y < s->rows; y++) {
		for (int x = 0; x < s->cols; x++)
			fputc(letters[wscreen_cell(s, y, x)->slot % WS_COUNT], fp);
		fputc('\n', fp);
	}
}
