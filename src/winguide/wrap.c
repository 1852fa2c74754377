/* Wrapping for the guided mode's pages: at spaces, by display columns
 * (a CJK character is two), so translated text wraps as the English
 * does. A word longer than a line stays whole on its own line: it is a
 * path or a DLL's name, which a reader copies. */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/utf8width.h"
#include "winguide/guide.h"

/* One '\n'-free line of text, wrapped. Spaces between words are kept
 * (columns line up); where a line breaks they are dropped. */
static void
wrap_line(struct strbuf *sb, int width, int indent, int cont,
    const char *s, size_t len)
{
	int col = indent;
	bool empty = true;	/* no word on this line yet */
	size_t i = 0;

	strbuf_printf(sb, "%*s", indent, "");
	while (i < len) {
		size_t ss = i, ws, we;
		int w;

		while (i < len && s[i] == ' ')
			i++;
		if (i >= len)
			break;
		ws = i;
		while (i < len && s[i] != ' ')
			i++;
		we = i;
		w = utf8_width_n(s + ws, we - ws);
		if (!empty && col + (int)(ws - ss) + w > width) {
			strbuf_printf(sb, "\n%*s", cont, "");
			col = cont;
			empty = true;
		}
		if (empty)
			ss = ws;
		strbuf_add(sb, s + ss, we - ss);
		col += (int)(ws - ss) + w;
		empty = false;
	}
	strbuf_putc(sb, '\n');
}

void
wg_wrap(struct strbuf *sb, int width, int indent, int cont, const char *text)
{
	const char *p = text;

	if (width < 20)
		width = 20;
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);

		wrap_line(sb, width, indent, cont, p, len);
		if (nl == NULL || nl[1] == '\0')
			break;
		p = nl + 1;
	}
}
