/* Done: the verdict once more, the script the Fix step wrote (how to
 * activate it and how to undo it), and where to go from here. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/page.h"

/* The Fix step's outcome: what to type, or that nothing was written. */
static void
script_part(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;
	char *how;

	wdoc_heading(d, _("Your activation script"));
	how = fx != NULL ? wfix_howto(fx) : NULL;
	if (how == NULL) {
		wdoc_text(d, 2, 4, WS_NORMAL, _("None written: the Fix step (p to "
		    "go back) writes one."));
		return;
	}
	wdoc_textf(d, 2, 4, WS_OK, _("%s wrote %s"), c->g->ok, fx->w_path);
	if (fx->w_backup != NULL)
		wdoc_textf(d, 4, 4, WS_NORMAL, _("the file that was there is kept "
		    "as %s"), fx->w_backup);
	/* The commands to paste: cut only where the line ends. */
	wdoc_lines(d, 4, 5, WS_KEY, how);
	free(how);
	if (!fx->written)
		wdoc_text(d, 2, 4, WS_WARNING, _("The choices changed after it was "
		    "written: write again on the Fix page to keep them."));
	if (fx->checked)
		wdoc_textf(d, 2, 4, fx->check.ok ? WS_OK : WS_WARNING, "%s",
		    fx->check.ok ? _("The check found every library the "
		    "frameworks need inside it.") : _("The check found needs it "
		    "does not fix (see Check on the Fix page)."));
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	size_t ne = findings_count(&c->r->findings, SEV_ERROR);
	size_t nw = findings_count(&c->r->findings, SEV_WARNING);

	wdoc_heading(d, _("Done"));
	if (ne > 0) {
		char *m = xasprintf(ngettext(
		    "%zu error is left to fix (see Diagnosis).",
		    "%zu errors are left to fix (see Diagnosis).", ne), ne);

		wdoc_textf(d, 2, 4, WS_ERROR, "%s %s", c->g->bad, m);
		free(m);
	} else if (nw > 0)
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
	wdoc_text(d, 0, 0, WS_DIM, _("Press Enter or q to quit, p to go back."));
}

const struct wpage page_done = {
	.title = N_("Done"),
	.build = build,
	.hint = N_("Enter: quit"),
};
