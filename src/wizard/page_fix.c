/* Fix: NOT BUILT YET. The step (choose toolkit, cuDNN,
 * environment, shell and path; preview the script; write it; run
 * --check) comes in a later change; until then the page says so and
 * points at the command that does it. */
#include "config.h"

#include "i18n.h"
#include "wizard/page.h"

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	(void)c;
	wdoc_heading(d, _("Fix the environment"));
	wdoc_text(d, 2, 2, WS_WARNING, _("This step is not in the wizard yet."));
	wdoc_blank(d);
	wdoc_text(d, 2, 2, WS_NORMAL, _("'cudawiz env' writes an activation "
	    "script for your shell that fixes the environment, and "
	    "'cudawiz env --check FILE' shows, library by library, what it "
	    "changes. See 'cudawiz --help' for its options (--shell, --toolkit, "
	    "--cudnn, --python-env, -o FILE)."));
}

const struct wpage page_fix = {
	.title = N_("Fix"),
	.build = build,
};
