/* What to type to use the script the Fix step wrote, and how to undo
 * it: the lines `cudawiz env -o FILE` prints, from the same place
 * (script_use_lines), so a user sees the same words in both. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/writer.h"
#include "util/strbuf.h"
#include "wizard/fix.h"

char *
wfix_howto(const struct wfix *fx)
{
	struct script_use u = { fx->w_path, fx->w_deactivate, fx->w_undo };
	char *out;
	size_t n;

	if (fx->w_path == NULL)
		return NULL;
	out = script_use_lines(fx->w_fmt, &u);
	/* The lines end in a newline for a terminal; a page's lines do
	 * not. */
	n = strlen(out);
	if (n > 0 && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return out;
}

char *
wfix_activate_line(const struct wfix *fx)
{
	const struct script_writer *w;
	struct strbuf sb = STRBUF_INIT;

	if (fx->w_path == NULL)
		return NULL;
	w = script_writer(fx->w_fmt);
	if (w->source_verb == NULL || w->quote == NULL)
		return NULL;
	strbuf_puts(&sb, w->source_verb);
	if (w->quote(&sb, fx->w_path) != 0) {
		strbuf_free(&sb);
		return NULL;
	}
	return strbuf_take(&sb);
}
