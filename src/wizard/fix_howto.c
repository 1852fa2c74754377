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

/* `module` is a shell function or alias: its arguments in sh quoting,
 * so a blank in the directory stays in it (as cmd_env.c prints them). */
static void
module_lines(struct strbuf *sb, const char *path, enum script_format fmt)
{
	char *dir = xstrdup(path), *base = xstrdup(path);
	char *b = basename(base), *dot = strrchr(b, '.');
	struct strbuf qd = STRBUF_INIT, qb = STRBUF_INIT;

	if (fmt == SCRIPT_LMOD && dot != NULL && strcmp(dot, ".lua") == 0)
		*dot = '\0';
	shquote(&qd, dirname(dir));
	shquote(&qb, b);
	strbuf_printf(sb, _("activate:  module use %s && module load %s\n"
	    "undo:      module unload %s\n"), strbuf_str(&qd),
	    strbuf_str(&qb), strbuf_str(&qb));
	strbuf_free(&qd);
	strbuf_free(&qb);
	free(dir);
	free(base);
}

char *
wfix_howto(const struct wfix *fx)
{
	struct strbuf sb = STRBUF_INIT;
	char *out, *src;
	size_t n;

	if (fx->w_path == NULL)
		return NULL;
	switch (fx->w_fmt) {
	case SCRIPT_SH:
	case SCRIPT_POWERSHELL:
	case SCRIPT_FISH:
	case SCRIPT_CSH:
		/* Each shell's own quoting, and "./" before a relative name:
		 * `. name` in dash, zsh and ksh searches PATH, and a name
		 * starting with '-' would be an option. */
		src = script_source_cmd(fx->w_fmt, fx->w_path);
		strbuf_printf(&sb, _("activate:  %s\nundo:      %s\n"), src,
		    fx->w_undo);
		free(src);
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
		src = script_source_cmd(fx->w_fmt, fx->w_path);
		strbuf_printf(&sb, _("activate:  %s\nundo:      leave the "
		    "directory\n"), src);
		free(src);
		break;
	}
	out = strbuf_take(&sb);
	/* The messages end in a newline for a terminal; a page's lines do
	 * not. */
	n = strlen(out);
	if (n > 0 && out[n - 1] == '\n')
		out[n - 1] = '\0';
	return out;
}
