/* Wrapped lines and the scrolling view; see doc.h. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "wizard/doc.h"
#include "wizard/keys.h"

void
wdoc_init(struct wdoc *d, int width)
{
	*d = (struct wdoc){ .width = width > 8 ? width : 8, .item = -1 };
}

void
wdoc_free(struct wdoc *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].text);
	free(d->v);
	*d = (struct wdoc){ 0 };
}

static struct wline *
add_line(struct wdoc *d, int indent, enum wslot slot, const char *text,
    size_t len)
{
	struct wline *l = VEC_PUSH(d);

	l->text = xstrndup(text, len);
	l->indent = indent;
	l->slot = slot;
	l->item = d->item;
	return l;
}

/* The bytes of one paragraph (no '\n') that make the next line in avail
 * columns: up to the last space that fits, or as much as fits. *skip
 * gets how many bytes the line consumes (the space it broke at too). */
static size_t
line_break(const char *p, size_t len, int avail, size_t *skip)
{
	size_t fit, cut;
	char *tmp;

	tmp = xstrndup(p, len);
	fit = wtext_fit(tmp, avail);
	free(tmp);
	if (fit >= len) {
		*skip = len;
		return len;
	}
	cut = fit;
	while (cut > 0 && p[cut] != ' ')
		cut--;
	if (cut > 0) {
		/* A word that fills a whole line by itself (a long path
		 * after a bullet) is cut here rather than moved down,
		 * which would leave this line all but empty. */
		size_t word = strcspn(p + cut + 1, " ");

		if (word > len - cut - 1)
			word = len - cut - 1;
		tmp = xstrndup(p + cut + 1, word);
		if (wtext_fit(tmp, avail) < word)
			cut = 0;
		free(tmp);
	}
	if (cut == 0) {
		/* One word longer than the line: a path, cut where it must. */
		if (fit == 0)
			fit = 1;
		*skip = fit;
		return fit;
	}
	*skip = cut + 1;
	return cut;
}

void
wdoc_text(struct wdoc *d, int indent, int cont, enum wslot slot,
    const char *text)
{
	const char *p = text;
	bool first = true;

	do {
		size_t para = strcspn(p, "\n");
		bool para_first = true;

		while (para > 0 || para_first) {
			int in = first ? indent : cont;
			int avail = d->width - in;
			size_t take, skip;

			if (avail < 1)
				avail = 1;
			take = line_break(p, para, avail, &skip);
			add_line(d, in, slot, p, take);
			p += skip;
			para -= skip;
			first = false;
			para_first = false;
			/* Blanks left at a break would indent the next line. */
			while (para > 0 && *p == ' ') {
				p++;
				para--;
			}
		}
		if (*p == '\n')
			p++;
		else
			break;
	} while (1);
}

void
wdoc_textf(struct wdoc *d, int indent, int cont, enum wslot slot,
    const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	wdoc_text(d, indent, cont, slot, s);
	free(s);
}

void
wdoc_lines(struct wdoc *d, int indent, int cont, enum wslot slot,
    const char *text)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);

		wdoc_text(d, indent, cont, slot, line);
		free(line);
		p += n;
		if (*p == '\n')
			p++;
	}
}

void
wdoc_command(struct wdoc *d, int indent, enum wslot slot, const char *text)
{
	const char *p = text;

	while (*p != '\0') {
		size_t n = strcspn(p, "\n");

		add_line(d, indent, slot, p, n)->nowrap = true;
		p += n;
		if (*p == '\n')
			p++;
	}
}

void
wdoc_blank(struct wdoc *d)
{
	add_line(d, 0, WS_NORMAL, "", 0);
}

void
wdoc_heading(struct wdoc *d, const char *text)
{
	if (d->n > 0)
		wdoc_blank(d);
	add_line(d, 0, WS_HEADING, text, strlen(text))->heading = true;
}

void
wdoc_kv(struct wdoc *d, int indent, int labelw, const char *label,
    enum wslot slot, const char *value)
{
	int lw = wtext_width(label);
	char *line;

	if (lw >= labelw) {
		wdoc_text(d, indent, indent, slot, label);
		wdoc_text(d, indent + labelw, indent + labelw, slot, value);
		return;
	}
	/* Label and the start of the value on one line: pad the label so
	 * the value lines up with its continuation lines. */
	line = xasprintf("%s%*s%s", label, labelw - lw, "", value);
	wdoc_text(d, indent, indent + labelw, slot, line);
	free(line);
}

int
wdoc_clamp(const struct wdoc *d, int rows, int scroll)
{
	int max = (int)d->n - rows;

	if (max < 0)
		max = 0;
	if (scroll > max)
		scroll = max;
	return scroll < 0 ? 0 : scroll;
}

int
wdoc_hscroll_max(const struct wdoc *d, int cols)
{
	int max = 0;

	for (size_t i = 0; i < d->n; i++) {
		int over;

		if (!d->v[i].nowrap)
			continue;
		over = d->v[i].indent + wtext_width(d->v[i].text) - cols;
		if (over > max)
			max = over;
	}
	/* One more column for the › that marked the cut. */
	return max > 0 ? max + 1 : 0;
}

bool
wdoc_hscroll_key(const struct wdoc *d, int cols, int *hscroll, int key)
{
	int max = wdoc_hscroll_max(d, cols), step = cols / 4 > 4 ? cols / 4 : 4;
	int h = *hscroll;

	if (max == 0)
		return false;
	if (key == WK_RIGHT || key == 'l')
		h += step;
	else if (key == WK_LEFT || key == 'h')
		h -= step;
	else
		return false;
	*hscroll = h > max ? max : h < 0 ? 0 : h;
	return true;
}

/* An unwrapped line from column hscroll, with ‹ and › where it is cut. */
static void
draw_nowrap(struct wscreen *s, int row, int col, int avail, enum wslot slot,
    const char *text, int hscroll)
{
	const char *lm = s->utf8 ? "‹" : "<", *rm = s->utf8 ? "›" : ">";
	const char *p = text;
	int w;

	if (avail < 3) {
		wscreen_put(s, row, col, avail, slot, text);
		return;
	}
	if (hscroll > 0) {
		/* Skip whole characters: a wide one cut in half is skipped. */
		size_t skip = wtext_fit(text, hscroll);

		p = text + skip;
		if (wtext_width(text) - hscroll <= 0) {
			wscreen_put(s, row, col, 1, WS_DIM, lm);
			return;
		}
		wscreen_put(s, row, col, 1, WS_DIM, lm);
		col++;
		avail--;
	}
	w = wtext_width(p);
	if (w <= avail) {
		wscreen_put(s, row, col, avail, slot, p);
		return;
	}
	wscreen_put(s, row, col, avail - 1, slot, p);
	wscreen_put(s, row, col + avail - 1, 1, WS_DIM, rm);
}

struct wview
wdoc_draw(const struct wdoc *d, struct wscreen *s, struct wrect r, int scroll,
    int sel)
{
	return wdoc_draw_h(d, s, r, scroll, sel, 0);
}

struct wview
wdoc_draw_h(const struct wdoc *d, struct wscreen *s, struct wrect r,
    int scroll, int sel, int hscroll)
{
	struct wview v = { wdoc_clamp(d, r.rows, scroll), 0, (int)d->n };

	for (int y = 0; y < r.rows && v.first + y < (int)d->n; y++) {
		const struct wline *l = &d->v[v.first + y];
		bool selected = sel >= 0 && l->item == sel;
		enum wslot slot = selected ? WS_SELECTED : l->slot;

		if (selected)
			wscreen_fill(s, (struct wrect){ r.row + y, r.col, 1, r.cols },
			    WS_SELECTED);
		if (l->nowrap)
			draw_nowrap(s, r.row + y, r.col + l->indent,
			    r.cols - l->indent, slot, l->text, hscroll);
		else
			wscreen_put(s, r.row + y, r.col + l->indent,
			    r.cols - l->indent, slot, l->text);
		v.shown++;
	}
	return v;
}

static int
next_heading(const struct wdoc *d, int from, int dir)
{
	for (int i = from + dir; i >= 0 && i < (int)d->n; i += dir)
		if (d->v[i].heading)
			return i;
	return -1;
}

bool
wdoc_scroll_key(const struct wdoc *d, int rows, int *scroll, int key)
{
	int s = wdoc_clamp(d, rows, *scroll), page = rows > 1 ? rows - 1 : 1, h;

	switch (key) {
	case WK_UP: case 'k':
		s--;
		break;
	case WK_DOWN: case 'j':
		s++;
		break;
	case WK_PGUP:
		s -= page;
		break;
	case WK_PGDN: case ' ':
		s += page;
		break;
	case WK_HOME: case 'g':
		s = 0;
		break;
	case WK_END: case 'G':
		s = (int)d->n;
		break;
	case WK_TAB:
		h = next_heading(d, s, 1);
		if (h >= 0)
			s = h;
		break;
	case WK_BTAB:
		h = next_heading(d, s, -1);
		s = h >= 0 ? h : 0;
		break;
	default:
		return false;
	}
	*scroll = wdoc_clamp(d, rows, s);
	return true;
}

bool
wdoc_item_lines(const struct wdoc *d, int item, int *first, int *last)
{
	*first = *last = -1;
	for (int i = 0; i < (int)d->n; i++) {
		if (d->v[i].item != item)
			continue;
		if (*first < 0)
			*first = i;
		*last = i;
	}
	return *first >= 0;
}
