/* direnv: an .envrc. direnv evaluates it in bash, starting each time
 * from the environment as it was outside the directory, and restores
 * that environment itself when the directory is left, so the script
 * only edits (sh.c's editing, no saved values, no deactivate function).
 * drop_missing is judged each time direnv loads it. */
#include "config.h"

#include "envscript/envscript_int.h"

int
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
	emit_header(&sb, pr, "#", version, "direnv allow",
	    "leave the directory (direnv restores the variables)", extra);
	sh_activate(&sb, pr, false);
	out->text = strbuf_take(&sb);
	return 0;
}
