/* Compatibility: which compatibility data the verdicts rest on (source,
 * date, file) and what it says about this machine's driver and GPUs. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"

static const enum finding_code related[] = {
	FINDING_MATRIX_STALE, FINDING_DRIVER_TOO_OLD,
	FINDING_GPU_ARCH_UNSUPPORTED, FINDING_FRAMEWORK_CUDA_MISMATCH,
	FINDING_PTX_TOOLCHAIN_TOO_NEW,
};

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wiz_report *r = c->r;
	const struct driver_facts *dr = &r->facts->driver;
	size_t before;
	char *v;

	wdoc_heading(d, _("Compatibility data"));
	wdoc_kv(d, 2, 20, _("source"), WS_NORMAL, r->matrix_source);
	wdoc_kv(d, 2, 20, _("date"), WS_NORMAL, r->matrix_date);
	if (r->matrix_path != NULL)
		wdoc_kv(d, 2, 20, _("file"), WS_NORMAL, r->matrix_path);
	v = xasprintf(ngettext("refresh after %u day", "refresh after %u days",
	    r->matrix_refresh_days), r->matrix_refresh_days);
	wdoc_kv(d, 2, 20, _("kept fresh"), WS_DIM, v);
	free(v);
	wdoc_text(d, 2, 2, WS_DIM, _("'cudawiz matrix update' fetches newer "
	    "data; 'cudawiz matrix show' prints it all."));
	wdoc_heading(d, _("What it says about this machine"));
	if (fact_known(&dr->max_cuda))
		wdoc_kv(d, 2, 20, _("driver runs"), WS_NORMAL, dr->max_cuda.value);
	else
		wdoc_kv(d, 2, 20, _("driver runs"), WS_DIM,
		    _("unknown (no driver version)"));
	for (size_t i = 0; i < r->facts->gpus.n; i++) {
		const struct gpu_fact *g = &r->facts->gpus.v[i];

		v = xasprintf(_("compute capability %s"), wfact_text(&g->cc, "?"));
		wdoc_kv(d, 2, 20, g->pci_address, WS_NORMAL, v);
		free(v);
	}
	wdoc_heading(d, _("Findings from the compatibility data"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_compat = {
	.title = N_("Compatibility"),
	.build = build,
	.hint = N_("j/k: scroll"),
};
