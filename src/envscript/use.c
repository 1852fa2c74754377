/* How a written script is used, for the rows whose formats are used
 * alike: the lines that tell a person how to use and undo it (a format
 * used its own way, conda or direnv, has its lines in its own file),
 * and how env --check loads a modulefile. Here once, so `cudawiz env -o`
 * and the wizard say the same words. */
#include "config.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "envscript/common.h"
#include "i18n.h"
#include "util/xalloc.h"

void
source_word(struct strbuf *sb, const struct script_writer *w,
    const char *path)
{
	static const char bare[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	    "./_+-";
	struct strbuf p = STRBUF_INIT;

	strbuf_puts(sb, w->source_verb);
	/* "./" before any relative path (also "dir/x": one rule, and a
	 * "-dir/x" is no option either). */
	if (path[0] != '/' && strncmp(path, "./", 2) != 0 &&
	    strncmp(path, "../", 3) != 0)
		strbuf_puts(&p, "./");
	strbuf_puts(&p, path);
	/* Bare when no shell gives any of its characters a meaning (it
	 * starts with '/' or '.', so not '-' or '~' either). */
	if (strspn(strbuf_str(&p), bare) == p.len)
		strbuf_puts(sb, strbuf_str(&p));
	else
		(void)w->quote(sb, strbuf_str(&p));
	strbuf_free(&p);
}

void
use_source(struct strbuf *sb, const struct script_writer *w,
    const struct script_use *u)
{
	struct strbuf src = STRBUF_INIT;

	/* Each shell's own quoting, and "./" before a relative name:
	 * `. name` in dash, zsh and ksh searches PATH, and a name starting
	 * with '-' would be an option. */
	source_word(&src, w, u->path);
	strbuf_printf(sb, _("activate:  %s\nundo:      %s\n"), strbuf_str(&src),
	    u->undo);
	strbuf_free(&src);
}

void
use_module(struct strbuf *sb, const struct script_writer *w,
    const struct script_use *u)
{
	char *dir = xstrdup(u->path), *base = xstrdup(u->path);
	char *b = basename(base), *dot = strrchr(b, '.');
	struct strbuf qd = STRBUF_INIT, qb = STRBUF_INIT;

	if (w->module_ext != NULL && dot != NULL &&
	    strcmp(dot, w->module_ext) == 0)
		*dot = '\0';
	/* `module` is a shell function or alias: its arguments in sh
	 * quoting, so a blank in the directory stays in it. */
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

const char *const module_run_args[] = {
	"-c", ". \"$CW_INIT\" || exit 97; module use \"$CW_DIR\" "
	    "&& module load \"$CW_NAME\" || exit 97; printf '\\n%s\\n' "
	    "\"$CW_MARK\"; exec env -0",
	NULL
};
