/* Toolkits and cuDNN: each CUDA toolkit and cuDNN found, and which file
 * the dynamic loader would open for each library cudawiz asks about. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/page.h"

#define LW	20

static const enum finding_code related[] = {
	FINDING_CUDA_HOME_MISMATCH, FINDING_NVCC_RUNTIME_MISMATCH,
	FINDING_MIXED_CUDA_VERSIONS, FINDING_SONAME_NOT_FOUND,
	FINDING_SONAME_VERSION_MISMATCH, FINDING_SONAME_OFF_SEARCH_PATH,
	FINDING_SONAME_SPOOF_SYMLINK, FINDING_BROKEN_LIBRARY,
	FINDING_PTX_TOOLCHAIN_TOO_NEW, FINDING_OPTIONAL_LIB_MISSING,
	FINDING_NEWER_THAN_MATRIX,
	FINDING_TOOLKIT_TOO_OLD,
};

static void
toolkits(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct facts *f = c->r->facts;

	wdoc_heading(d, _("CUDA toolkits"));
	if (f->toolkits.n == 0)
		wdoc_text(d, 2, 4, WS_NORMAL, _("none found"));
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		wdoc_textf(d, 2, 4, WS_NORMAL, "%s CUDA %s  %s", c->g->bullet,
		    wfact_text(&t->version, "?"), t->root);
		for (size_t j = 0; j < t->cudart.n; j++)
			wdoc_kv(d, 4, LW - 2, t->cudart.v[j].soname, WS_NORMAL,
			    t->cudart.v[j].dir);
		wdoc_kv(d, 4, LW - 2, "nvcc", WS_NORMAL,
		    t->nvcc != NULL ? t->nvcc : _("none"));
		if (t->stubs_dir != NULL)
			wdoc_kv(d, 4, LW - 2, _("stubs"), WS_DIM, t->stubs_dir);
		for (size_t j = 0; j < t->aliases.n; j++)
			wdoc_kv(d, 4, LW - 2, _("also reached as"), WS_NORMAL,
			    t->aliases.v[j]);
		if (t->found_via.n > 0) {
			char *v = wjoin(&t->found_via, ", ");

			wdoc_kv(d, 4, LW - 2, _("found via"), WS_DIM, v);
			free(v);
		}
	}
}

static void
cudnn(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct facts *f = c->r->facts;

	wdoc_heading(d, _("cuDNN"));
	if (f->cudnn.n == 0)
		wdoc_text(d, 2, 4, WS_NORMAL, _("none found"));
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *cd = &f->cudnn.v[i];

		wdoc_textf(d, 2, 4, WS_NORMAL, "%s cuDNN %s  %s", c->g->bullet,
		    wfact_text(&cd->version, wfact_text(&cd->lib_version, "?")),
		    cd->lib_dir);
		if (fact_known(&cd->cuda_major))
			wdoc_textf(d, 4, 6, WS_DIM, _("(%s, for CUDA %s)"),
			    cd->where != NULL ? cd->where : "?",
			    cd->cuda_major.value);
		else
			wdoc_textf(d, 4, 6, WS_DIM, "(%s)",
			    cd->where != NULL ? cd->where : "?");
	}
}

static void
libraries(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct facts *f = c->r->facts;

	if (f->libraries.n == 0)
		return;
	wdoc_heading(d, _("Libraries the loader would find"));
	for (size_t i = 0; i < f->libraries.n; i++) {
		const struct lib_fact *l = &f->libraries.v[i];
		char *v;

		if (l->resolved != NULL) {
			v = xasprintf(_("%s (via %s)%s"), l->resolved,
			    words_via(l->via), l->stub ? _(" [the toolkit's stub]") : "");
			wdoc_kv(d, 2, LW, l->soname, l->stub ? WS_ERROR : WS_NORMAL, v);
		} else {
			v = xasprintf("%s %s", l->optional ? c->g->info : c->g->bad,
			    l->optional ? _("not found (optional)") : _("not found"));
			wdoc_kv(d, 2, LW, l->soname, l->optional ? WS_DIM : WS_ERROR, v);
		}
		free(v);
	}
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	size_t before;

	toolkits(c, d);
	cudnn(c, d);
	libraries(c, d);
	wdoc_heading(d, _("Findings about toolkits and libraries"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_toolkits = {
	.title = N_("Toolkits and cuDNN"),
	.build = build,
	.hint = N_("j/k: scroll  Tab: next section"),
};
