/* csh and tcsh.
 *
 * csh cannot split a string at ':' by itself, and its command
 * substitution re-reads what it substitutes (a '!' there is taken for
 * history, a '$' for a variable), so the list editing is done by /bin/sh
 * (sh.c's algorithm): the sh program is handed over in an environment
 * variable, so no path ever stands inside backquotes, and what it prints
 * is one line of csh, `setenv NAME value` or `unsetenv NAME`, in which
 * every character csh would interpret is escaped with a backslash and
 * every blank or newline is written as "$_cwz_sp:q", "$_cwz_tab:q",
 * "$_cwz_nl:q", so the line survives the word splitting of the
 * substitution; the script evals it with globbing off.
 *
 * Literal paths are in single quotes, where csh still sees '!' (history)
 * and a backslash before a newline: '!' is written \! outside the quotes
 * and a newline as '' + backslash-newline, which inside quotes is a real
 * newline.
 *
 * Limit: csh drops a backslash standing right before a newline when it
 * expands a variable, so a directory to prepend with that pair in its
 * name is refused, and an entry with it already in the environment comes
 * back without that backslash.
 *
 * The way back is an alias (csh has no functions): one line, no '!', and
 * every variable it names always defined (csh expands a whole line before
 * it looks at an `if`). */
#include "config.h"

#include <string.h>

#include "envscript/sh.h"
#include "i18n.h"
#include "util/xalloc.h"

static int
csh_quote(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			strbuf_puts(sb, "'\\''");
		else if (*s == '!')
			strbuf_puts(sb, "'\\!'");
		else if (*s == '\n')
			strbuf_puts(sb, "''\\\n");
		else
			strbuf_putc(sb, *s);
	}
	strbuf_putc(sb, '\'');
	return 0;
}

/* The end of the sh side: after the editing shared with sh.c, print csh
 * instead of assigning. No line ends in a backslash (inside csh quotes
 * that would become a plain newline). */
static const char pathedit_csh_tail[] =
"\tif [ -z \"$_cwz_new\" ]; then\n"
"\t\tprintf 'unsetenv %s\\n' \"$_cwz_name\"\n"
"\t\treturn 0\n"
"\tfi\n"
"\t_cwz_o=\"setenv $_cwz_name \"\n"
"\t_cwz_nl='\n'\n"
"\twhile [ -n \"$_cwz_new\" ]; do\n"
"\t\t_cwz_t=${_cwz_new#?}\n"
"\t\t_cwz_c=${_cwz_new%\"$_cwz_t\"}\n"
"\t\t_cwz_new=$_cwz_t\n"
"\t\tcase $_cwz_c in\n"
"\t\t' ') _cwz_o=$_cwz_o'\"$_cwz_sp:q\"' ;;\n"
"\t\t'\t') _cwz_o=$_cwz_o'\"$_cwz_tab:q\"' ;;\n"
"\t\t\"$_cwz_nl\") _cwz_o=$_cwz_o'\"$_cwz_nl:q\"' ;;\n"
"\t\t\\\"|\\'|\\\\|\\$|\\`|\\*|\\?|\\{|\\}|\\(|\\)|\\<|\\>|\\||\\&|\\;|\\~|\\#|\\^|\\=|\\[|\\]|\\!)\n"
"\t\t\t_cwz_o=$_cwz_o\\\\$_cwz_c ;;\n"
"\t\t*) _cwz_o=$_cwz_o$_cwz_c ;;\n"
"\t\tesac\n"
"\tdone\n"
"\tprintf '%s\\n' \"$_cwz_o\"\n"
"}\n";

static bool
touched(const struct prep *pr, int i, const char **name)
{
	*name = i < 2 ? pr->pv[i].name : pr->var[i - 2].name;
	return i < 2 ? pr->pv[i].touched : pr->var[i - 2].v->op != PLAN_VAR_KEEP;
}

static void
csh_edit(struct strbuf *sb, const struct pv_prep *pp)
{
	struct strbuf prog = STRBUF_INIT;

	strbuf_puts(&prog, "_cudawiz_pathedit() {\n");
	strbuf_puts(&prog, sh_pathedit_collect);
	strbuf_puts(&prog, pathedit_csh_tail);
	strbuf_printf(&prog, "_cudawiz_pathedit %s '%s%s' %zu", pp->name,
	    pp->stubs ? "s" : "", pp->missing ? "m" : "", pp->prepend.n);
	for (int l = 0; l < 2; l++) {
		const struct strv *v = l == 0 ? &pp->prepend : &pp->remove;

		for (size_t j = 0; j < v->n; j++) {
			strbuf_putc(&prog, ' ');
			shquote_always(&prog, v->v[j]);
		}
	}
	strbuf_putc(&prog, '\n');
	strbuf_printf(sb, "# %s, edited by /bin/sh.\nsetenv _CWZ_PROG ", pp->name);
	csh_quote(sb, strbuf_str(&prog));
	strbuf_puts(sb, "\nset _cwz_out = ( `/bin/sh -c 'eval \"$_CWZ_PROG\"'` )\n"
	    "eval \"$_cwz_out\"\nunsetenv _CWZ_PROG\n\n");
	strbuf_free(&prog);
}

static int
render_csh(const struct prep *pr, const char *version, struct script_text *out,
    char **err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *id = pr->ident, *n;
	static const char *const extra[] = {
		"For csh and tcsh. It changes the variables as they are when it is",
		"sourced; sourcing it again changes nothing more, and the undo",
		"restores them as they were before the first time (unset stays",
		"unset, empty stays empty). A list left with no entries is unset.",
		"The lists are edited by /bin/sh, which must exist.",
		NULL
	};

	/* csh drops a backslash that stands right before a newline when it
	 * expands a variable, even in "$v:q": such an entry cannot pass
	 * through the edited list. (A value set literally can.) */
	for (int i = 0; i < 2; i++)
		for (size_t j = 0; j < pr->pv[i].prepend.n; j++)
			if (strstr(pr->pv[i].prepend.v[j], "\\\n") != NULL)
				return unwritable(pr, pr->pv[i].name,
				    pr->pv[i].prepend.v[j], _("holds a backslash "
				    "right before a line break, which csh cannot "
				    "keep in a variable"), err);
	emit_header(&sb, pr, version, "source FILE", pr->deact, extra);
	strbuf_puts(&sb, "set _cwz_nl = ");
	csh_quote(&sb, "\n");
	strbuf_puts(&sb, "\nset _cwz_sp = ' '\nset _cwz_tab = '\t'\n\n");
	strbuf_puts(&sb, "# Keep the values of before the first activation for "
	    "the way back.\n");
	strbuf_printf(&sb, "if ( ! $?_cudawiz_%s_active ) then\n", id);
	for (int i = 0; i < 4; i++) {
		if (!touched(pr, i, &n))
			continue;
		strbuf_printf(&sb, "\tif ( $?%s ) then\n"
		    "\t\tset _cudawiz_%s_had_%s = 1\n"
		    "\t\tset _cudawiz_%s_old_%s = \"$%s:q\"\n\telse\n"
		    "\t\tset _cudawiz_%s_had_%s = 0\n"
		    "\t\tset _cudawiz_%s_old_%s = ''\n\tendif\n", n, id, n, id, n, n,
		    id, n, id, n);
	}
	strbuf_printf(&sb, "\tset _cudawiz_%s_active = 1\nendif\n\n", id);
	if (pr->pv[0].touched || pr->pv[1].touched) {
		strbuf_puts(&sb, "set _cwz_noglob = $?noglob\nset noglob\n");
		for (int i = 0; i < 2; i++)
			if (pr->pv[i].touched)
				csh_edit(&sb, &pr->pv[i]);
		strbuf_puts(&sb, "if ( $_cwz_noglob == 0 ) unset noglob\n"
		    "unset _cwz_noglob _cwz_out\n");
	}
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(&sb, "setenv %s ", vp->name);
			csh_quote(&sb, vp->v->value);
			strbuf_putc(&sb, '\n');
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(&sb, "unsetenv %s\n", vp->name);
		}
	}
	strbuf_puts(&sb, "unset _cwz_nl _cwz_sp _cwz_tab\n");
	strbuf_printf(&sb, "\n# The way back.\nalias %s '", pr->deact);
	for (int i = 0; i < 4; i++) {
		if (!touched(pr, i, &n))
			continue;
		strbuf_printf(&sb, "if ( $_cudawiz_%s_had_%s == 1 ) setenv %s "
		    "\"$_cudawiz_%s_old_%s:q\"; if ( $_cudawiz_%s_had_%s == 0 ) "
		    "unsetenv %s; unset _cudawiz_%s_had_%s _cudawiz_%s_old_%s; ",
		    id, n, n, id, n, id, n, n, id, n, id, n);
	}
	strbuf_printf(&sb, "unset _cudawiz_%s_active; unalias %s'\n", id, pr->deact);
	out->text = strbuf_take(&sb);
	return 0;
}

/* tcsh reads ~/.tcshrc, and ~/.cshrc only when there is none. */
static char *
rc_file(const char *home, const char *shell)
{
	return xasprintf("%s/%s", home, strcmp(shell, "csh") == 0 ? ".cshrc" :
	    ".tcshrc");
}

static const char *const aliases[] = { "tcsh", NULL };
static const char *const suffixes[] = { ".csh", ".tcsh", NULL };
static const char *const run_progs[] = { "tcsh", "csh", NULL };
static const char *const run_args[] = {
	"-f", "-c", "source $CW_FILE:q; printf '\\n%s\\n' $CW_MARK:q; "
	    "exec env -0",
	NULL
};

const struct script_writer script_csh = {
	.name = "csh",
	.aliases = aliases,
	.comment = "#",
	.render = render_csh,
	/* tcsh's `source` takes no "--": "./" keeps a name from being
	 * an option. */
	.source_verb = "source ",
	.quote = csh_quote,
	.rc_file = rc_file,
	.use = use_source,
	.what = N_("csh, tcsh"),
	.file = "./cudawiz-env.csh",
	.suffixes = suffixes,
	.run = { .progs = run_progs, .want = "tcsh", .argv0 = "tcsh",
	    .args = run_args },
};
