/* A page's content as lines of text, wrapped to the body's width, and
 * the scrolling view over them. Pages build a doc from the report on
 * every draw (cheap, and it keeps layout a pure function of the size);
 * the view draws a window of it and moves through it on keys. */
#ifndef CUDAWIZ_WIZARD_DOC_H
#define CUDAWIZ_WIZARD_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "wizard/screen.h"

struct wline {
	char		*text;		/* owned */
	int		 indent;
	enum wslot	 slot;
	bool		 heading;	/* a Tab stop */
	int		 item;		/* the list entry it belongs to; -1 none */
	bool		 nowrap;	/* a command: never wrapped, scrolled */
};

struct wdoc {
	struct wline	*v;
	size_t		 n, cap;
	int		 width;		/* columns lines are wrapped to */
	int		 item;		/* the item new lines belong to; -1 */
};

void	wdoc_init(struct wdoc *d, int width);
void	wdoc_free(struct wdoc *d);

/* Adds text wrapped at spaces (a word longer than a line is cut where
 * the line ends): the first line indented by indent, the others by
 * cont. A '\n' in text starts a new line. */
void	wdoc_text(struct wdoc *d, int indent, int cont, enum wslot slot,
	    const char *text);
void	wdoc_textf(struct wdoc *d, int indent, int cont, enum wslot slot,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Each '\n'-separated line of text as its own paragraph (wrapped as
 * wdoc_text, the first line of each at indent): for text whose lines
 * are lines already (a script, commands to paste). A final '\n' adds
 * no empty line. */
void	wdoc_lines(struct wdoc *d, int indent, int cont, enum wslot slot,
	    const char *text);
/* Each '\n'-separated line of text as one line that is never wrapped:
 * commands and scripts, which must paste as they are. A line wider
 * than the view is drawn from the view's horizontal offset, with ‹ and
 * › where it is cut (wdoc_draw_h, wdoc_hscroll_key). */
void	wdoc_command(struct wdoc *d, int indent, enum wslot slot,
	    const char *text);
/* A heading, with a blank line before it unless it comes first. */
void	wdoc_heading(struct wdoc *d, const char *text);
void	wdoc_blank(struct wdoc *d);
/* "label      value": the value starts at column indent + labelw (on the
 * next line when the label is longer) and wraps under itself. */
void	wdoc_kv(struct wdoc *d, int indent, int labelw, const char *label,
	    enum wslot slot, const char *value);

/* What a view showed: the first line, how many, of how many. */
struct wview {
	int	first, shown, total;
};

/* The first line to show for scroll, kept in range for rows. */
int		wdoc_clamp(const struct wdoc *d, int rows, int scroll);
/* Draws from line scroll (clamped) into r; lines of item sel (>= 0) are
 * shown selected across the whole width. */
struct wview	wdoc_draw(const struct wdoc *d, struct wscreen *s,
		    struct wrect r, int scroll, int sel);
/* As wdoc_draw, with unwrapped lines shifted hscroll columns left. */
struct wview	wdoc_draw_h(const struct wdoc *d, struct wscreen *s,
		    struct wrect r, int scroll, int sel, int hscroll);
/* How far unwrapped lines can scroll left in a view cols wide: 0 when
 * every line fits. */
int		wdoc_hscroll_max(const struct wdoc *d, int cols);
/* Moves *hscroll for Left/Right (and h/l) when some line is wider than
 * cols; false otherwise, so the key keeps its other meaning. */
bool		wdoc_hscroll_key(const struct wdoc *d, int cols, int *hscroll,
		    int key);
/* Moves *scroll for a scrolling key (arrows, j/k, PgUp/PgDn, Home/End,
 * Tab/Shift-Tab to the next or previous heading) in a view rows high.
 * Returns false for a key it does not handle. */
bool		wdoc_scroll_key(const struct wdoc *d, int rows, int *scroll,
		    int key);
/* The first and last line of an item; false when it has none. */
bool		wdoc_item_lines(const struct wdoc *d, int item, int *first,
		    int *last);

#endif
