/* fish. fish keeps PATH, LD_LIBRARY_PATH and every variable whose name
 * ends in PATH as a list (split at ':' when imported, joined with ':'
 * when exported, empty entries kept), so the script edits lists: no
 * splitting by hand, and the saved lists restore the exported strings
 * exactly ("" is a one-element list holding "", so empty stays empty).
 * Temporaries live in a begin/end block as locals and vanish with it.
 * Paths are in fish's single quotes, where only \' and \\ are escapes:
 * a newline, '$', '(' and backticks are data.
 *
 * Entries are compared without one trailing '/': the script holds, for
 * each such key, the exact strings that reduce to it (key and key/), and
 * `contains` compares exactly, so no command substitution (which would
 * split at newlines) is needed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "envscript/common.h"
#include "i18n.h"
#include "util/xalloc.h"

static void
fish_quote(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'' || *s == '\\')
			strbuf_putc(sb, '\\');
		strbuf_putc(sb, *s);
	}
	strbuf_putc(sb, '\'');
}

static void
fish_edit(struct strbuf *sb, const struct pv_prep *pp)
{
	strbuf_puts(sb, "begin\n\tset -l _cwz_new");
	for (size_t i = 0; i < pp->prepend.n; i++) {
		strbuf_putc(sb, ' ');
		fish_quote(sb, pp->prepend.v[i]);
	}
	strbuf_puts(sb, "\n\tset -l _cwz_drop");
	for (size_t i = 0; i < pp->keys.n; i++) {
		const char *k = pp->keys.v[i];
		size_t n = strlen(k);
		char *slash = xasprintf("%s/", k);

		/* the strings whose key is k: k itself unless it ends in '/'
		 * (then it is the key of k without it), and k/ */
		if (n == 0 || k[n - 1] != '/') {
			strbuf_putc(sb, ' ');
			fish_quote(sb, k);
		}
		strbuf_putc(sb, ' ');
		fish_quote(sb, slash);
		free(slash);
	}
	strbuf_printf(sb, "\n\tset -l _cwz_e\n\tfor _cwz_e in $%s\n", pp->name);
	strbuf_puts(sb, "\t\ttest -n \"$_cwz_e\"; or continue\n"
	    "\t\tcontains -- $_cwz_e $_cwz_drop; and continue\n");
	if (pp->stubs)
		strbuf_puts(sb, "\t\tswitch $_cwz_e\n"
		    "\t\t\tcase stubs stubs/ '*/stubs' '*/stubs/'\n"
		    "\t\t\t\tcontinue\n\t\tend\n");
	if (pp->missing)
		strbuf_puts(sb, "\t\ttest -d \"$_cwz_e\"; or continue\n");
	strbuf_puts(sb, "\t\tset -a _cwz_new $_cwz_e\n\tend\n");
	strbuf_printf(sb, "\tif set -q _cwz_new[1]\n\t\tset -gx %s $_cwz_new\n"
	    "\telse\n\t\tset -eg %s\n\tend\nend\n", pp->name, pp->name);
}

static bool
touched(const struct prep *pr, int i, const char **name)
{
	*name = i < 2 ? pr->pv[i].name : pr->var[i - 2].name;
	return i < 2 ? pr->pv[i].touched : pr->var[i - 2].v->op != PLAN_VAR_KEEP;
}

static int
render_fish(const struct prep *pr, const char *version,
    struct script_text *out, char **err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *id = pr->ident, *n;
	static const char *const extra[] = {
		"For fish. It changes the variables as they are when it is sourced;",
		"sourcing it again changes nothing more, and the undo restores them",
		"as they were before the first time (unset stays unset, empty stays",
		"empty). A list left with no entries is unset.",
		NULL
	};

	(void)err;
	emit_header(&sb, pr, version, "source FILE", pr->deact, extra);
	strbuf_puts(&sb, "# Keep the values of before the first activation for "
	    "the way back.\n");
	strbuf_printf(&sb, "if not set -q _cudawiz_%s_active\n", id);
	for (int i = 0; i < 4; i++) {
		if (!touched(pr, i, &n))
			continue;
		strbuf_printf(&sb, "\tif set -q %s\n\t\tset -g _cudawiz_%s_had_%s 1\n"
		    "\t\tset -g _cudawiz_%s_old_%s $%s\n\telse\n"
		    "\t\tset -g _cudawiz_%s_had_%s 0\n\tend\n", n, id, n, id, n, n,
		    id, n);
	}
	strbuf_printf(&sb, "\tset -g _cudawiz_%s_active 1\nend\n\n", id);
	for (int i = 0; i < 2; i++)
		if (pr->pv[i].touched)
			fish_edit(&sb, &pr->pv[i]);
	for (int i = 0; i < 2; i++) {
		const struct var_prep *vp = &pr->var[i];

		if (vp->v->op == PLAN_VAR_SET) {
			strbuf_printf(&sb, "set -gx %s ", vp->name);
			fish_quote(&sb, vp->v->value);
			strbuf_putc(&sb, '\n');
		} else if (vp->v->op == PLAN_VAR_UNSET) {
			strbuf_printf(&sb, "set -eg %s\n", vp->name);
		}
	}
	strbuf_printf(&sb, "\n# The way back.\nfunction %s --description "
	    "'cudawiz: restore the environment of before the activation'\n"
	    "\tif set -q _cudawiz_%s_active\n", pr->deact, id);
	for (int i = 0; i < 4; i++) {
		if (!touched(pr, i, &n))
			continue;
		strbuf_printf(&sb, "\t\tif test \"$_cudawiz_%s_had_%s\" = 1\n"
		    "\t\t\tset -gx %s $_cudawiz_%s_old_%s\n\t\telse\n"
		    "\t\t\tset -eg %s\n\t\tend\n"
		    "\t\tset -eg _cudawiz_%s_had_%s\n"
		    "\t\tset -eg _cudawiz_%s_old_%s\n", id, n, n, id, n, n, id, n,
		    id, n);
	}
	strbuf_printf(&sb, "\t\tset -eg _cudawiz_%s_active\n\tend\n"
	    "\tfunctions -e %s\nend\n", id, pr->deact);
	out->text = strbuf_take(&sb);
	return 0;
}

static int
quote_word(struct strbuf *sb, const char *s)
{
	fish_quote(sb, s);
	return 0;
}

static char *
rc_file(const char *home, const char *shell)
{
	(void)shell;
	return xasprintf("%s/.config/fish/config.fish", home);
}

static const char *const suffixes[] = { ".fish", NULL };
static const char *const run_progs[] = { "fish", NULL };
static const char *const run_args[] = {
	"--no-config", "-c", "source \"$CW_FILE\"; or exit 97; "
	    "printf '\\n%s\\n' \"$CW_MARK\"; exec env -0",
	NULL
};

const struct script_writer script_fish = {
	.name = "fish",
	.comment = "#",
	.render = render_fish,
	.source_verb = "source ",
	.quote = quote_word,
	.rc_file = rc_file,
	.use = use_source,
	.what = N_("fish"),
	.file = "./cudawiz-env.fish",
	.suffixes = suffixes,
	.run = { .progs = run_progs, .want = "fish", .argv0 = "fish",
	    .args = run_args },
};
