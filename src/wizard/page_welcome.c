/* Welcome: what cudawiz looked at, the verdict in one line, the pages
 * ahead. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wiz_report *r = c->r;
	size_t ne = findings_count(&r->findings, SEV_ERROR);
	size_t nw = findings_count(&r->findings, SEV_WARNING);
	size_t ni = findings_count(&r->findings, SEV_INFO);
	char *v;

	wdoc_textf(d, 0, 0, WS_HEADING, _("Welcome to %s %s"), PACKAGE, VERSION);
	wdoc_blank(d);
	wdoc_text(d, 0, 0, WS_NORMAL, _("cudawiz has looked at this machine's "
	    "GPUs, NVIDIA driver, CUDA toolkits, cuDNN, Python environments "
	    "and environment variables. The next pages show what it found, "
	    "what is wrong, and how to fix it."));
	wdoc_blank(d);
	if (r->root != NULL)
		wdoc_kv(d, 0, 22, _("Machine"), WS_NORMAL, r->root);
	else
		wdoc_kv(d, 0, 22, _("Machine"), WS_NORMAL, _("this one (/)"));
	v = xasprintf("%s, %s", r->matrix_source, r->matrix_date);
	wdoc_kv(d, 0, 22, _("Compatibility data"), WS_NORMAL, v);
	free(v);
	/* Nothing is fetched unless asked for: say so before anyone wonders. */
	wdoc_kv(d, 0, 22, _("Network"), WS_NORMAL, r->update.offline ?
	    _("offline: nothing is fetched") : r->root != NULL ?
	    _("not used under --root") :
	    _("used only when you ask (u on the Compatibility page)"));
	if (ne > 0)
		v = xasprintf("%s %s", c->g->bad,
		    _("CUDA will not work as it is set up now"));
	else if (nw > 0)
		v = xasprintf("%s %s", c->g->warn, _("CUDA may work, with problems"));
	else
		v = xasprintf("%s %s", c->g->ok, _("no problem found"));
	wdoc_kv(d, 0, 22, _("Verdict"), ne > 0 ? WS_ERROR : nw > 0 ? WS_WARNING :
	    WS_OK, v);
	free(v);
	/* Counts in words and in their severity's slot, so they read the
	 * same without colour. */
	wdoc_textf(d, 22, 22, ne > 0 ? WS_ERROR : WS_NORMAL,
	    ngettext("%zu error", "%zu errors", ne), ne);
	wdoc_textf(d, 22, 22, nw > 0 ? WS_WARNING : WS_NORMAL,
	    ngettext("%zu warning", "%zu warnings", nw), nw);
	wdoc_textf(d, 22, 22, WS_NORMAL,
	    ngettext("%zu note", "%zu notes", ni), ni);
	wdoc_heading(d, _("Pages"));
	for (size_t i = 1; i < wiz_page_count(); i++)
		wdoc_textf(d, 2, 6, WS_NORMAL, "%2zu  %s", i + 1,
		    _(wiz_page(i)->title));
	wdoc_blank(d);
	wdoc_text(d, 0, 0, WS_DIM, _("Press Enter or n to begin, ? for the "
	    "keys, q to quit."));
}

const struct wpage page_welcome = {
	.title = N_("Welcome"),
	.build = build,
	.hint = N_("Enter: begin"),
};
