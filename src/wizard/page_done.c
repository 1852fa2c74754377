/* Done: the verdict once more, and where to go from here. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"

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
