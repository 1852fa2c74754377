/* conda: an activate.d script and a deactivate.d script, both sh, which
 * conda sources in bash, zsh and the other POSIX shells it supports (fish
 * and csh users of conda get no cudawiz script: conda sources only *.sh
 * there for POSIX shells).
 *
 * activate.d is the sh script itself (sh.c), so it also defines the
 * deactivate function; deactivate.d holds the same way back inline, so it
 * works even where the function was unset. conda sources deactivate.d
 * before it takes its own entries out of PATH, and activate.d after it
 * put them in, so the two nest correctly with conda's changes. */
#include "config.h"

#include <stdlib.h>

#include "envscript/sh.h"
#include "i18n.h"
#include "util/xalloc.h"

static int
render_conda(const struct prep *pr, const char *version, struct script_text *out,
    char **err)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const act_extra[] = {
		"conda sources this file when the environment is activated; the",
		"file of the same name in ../deactivate.d undoes it on deactivation.",
		"Sourcing it twice changes nothing more.",
		NULL
	};
	static const char *const deact_extra[] = {
		"cudawiz-conda: deactivate",
		"conda sources this file when the environment is deactivated: it",
		"restores the variables the activate.d script changed as they were",
		"before it ran (unset stays unset, empty stays empty).",
		NULL
	};

	(void)err;
	emit_header(&sb, pr, version, "conda activate ENV",
	    "conda deactivate", act_extra);
	sh_activate(&sb, pr, true);
	strbuf_printf(&sb, "\n# The way back, also run by deactivate.d.\n%s() {\n",
	    pr->deact);
	sh_restore_body(&sb, pr, "\t");
	strbuf_puts(&sb, "}\n");
	out->text = strbuf_take(&sb);
	emit_header(&sb, pr, version, "conda deactivate",
	    "conda activate ENV", deact_extra);
	sh_restore_body(&sb, pr, "");
	out->deactivate = strbuf_take(&sb);
	return 0;
}

static void
use(struct strbuf *sb, const struct script_writer *w,
    const struct script_use *u)
{
	(void)w;
	strbuf_printf(sb, _("and %s\nactivate:  conda activate (the environment)\n"
	    "undo:      conda deactivate\n"), u->deactivate);
}

const struct script_writer script_conda = {
	.name = "conda",
	.comment = "#",
	.render = render_conda,
	.use = use,
	.into_conda = true,
	.what = N_("activate.d and deactivate.d in a conda environment"),
	/* conda sources activate.d in sh syntax. */
	.run = { .progs = NULL, .want = "sh", .args = sh_run_args },
};
