/* POSIX sh: bash, zsh, dash, ksh (mksh, ksh93).
 *
 * The path lists are edited by a small function embedded in the script,
 * written for the common ground of those shells: no arrays, no `local`,
 * no word splitting (zsh does none), only parameter expansion and case,
 * every expansion quoted, and no command that can fail, so a user's
 * `set -u` or `set -e` does not break it. Its temporaries and the
 * function itself are unset before the script ends. Paths are always in
 * single quotes, where sh gives no character a meaning, so spaces,
 * quotes, `$(...)`, backticks, backslashes, newlines and UTF-8 are data.
 *
 * The values before the first activation are kept in unexported shell
 * variables _cudawiz_<ident>_had_<VAR> (1 when it was set) and
 * _cudawiz_<ident>_old_<VAR>; a second sourcing keeps them and edits the
 * variables again, which changes nothing (every edit is idempotent), so
 * the way back still restores the environment of before the first. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/sh.h"
#include "i18n.h"
#include "util/xalloc.h"

/* The part of _cudawiz_pathedit that sh and csh scripts share (csh's
 * runs it in sh too): it collects the new list in _cwz_new. No '!' (csh
 * would expand it inside its quotes) and no line ending in a backslash. */
const char sh_pathedit_collect[] =
"\t_cwz_name=$1 _cwz_flags=$2 _cwz_n=$3\n"
"\tshift 3\n"
"\t_cwz_new= _cwz_i=0\n"
"\tfor _cwz_x do\n"
"\t\tif [ \"$_cwz_i\" -ge \"$_cwz_n\" ]; then break; fi\n"
"\t\t_cwz_new=$_cwz_new:$_cwz_x\n"
"\t\t_cwz_i=$((_cwz_i + 1))\n"
"\tdone\n"
"\teval \"_cwz_rest=\\${$_cwz_name-}\"\n"
"\tif [ -n \"$_cwz_rest\" ]; then _cwz_rest=$_cwz_rest:; fi\n"
"\twhile [ -n \"$_cwz_rest\" ]; do\n"
"\t\t_cwz_e=${_cwz_rest%%:*}\n"
"\t\t_cwz_rest=${_cwz_rest#*:}\n"
"\t\t_cwz_k=${_cwz_e%/}\n"
"\t\tcase $_cwz_e in '') continue ;; esac\n"
"\t\tcase $_cwz_flags in *s*)\n"
"\t\t\tcase $_cwz_k in stubs|*/stubs) continue ;; esac ;;\n"
"\t\tesac\n"
"\t\tcase $_cwz_flags in *m*)\n"
"\t\t\tif [ -d \"$_cwz_e\" ]; then :; else continue; fi ;;\n"
"\t\tesac\n"
"\t\tfor _cwz_x do\n"
"\t\t\tcase $_cwz_k in \"${_cwz_x%/}\") continue 2 ;; esac\n"
"\t\tdone\n"
"\t\t_cwz_new=$_cwz_new:$_cwz_e\n"
"\tdone\n"
"\t_cwz_new=${_cwz_new#:}\n";

static const char pathedit_head[] =
"# _cudawiz_pathedit NAME FLAGS COUNT ENTRY...: NAME becomes the first\n"
"# COUNT ENTRYs, then its old entries that are not empty, not one of the\n"
"# ENTRYs (compared without one trailing '/'), not a stubs directory\n"
"# (FLAGS has s) and existing directories (FLAGS has m). With no entry\n"
"# left, NAME is unset.\n"
"_cudawiz_pathedit() {\n";

static const char pathedit_tail[] =
"\tif [ -n \"$_cwz_new\" ]; then\n"
"\t\teval \"$_cwz_name=\\$_cwz_new; export $_cwz_name\"\n"
"\telse\n"
"\t\tunset \"$_cwz_name\"\n"
"\tfi\n"
"\tunset _cwz_name _cwz_flags _cwz_n _cwz_new _cwz_i _cwz_x _cwz_rest \\\n"
"\t    _cwz_e _cwz_k\n"
"}\n";

static bool
pv_touched(const struct prep *pr)
{
	return pr->pv[0].touched || pr->pv[1].touched;
}

void
sh_activate(struct strbuf *sb, const struct prep *pr, bool save)
{
	const char *id = pr->ident;

	if (save) {
		strbuf_puts(sb, "# Keep the values of before the first activation "
		    "for the way back.\n");
		strbuf_printf(sb, "if [ -z \"${_cudawiz_%s_active-}\" ]; then\n", id);
		for (int i = 0; i < 4; i++) {
			const char *n = i < 2 ? pr->pv[i].name : pr->var[i - 2].name;

			if (i < 2 ? !pr->pv[i].touched :
			    pr->var[i - 2].v->op == PLAN_VAR_KEEP)
				continue;
			strbuf_printf(sb, "\t_cudawiz_%s_had_%s=${%s+1}\n", id, n, n);
			strbuf_printf(sb, "\t_cudawiz_%s_old_%s=${%s-}\n", id, n, n);
		}
		strbuf_printf(sb, "\t_cudawiz_%s_active=1\nfi\n\n", id);
	}
	if (pv_touched(pr)) {
		strbuf_puts(sb, pathedit_head);
		strbuf_puts(sb, sh_pathedit_collect);
		strbuf_puts(sb, pathedit_tail);
		for (int i = 0; i < 2; i++) {
			const struct pv_prep *pp = &pr->pv[i];

			if (!pp->touched)
				continue;
			strbuf_printf(sb, "_cudawiz_pathedit %s '%s%s' %zu", pp->name,
			    pp->stubs ? "s" : "", pp->missing ? "m" : "",
			    pp->prepend.n);
			for (int l = 0; l < 2; l++) {
				const struct strv *v = l == 0 ? &pp->prepend : &pp->remove;

				for (size_t j = 0; j < v->n; j++) {
					strbuf_puts(sb, " \\\n    ");
					shquote_always(sb, v->v[j]);
				}
			}
			strbuf_putc(sb, '\n');
		}
		strbuf_puts(sb, "unset -f _cudawiz_pathedit\n");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(sb, "%s=", vp->name);
			shquote_always(sb, vp->v->value);
			strbuf_printf(sb, "; export %s\n", vp->name);
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(sb, "unset %s\n", vp->name);
		}
	}
}

void
sh_restore_body(struct strbuf *sb, const struct prep *pr, const char *in)
{
	const char *id = pr->ident;

	strbuf_printf(sb, "%sif [ -n \"${_cudawiz_%s_active-}\" ]; then\n", in, id);
	for (int i = 0; i < 4; i++) {
		const char *n = i < 2 ? pr->pv[i].name : pr->var[i - 2].name;

		if (i < 2 ? !pr->pv[i].touched :
		    pr->var[i - 2].v->op == PLAN_VAR_KEEP)
			continue;
		strbuf_printf(sb, "%s\tif [ -n \"${_cudawiz_%s_had_%s-}\" ]; then\n"
		    "%s\t\t%s=$_cudawiz_%s_old_%s; export %s\n"
		    "%s\telse\n%s\t\tunset %s\n%s\tfi\n", in, id, n, in, n, id, n, n,
		    in, in, n, in);
		strbuf_printf(sb, "%s\tunset _cudawiz_%s_had_%s _cudawiz_%s_old_%s\n",
		    in, id, n, id, n);
	}
	strbuf_printf(sb, "%s\tunset _cudawiz_%s_active\n%sfi\n", in, id, in);
	strbuf_printf(sb, "%sunset -f %s\n", in, pr->deact);
}

static int
render_sh(const struct prep *pr, const char *version, struct script_text *out,
    char **err)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const extra[] = {
		"For bash, zsh, dash and ksh. It changes the variables as they are",
		"when it is sourced; sourcing it again changes nothing more, and the",
		"undo restores them as they were before the first time (unset stays",
		"unset, empty stays empty). A list left with no entries is unset.",
		NULL
	};
	char *use = xasprintf(". FILE   (sourced, not run)");

	(void)err;
	emit_header(&sb, pr, version, use, pr->deact, extra);
	free(use);
	sh_activate(&sb, pr, true);
	strbuf_printf(&sb, "\n# The way back.\n%s() {\n", pr->deact);
	sh_restore_body(&sb, pr, "\t");
	strbuf_puts(&sb, "}\n");
	out->text = strbuf_take(&sb);
	return 0;
}

int
sh_quote_word(struct strbuf *sb, const char *s)
{
	shquote_always(sb, s);
	return 0;
}

/* The rc file of the user's shell; .profile for the others (dash, sh),
 * which login shells read. */
static char *
rc_file(const char *home, const char *shell)
{
	if (strcmp(shell, "zsh") == 0)
		return xasprintf("%s/.zshrc", home);
	if (strcmp(shell, "ksh") == 0 || strcmp(shell, "mksh") == 0)
		return xasprintf("%s/.kshrc", home);
	if (strcmp(shell, "bash") == 0)
		return xasprintf("%s/.bashrc", home);
	return xasprintf("%s/.profile", home);
}

/* env --check's command for the sh-like formats (sh, conda, direnv). */
const char *const sh_run_args[] = {
	"-c", ". \"$CW_FILE\" || exit 97; printf '\\n%s\\n' \"$CW_MARK\"; "
	    "exec env -0",
	NULL
};

static const char *const aliases[] = {
	"bash", "zsh", "dash", "ksh", "mksh", "ksh93", "posix", NULL
};
static const char *const suffixes[] = { ".sh", NULL };

const struct script_writer script_sh = {
	.name = "sh",
	.aliases = aliases,
	.comment = "#",
	.render = render_sh,
	.source_verb = ". ",
	.quote = sh_quote_word,
	.rc_file = rc_file,
	.use = use_source,
	.what = N_("bash, zsh, dash, ksh"),
	.file = "./cudawiz-env.sh",
	.suffixes = suffixes,
	.head = "#!/bin/sh",
	.guess_last = true,
	/* The user's own shell when it is a POSIX one. */
	.run = { .progs = NULL, .want = "sh", .args = sh_run_args },
};
