/* The abstract screen; see screen.h.
 *
 * Widths: one column per character, two for the East Asian wide and
 * emoji blocks, none for combining marks (kept with the character before
 * them), as util/utf8width.c measures it for the text reports too. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8width.h"
#include "util/xalloc.h"
#include "wizard/screen.h"

struct wscreen *
wscreen_new(int rows, int cols, bool utf8)
{
	struct wscreen *s = xcalloc(1, sizeof *s);

	s->rows = rows < 1 ? 1 : rows > WSCREEN_MAX_ROWS ? WSCREEN_MAX_ROWS :
	    rows;
	s->cols = cols < 1 ? 1 : cols > WSCREEN_MAX_COLS ? WSCREEN_MAX_COLS :
	    cols;
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

static bool
is_control(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

int
wtext_width(const char *text)
{
	return utf8_width(text);
}

size_t
wtext_fit(const char *text, int maxw)
{
	const unsigned char *p = (const unsigned char *)text;
	int w = 0;

	while (*p != '\0') {
		size_t len;
		long cp = utf8_decode(p, &len);
		int cw = utf8_cp_width(cp);

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
		int cw = utf8_cp_width(cp);
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
