/* What to type to use the script the Fix step wrote, and how to undo
 * it: the lines `cudawiz env -o FILE` prints (cmd_env.c's how_to_use),
 * with the same messages, so a user sees the same words in both. */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wizard/fix.h"

static void
module_lines(struct strbuf *sb, const char *path, enum script_format fmt)
{
	char *dir = xstrdup(path), *base = xstrdup(path);
	char *b = basename(base), *dot = strrchr(b, '.');

	if (fmt == SCRIPT_LMOD && dot != NULL && strcmp(dot, ".lua") == 0)
		*dot = '\0';
	strbuf_printf(sb, _("activate:  module use %s && module load %s\n"
	    "undo:      module unload %s\n"), dirname(dir), b, b);
	free(dir);
	free(base);
}

char *
wfix_howto(const struct wfix *fx)
{
	struct strbuf sb = STRBUF_INIT, q = STRBUF_INIT;
	char *out;
	size_t n;

	if (fx->w_path == NULL)
		return NULL;
	shquote(&q, fx->w_path);
	switch (fx->w_fmt) {
	case SCRIPT_SH:
	case SCRIPT_POWERSHELL:
		strbuf_printf(&sb, _("activate:  . %s\nundo:      %s\n"),
		    strbuf_str(&q), fx->w_undo);
		break;
	case SCRIPT_FISH:
	case SCRIPT_CSH:
		strbuf_printf(&sb, _("activate:  source %s\nundo:      %s\n"),
		    strbuf_str(&q), fx->w_undo);
		break;
	case SCRIPT_CONDA:
		strbuf_printf(&sb, _("and %s\nactivate:  conda activate (the "
		    "environment)\nundo:      conda deactivate\n"), fx->w_deactivate);
		break;
	case SCRIPT_LMOD:
	case SCRIPT_TCL:
		module_lines(&sb, fx->w_path, fx->w_fmt);
		break;
	case SCRIPT_DIRENV:
		strbuf_printf(&sb, _("activate:  direnv allow %s\nundo:      leave "
		    "the directory\n"), strbuf_str(&q));
		break;
	}
	strbuf_free(&q);
	out = strbuf_take(&sb);
	/* The messages end in a newline for a terminal; a page's lines do
	 * not. */
	n = strlen(out);
	if (n > 0 && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return out;
}
