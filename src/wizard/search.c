/* The `/` search's matching; see search.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "util/utf8width.h"
#include "util/xalloc.h"
#include "wizard/keys.h"
#include "wizard/search.h"

void
wsearch_free(struct wsearch *ws)
{
	wline_free(&ws->prompt);
}

bool
wsearch_prompt_key(struct wsearch *ws, int key)
{
	size_t n;

	if (ws->prompt.text == NULL)
		wline_set(&ws->prompt, "");
	switch (key) {
	case WK_ESC:
		ws->typing = false;
		break;
	case WK_ENTER:
		ws->typing = false;
		n = ws->prompt.len;
		if (n > 0) {
			/* A longer query is cut between two characters. */
			if (n >= sizeof ws->query)
				n = utf8_prev(ws->prompt.text, sizeof ws->query);
			memcpy(ws->query, ws->prompt.text, n);
			ws->query[n] = '\0';
			ws->match = -1;
		}
		return true;
	default:
		(void)wline_key(&ws->prompt, key);
		break;
	}
	return false;
}

int
wsearch_doc(const struct wdoc *d, const char *q, int from, int dir)
{
	if (q == NULL || q[0] == '\0')
		return -1;
	for (int i = from; i >= 0 && i < (int)d->n; i += dir > 0 ? 1 : -1)
		if (strcasestr(d->v[i].text, q) != NULL)
			return i;
	return -1;
}

int
wsearch_next(struct wsearch *ws, const struct wdoc *d, size_t page, int view,
    int dir, bool fresh, bool *wrapped)
{
	int from, line;

	*wrapped = false;
	if (fresh || ws->page != page || ws->match < 0)
		from = view + (fresh || dir > 0 ? 0 : -1);
	else
		from = ws->match + (dir > 0 ? 1 : -1);
	ws->page = page;
	line = wsearch_doc(d, ws->query, from, dir);
	if (line < 0) {
		line = wsearch_doc(d, ws->query, dir > 0 ? 0 : (int)d->n - 1, dir);
		*wrapped = line >= 0;
	}
	if (line >= 0)
		ws->match = line;
	return line;
}

/* One row of the screen inside r as text, with the column each byte
 * starts in (col[len] is the column after the last cell). */
static char *
row_text(const struct wscreen *s, struct wrect r, int row, int **col)
{
	size_t cap = (size_t)r.cols * sizeof ((struct wcell *)0)->ch + 1, n = 0;
	char *t = xmalloc(cap);

	*col = xreallocarray(NULL, cap, sizeof **col);
	for (int x = 0; x < r.cols; x++) {
		const struct wcell *c = wscreen_cell(s, row, r.col + x);
		size_t len = strlen(c->ch);

		/* A wide character's right half adds no bytes. */
		for (size_t k = 0; k < len; k++) {
			(*col)[n] = x;
			t[n++] = c->ch[k];
		}
	}
	(*col)[n] = r.cols;
	t[n] = '\0';
	return t;
}

int
wsearch_paint(struct wscreen *s, struct wrect r, const char *q)
{
	size_t ql = q != NULL ? strlen(q) : 0;
	int found = 0;

	if (ql == 0)
		return 0;
	for (int y = 0; y < r.rows; y++) {
		int *col;
		char *t = row_text(s, r, r.row + y, &col);
		const char *p = t;

		while ((p = strcasestr(p, q)) != NULL) {
			size_t at = (size_t)(p - t);

			wscreen_paint(s, r.row + y, r.col + col[at],
			    col[at + ql] - col[at], WS_SELECTED);
			found++;
			p += ql;
		}
		free(t);
		free(col);
	}
	return found;
}
