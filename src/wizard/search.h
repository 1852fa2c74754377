/* The `/` search: the prompt it is typed in, the query found in the
 * document a page builds (to move the view there) and on the screen it
 * drew (to mark the matches). Case is ignored for ASCII letters. No
 * I/O; the wizard says what happened and moves the view. */
#ifndef CUDAWIZ_WIZARD_SEARCH_H
#define CUDAWIZ_WIZARD_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "wizard/doc.h"
#include "wizard/lineedit.h"
#include "wizard/screen.h"

struct wsearch {
	bool	typing;		/* the prompt is open: it takes every key */
	/* What is typed, with the Fix page's field keys (lineedit.h). */
	struct wline_edit prompt;
	char	query[256];	/* searched last; "" none */
	size_t	page;		/* the page it was searched on */
	int	match;		/* the line it was found at last there; -1 */
};

void	wsearch_free(struct wsearch *ws);
/* A key while the prompt is open: the line editor's keys; Esc
 * closes it; Enter closes it and returns true (search now: the prompt
 * is the query unless empty, when the last query is searched again). */
bool	wsearch_prompt_key(struct wsearch *ws, int key);
/* The next (dir > 0) or previous line of d holding the query, on page
 * `page` whose view starts at line `view`: from the last match when it
 * was on that page, else from the view (its first line too when
 * fresh), round the end once (*wrapped then true). -1: none. */
int	wsearch_next(struct wsearch *ws, const struct wdoc *d, size_t page,
	    int view, int dir, bool fresh, bool *wrapped);

/* The first line from `from` on (dir > 0) or back (dir < 0) whose text
 * holds q, not wrapping; -1 when there is none. */
int	wsearch_doc(const struct wdoc *d, const char *q, int from, int dir);
/* Gives every match of q in the rows of r the slot WS_SELECTED;
 * returns how many there were. */
int	wsearch_paint(struct wscreen *s, struct wrect r, const char *q);

#endif
