/* Done: the verdict once more, with the errors that are left named (and,
 * after a check, which ones the script could not fix), the script the
 * Fix step wrote (how to activate it and how to undo it, i to source it
 * from the shell's rc file), and where to go from here. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/keys.h"
#include "wizard/page.h"

#define LEFT_SHOWN	8	/* errors named; the rest are counted */

static const struct wkeyhelp help[] = {
	{ N_("Enter, q"), N_("quit (what was written stays on the screen)") },
	{ N_("Esc"), N_("the previous page") },
	{ N_("i"), N_("source the script from your shell's rc file, as "
	    "cudawiz env --install-rc does") },
	{ N_("c"), N_("copy the activate line") },
	{ NULL, NULL },
};

/* The errors of fs, each on its own line (its subject, else its title),
 * under what says how many there are. */
static void
errors_left(const struct wpage_ctx *c, struct wdoc *d,
    const struct findings *fs, bool after_check)
{
	size_t ne = findings_count(fs, SEV_ERROR), shown = 0;
	char *m;

	if (after_check)
		m = xasprintf(ngettext("%zu error is left inside the script's "
		    "environment: a script cannot fix it (it needs a driver, a "
		    "package or another change outside the environment).",
		    "%zu errors are left inside the script's environment: a "
		    "script cannot fix them (they need a driver, a package or "
		    "another change outside the environment).", ne), ne);
	else
		m = xasprintf(ngettext("%zu error is left to fix (see Diagnosis).",
		    "%zu errors are left to fix (see Diagnosis).", ne), ne);
	wdoc_textf(d, 2, 4, WS_ERROR, "%s %s", c->g->bad, m);
	free(m);
	for (size_t i = 0; i < fs->n && shown < LEFT_SHOWN; i++) {
		const struct finding *f = &fs->v[i];

		if (f->severity != SEV_ERROR)
			continue;
		shown++;
		wdoc_textf(d, 4, 6, WS_NORMAL, "%s %s", c->g->bullet, f->subject !=
		    NULL ? f->subject : _(finding_title(f->code)));
	}
	if (ne > shown)
		wdoc_textf(d, 4, 6, WS_DIM, _("and %zu more (see Diagnosis)"),
		    ne - shown);
}

/* The Fix step's outcome: what to type, or that nothing was written. */
static void
script_part(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;
	char *how;

	wdoc_heading(d, _("Your activation script"));
	how = fx != NULL ? wfix_howto(fx) : NULL;
	if (how == NULL) {
		wdoc_text(d, 2, 4, WS_NORMAL, _("None written: the Fix step (Esc "
		    "to go back) writes one."));
		return;
	}
	wdoc_textf(d, 2, 4, WS_OK, _("%s wrote %s"), c->g->ok, fx->w_path);
	if (fx->w_backup != NULL)
		wdoc_textf(d, 4, 4, WS_NORMAL, _("the file that was there is kept "
		    "as %s"), fx->w_backup);
	/* The commands to paste: never cut. */
	wdoc_command(d, 4, WS_KEY, how);
	free(how);
	if (!fx->written)
		wdoc_text(d, 2, 4, WS_WARNING, _("The choices changed after it was "
		    "written: write again on the Fix page to keep them."));
	if (fx->checked)
		wdoc_textf(d, 2, 4, fx->check.ok ? WS_OK : WS_WARNING, "%s",
		    fx->check.ok ? _("The check found every library the "
		    "frameworks need inside it.") : _("The check found needs it "
		    "does not fix (see Check again on the Fix page)."));
	if (fx->rc_msg != NULL)
		wdoc_text(d, 2, 4, fx->rc_slot, fx->rc_msg);
	else if (!script_into_conda(fx->w_fmt))
		wdoc_text(d, 2, 4, WS_DIM, _("i: have your shell source it from "
		    "its rc file (as cudawiz env --install-rc)"));
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;
	/* After a check, what is left is what the script's environment
	 * still has: the rest the script fixed. */
	bool after = fx != NULL && fx->checked;
	const struct findings *fs = after ? &fx->check.after.findings :
	    &c->r->findings;
	size_t ne = findings_count(fs, SEV_ERROR);
	size_t nw = findings_count(fs, SEV_WARNING);

	wdoc_heading(d, _("Done"));
	if (ne > 0)
		errors_left(c, d, fs, after);
	else if (nw > 0)
		wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn, _("No error; "
		    "warnings remain (see Diagnosis)."));
	else
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("No problem found."));
	script_part(c, d);
	wdoc_heading(d, _("From here"));
	wdoc_text(d, 2, 4, WS_NORMAL, _("cudawiz doctor         the same report as text"));
	wdoc_text(d, 2, 4, WS_NORMAL, _("cudawiz doctor --json  the same report for scripts"));
	wdoc_text(d, 2, 4, WS_NORMAL, _("cudawiz env            write the script that fixes the environment"));
	wdoc_text(d, 2, 4, WS_NORMAL, _("cudawiz why SONAME     how the loader finds one library"));
	wdoc_blank(d);
	wdoc_text(d, 0, 0, WS_DIM, _("Enter or q: quit  Esc: back"));
}

/* Drawn here rather than by the wizard: the commands scroll sideways. */
static struct wview
draw(const struct wpage_ctx *c, struct wscreen *s)
{
	struct wdoc d;
	struct wview v;

	wdoc_init(&d, c->body.cols);
	build(c, &d);
	v = wdoc_draw_h(&d, s, c->body, c->st->scroll, -1, c->st->hscroll);
	wdoc_free(&d);
	return v;
}

static enum wpage_key
key(const struct wpage_ctx *c, int k)
{
	struct wdoc d;
	bool used;

	if (k == 'i' && c->fix != NULL && c->fix->w_path != NULL) {
		wfix_install_rc(c->fix);
		return WPK_DONE;
	}
	if (k == 'c' && c->fix != NULL) {
		c->nav->copy = wfix_activate_line(c->fix);
		return c->nav->copy != NULL ? WPK_DONE : WPK_IGNORED;
	}
	wdoc_init(&d, c->body.cols);
	build(c, &d);
	used = wdoc_scroll_key(&d, c->body.rows, &c->st->scroll, k) ||
	    wdoc_hscroll_key(&d, c->body.cols, &c->st->hscroll, k);
	wdoc_free(&d);
	return used ? WPK_DONE : WPK_IGNORED;
}

const struct wpage page_done = {
	.title = N_("Done"),
	.build = build,
	.draw = draw,
	.key = key,
	.help = help,
	.hint = N_("Enter: quit  i: rc file  Esc: back"),
};
