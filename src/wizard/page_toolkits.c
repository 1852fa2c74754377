/* Toolkits and cuDNN: each CUDA toolkit and cuDNN found, and which file
 * the dynamic loader would open for each library cudawiz asks about. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/page.h"
#include "wizard/pagefacts.h"

static const enum finding_code related[] = {
	FINDING_CUDA_HOME_MISMATCH, FINDING_NVCC_RUNTIME_MISMATCH,
	FINDING_MIXED_CUDA_VERSIONS, FINDING_SONAME_NOT_FOUND,
	FINDING_SONAME_VERSION_MISMATCH, FINDING_SONAME_OFF_SEARCH_PATH,
	FINDING_SONAME_SPOOF_SYMLINK, FINDING_BROKEN_LIBRARY,
	FINDING_PTX_TOOLCHAIN_TOO_NEW, FINDING_OPTIONAL_LIB_MISSING,
	FINDING_NEWER_THAN_MATRIX,
	FINDING_TOOLKIT_TOO_OLD,
};

/* The findings that make a resolved library itself the problem (not
 * the ones that name it as context, "libcudart.so.13 resolves to …"). */
static const enum finding_code culprit[] = {
	FINDING_SONAME_VERSION_MISMATCH, FINDING_SONAME_SPOOF_SYMLINK,
	FINDING_BROKEN_LIBRARY, FINDING_LIB_SHADOWED,
};

/* The value column of the toolkits (indent 4, so the libraries' at
 * indent 2 is two wider), sized for the longest label in the language
 * shown. */
static int
label_width(const struct wpage_ctx *c)
{
	const struct facts *f = c->r->facts;
	static const char *const labels[] = {
		N_("stubs"), N_("also reached as"), N_("found via"),
	};
	int w = wlabel_fit(0, "nvcc");

	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
		w = wlabel_fit(w, _(labels[i]));
	for (size_t i = 0; i < f->toolkits.n; i++)
		for (size_t j = 0; j < f->toolkits.v[i].cudart.n; j++)
			w = wlabel_fit(w, f->toolkits.v[i].cudart.v[j].soname);
	return wlabel_done(w + 2, c->body.cols);
}

/* The toolkits of one layout: installed toolkits, or the CUDA runtimes
 * pip wheels bring (nvidia-cuda-runtime-cu12 is not a toolkit: no nvcc,
 * no headers to build with). */
static void
toolkits(const struct wpage_ctx *c, struct wdoc *d, int lw, bool pip)
{
	const struct facts *f = c->r->facts;
	size_t shown = 0;

	for (size_t i = 0; i < f->toolkits.n; i++)
		shown += (f->toolkits.v[i].layout == TOOLKIT_LAYOUT_PIP) == pip;
	if (pip && shown == 0)
		return;
	wdoc_heading(d, pip ? _("CUDA runtimes from pip wheels") :
	    _("CUDA toolkits"));
	if (shown == 0)
		wdoc_text(d, 2, 4, WS_NORMAL, _("none found"));
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		if ((t->layout == TOOLKIT_LAYOUT_PIP) != pip)
			continue;
		if (pip)
			/* TRANSLATORS: a CUDA runtime a pip wheel installed:
			 * "CUDA 12.4 runtime  /…/site-packages/nvidia/…". */
			wdoc_textf(d, 2, 4, WS_NORMAL, _("%s CUDA %s runtime  %s"),
			    c->g->bullet, wfact_text(&t->version, "?"), t->root);
		else
			wdoc_textf(d, 2, 4, WS_NORMAL, "%s CUDA %s  %s",
			    c->g->bullet, wfact_text(&t->version, "?"), t->root);
		for (size_t j = 0; j < t->cudart.n; j++)
			wdoc_kv(d, 4, lw - 2, t->cudart.v[j].soname, WS_NORMAL,
			    t->cudart.v[j].dir);
		/* A wheel's runtime never has one: "nvcc none" would read
		 * as a fault. */
		if (!pip || t->nvcc != NULL)
			wdoc_kv(d, 4, lw - 2, "nvcc", WS_NORMAL,
			    t->nvcc != NULL ? t->nvcc : _("none"));
		if (t->stubs_dir != NULL)
			wdoc_kv(d, 4, lw - 2, _("stubs"), WS_DIM, t->stubs_dir);
		for (size_t j = 0; j < t->aliases.n; j++)
			wdoc_kv(d, 4, lw - 2, _("also reached as"), WS_NORMAL,
			    t->aliases.v[j]);
		if (t->found_via.n > 0) {
			char *v = wjoin(&t->found_via, ", ");

			wdoc_kv(d, 4, lw - 2, _("found via"), WS_DIM, v);
			free(v);
		}
	}
}

/* Where a cuDNN lives, as a person tells copies apart: the Python
 * environment holding it ("conda nlp", "a pip wheel in venv train"), else
 * a toolkit or a directory outside any. Newly allocated. */
static char *
cudnn_where(const struct facts *f, const struct cudnn_fact *cd)
{
	const char *w = words_lib_where(cd->where);

	for (size_t i = 0; cd->lib_dir != NULL && i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];
		size_t n = e->prefix != NULL ? strlen(e->prefix) : 0;
		const char *name = e->name != NULL ? e->name : e->prefix;

		if (n == 0 || strncmp(cd->lib_dir, e->prefix, n) != 0 ||
		    (cd->lib_dir[n] != '/' && cd->lib_dir[n] != '\0'))
			continue;
		if (cd->where != NULL && strcmp(cd->where, "pip") == 0)
			/* TRANSLATORS: "a pip wheel in venv train". */
			return xasprintf(_("%s in %s %s"), w,
			    words_env_kind(e->kind), name);
		return xasprintf("%s %s", words_env_kind(e->kind), name);
	}
	return xstrdup(w);
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
		char *where = cudnn_where(f, cd);

		wdoc_textf(d, 2, 4, WS_NORMAL, "%s cuDNN %s  %s", c->g->bullet,
		    wfact_text(&cd->version, wfact_text(&cd->lib_version, "?")),
		    cd->lib_dir);
		if (fact_known(&cd->cuda_major))
			wdoc_textf(d, 4, 6, WS_DIM, _("(%s, for CUDA %s)"), where,
			    cd->cuda_major.value);
		else
			/* TRANSLATORS: where a cuDNN lives: "(in conda
			 * nlp)", "(in a CUDA toolkit)". */
			wdoc_textf(d, 4, 6, WS_DIM, _("(in %s)"), where);
		free(where);
	}
}

static void
libraries(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct facts *f = c->r->facts;
	int lw = 0;

	if (f->libraries.n == 0)
		return;
	/* Their own column: the sonames only, so the paths keep room. */
	for (size_t i = 0; i < f->libraries.n; i++)
		lw = wlabel_fit(lw, f->libraries.v[i].soname);
	lw = wlabel_done(lw, c->body.cols);
	wdoc_heading(d, _("Libraries the loader would find"));
	for (size_t i = 0; i < f->libraries.n; i++) {
		const struct lib_fact *l = &f->libraries.v[i];
		char *v;

		if (l->resolved != NULL) {
			const struct finding *fd = l->stub ? NULL :
			    wfinding_naming(&c->r->findings, culprit,
			    sizeof culprit / sizeof culprit[0], l->resolved,
			    WN_PATH);
			char *t = xasprintf(_("%s (via %s)%s"), l->resolved,
			    words_via(l->via), l->stub ? _(" [the toolkit's stub]") : "");

			v = fd != NULL ? xasprintf("%s %s",
			    wsev_glyph(c->g, fd->severity), t) : xstrdup(t);
			free(t);
			wdoc_kv(d, 2, lw, l->soname, l->stub ? WS_ERROR :
			    fd != NULL ? wsev_slot(fd->severity) : WS_NORMAL, v);
		} else {
			v = xasprintf("%s %s", l->optional ? c->g->info : c->g->bad,
			    l->optional ? _("not found (optional)") : _("not found"));
			wdoc_kv(d, 2, lw, l->soname, l->optional ? WS_DIM : WS_ERROR, v);
		}
		free(v);
	}
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	int lw = label_width(c);
	size_t before;

	toolkits(c, d, lw, false);
	toolkits(c, d, lw, true);
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
