/* The abstract screen every wizard page draws into: rows × cols cells,
 * each one character of UTF-8 text and a semantic slot (colour or, in
 * monochrome, an attribute; term.c decides which). The same drawing
 * code fills it for ncurses (term.c copies it out) and for the golden
 * screen tests (printed as text), so what the tests see is what a
 * terminal shows. Pure: no curses, no I/O. */
#ifndef CUDAWIZ_WIZARD_SCREEN_H
#define CUDAWIZ_WIZARD_SCREEN_H

#include <stdbool.h>
#include <stdio.h>

/* Semantic slots: what a cell means, never which colour it is. */
enum wslot {
	WS_NORMAL = 0,
	WS_TITLE,	/* the title bar */
	WS_HEADING,	/* a section heading inside a page */
	WS_DIM,		/* secondary text: sources, hints */
	WS_SELECTED,	/* the list entry under the cursor */
	WS_KEY,		/* a key name in hints and help */
	WS_OK,
	WS_INFO,
	WS_WARNING,
	WS_ERROR,
	WS_FRAME,
	WS_STATUS,	/* the key hint line at the bottom */
	WS_COUNT
};

/* A cell: one character (up to 4 bytes of UTF-8, a combining mark may
 * follow); "" for the right half of a double-width character. */
struct wcell {
	char		ch[12];
	unsigned char	slot;
};

struct wrect {
	int	row, col, rows, cols;
};

struct wscreen {
	int		 rows, cols;
	bool		 utf8;	/* false: every non-ASCII character shows as '?' */
	struct wcell	*cells;	/* rows * cols, row-major; owned */
};

/* The largest grid: a terminal reporting more (a 5000x5000 window
 * would take hundreds of megabytes of cells) gets the top-left
 * WSCREEN_MAX_ROWS x WSCREEN_MAX_COLS part drawn and the rest left
 * blank; no page needs more. */
#define WSCREEN_MAX_ROWS 500
#define WSCREEN_MAX_COLS 1000

/* A blank grid of rows x cols, each clamped to 1..WSCREEN_MAX_*: read
 * s->rows and s->cols for the size it has. */
struct wscreen	*wscreen_new(int rows, int cols, bool utf8);
void		 wscreen_free(struct wscreen *s);
/* Blanks every cell to WS_NORMAL. */
void		 wscreen_clear(struct wscreen *s);
const struct wcell *wscreen_cell(const struct wscreen *s, int row, int col);

/* Writes text at (row, col), at most maxw columns and never past the
 * right edge; control characters and bytes that are not UTF-8 show as
 * '?'. Returns the columns written. */
int	wscreen_put(struct wscreen *s, int row, int col, int maxw,
	    enum wslot slot, const char *text);
/* Blanks a rectangle to slot. */
void	wscreen_fill(struct wscreen *s, struct wrect r, enum wslot slot);
/* Gives n cells from (row, col) the slot, keeping their text. */
void	wscreen_paint(struct wscreen *s, int row, int col, int n,
	    enum wslot slot);
/* Prints the screen as text, one line per row, trailing blanks cut. */
void	wscreen_print(const struct wscreen *s, FILE *fp);
/* Prints one letter per cell for its slot ('.' normal), for tests. */
void	wscreen_print_slots(const struct wscreen *s, FILE *fp);

/* Columns text takes as wscreen_put draws it (utf8 true). */
int	wtext_width(const char *text);
/* Bytes of text that fit in maxw columns, never splitting a character. */
size_t	wtext_fit(const char *text, int maxw);

#endif
