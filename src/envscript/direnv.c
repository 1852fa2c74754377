/* direnv: an .envrc. direnv evaluates it in bash, starting each time
 * from the environment as it was outside the directory, and restores
 * that environment itself when the directory is left, so the script
 * only edits (sh.c's editing, no saved values, no deactivate function).
 * drop_missing is judged each time direnv loads it. */
#include "config.h"

#include "envscript/sh.h"
#include "i18n.h"

static int
render_direnv(const struct prep *pr, const char *version,
    struct script_text *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const extra[] = {
		"direnv runs it in bash when you enter this directory and puts the",
		"variables back as they were when you leave it.",
		NULL
	};

	(void)err;
	emit_header(&sb, pr, version, "direnv allow",
	    "leave the directory (direnv restores the variables)", extra);
	sh_activate(&sb, pr, false);
	out->text = strbuf_take(&sb);
	return 0;
}

static void
use(struct strbuf *sb, const struct script_writer *w,
    const struct script_use *u)
{
	struct strbuf src = STRBUF_INIT;

	source_word(&src, w, u->path);
	strbuf_printf(sb, _("activate:  %s\nundo:      leave the directory\n"),
	    strbuf_str(&src));
	strbuf_free(&src);
}

static const char *const aliases[] = { "envrc", NULL };
static const char *const run_progs[] = { "bash", NULL };

const struct script_writer script_direnv = {
	.name = "direnv",
	.aliases = aliases,
	.comment = "#",
	.render = render_direnv,
	/* direnv is a program: its argument in sh quoting. */
	.source_verb = "direnv allow ",
	.quote = sh_quote_word,
	.use = use,
	.what = N_("a direnv .envrc"),
	.file = "./.envrc",
	.file_name = ".envrc",
	/* direnv evaluates .envrc in bash. */
	.run = { .progs = run_progs, .want = "bash", .argv0 = "bash",
	    .args = sh_run_args },
};
