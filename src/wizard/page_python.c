/* Python environments and frameworks: each environment, and in it each
 * GPU framework with the CUDA it was built for and whether it will load
 * and use the GPU, or the first thing in the way. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/page.h"
#include "wizard/pagefacts.h"

static const enum finding_code related[] = {
	FINDING_FRAMEWORK_CUDA_MISMATCH, FINDING_FRAMEWORK_CPU_ONLY,
	FINDING_CONDA_CUDA_CONFLICT, FINDING_PIP_CUDA_WHEELS_MIXED,
	FINDING_LIB_SHADOWED, FINDING_GPU_ARCH_UNSUPPORTED, FINDING_GPU_ARCH_UNCHECKED,
};

/* Warnings that put a framework's GPU use in doubt; any error finding
 * that names the framework does. */
static const enum finding_code doubt[] = {
	FINDING_GPU_ARCH_UNSUPPORTED, FINDING_FRAMEWORK_CUDA_MISMATCH,
	FINDING_LIB_SHADOWED, FINDING_CONDA_CUDA_CONFLICT,
	FINDING_PIP_CUDA_WHEELS_MIXED, FINDING_SONAME_VERSION_MISMATCH,
	FINDING_DRIVER_TOO_OLD, FINDING_PTX_TOOLCHAIN_TOO_NEW,
};

/* The most severe finding about fw (one naming its directory): an
 * error of any kind, else a warning of doubt[]; NULL when none. */
static const struct finding *
finding_about(const struct findings *fs, const struct framework_fact *fw)
{
	const struct finding *f;

	if (fw->dir == NULL)
		return NULL;
	f = wfinding_naming(fs, NULL, 0, fw->dir, WN_UNDER);
	if (f != NULL && f->severity == SEV_ERROR)
		return f;
	f = wfinding_naming(fs, doubt, sizeof doubt / sizeof doubt[0], fw->dir,
	    WN_UNDER);
	return f != NULL && f->severity == SEV_WARNING ? f : NULL;
}

/* The framework's state in words from its facts alone, and the slot to
 * show it in. */
static char *
facts_status(const struct framework_fact *fw, const struct wglyphs *g,
    enum wslot *slot)
{
	if (framework_gpu_ready(fw)) {
		*slot = WS_OK;
		return xasprintf("%s %s", g->ok, _("GPU-ready"));
	}
	*slot = WS_ERROR;
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (!n->optional && (n->lib == NULL || n->lib->resolved == NULL))
			return xasprintf(_("%s %s not found"), g->bad, n->soname);
	}
	for (size_t i = 0; i < fw->needs.n; i++) {
		const struct fw_need *n = &fw->needs.v[i];

		if (n->shadowed_via != STEP_NONE)
			return xasprintf(_("%s %s shadowed via %s"), g->bad,
			    n->soname, step_words(n->shadowed_via, STEPW_TAG));
	}
	if (framework_loads(fw)) {
		*slot = fw->gpu == FW_GPU_NO ? WS_WARNING : WS_NORMAL;
		return xasprintf("%s %s", g->warn, fw->gpu == FW_GPU_NO ?
		    _("loads, CPU only") : _("loads"));
	}
	return xasprintf("%s %s", g->bad, _("does not load"));
}

/* The framework's state: its facts' verdict, unless a finding about it
 * says worse (a GPU-ready build with no kernels for this GPU is not
 * GPU-ready). */
static char *
status_text(const struct wpage_ctx *c, const struct framework_fact *fw,
    enum wslot *slot)
{
	const struct finding *f = finding_about(&c->r->findings, fw);
	char *st = facts_status(fw, c->g, slot);
	const char *what;

	if (f == NULL || (f->severity == SEV_WARNING && *slot != WS_OK) ||
	    *slot == WS_ERROR)
		return st;
	free(st);
	*slot = wsev_slot(f->severity);
	what = f->subject != NULL ? f->subject : _(finding_title(f->code));
	return f->severity == SEV_ERROR ?
	    /* TRANSLATORS: "✗ not GPU-ready: <what a finding says>". */
	    xasprintf(_("%s not GPU-ready: %s (%s)"), c->g->bad, what,
	    finding_code_name(f->code)) :
	    /* TRANSLATORS: "! loads, but: <what a finding says>". */
	    xasprintf(_("%s loads, but: %s (%s)"), c->g->warn, what,
	    finding_code_name(f->code));
}

static void
framework(const struct wpage_ctx *c, struct wdoc *d,
    const struct framework_fact *fw)
{
	enum wslot slot;
	char *st;

	wdoc_textf(d, 4, 8, WS_NORMAL, "%s %s %s", c->g->bullet,
	    fw->package != NULL ? fw->package : fw->name != NULL ? fw->name : "?",
	    fw->version != NULL ? fw->version : "?");
	if (fw->cuda != NULL && fw->cudnn != NULL)
		wdoc_textf(d, 8, 8, WS_NORMAL, _("built for CUDA %s, cuDNN %s"),
		    fw->cuda, fw->cudnn);
	else if (fw->cuda != NULL)
		wdoc_textf(d, 8, 8, WS_NORMAL, _("built for CUDA %s"), fw->cuda);
	else
		wdoc_text(d, 8, 8, WS_NORMAL, fw->gpu == FW_GPU_NO ?
		    _("CPU-only build") : _("GPU support unknown"));
	if (fw->gpu_through != NULL)
		wdoc_textf(d, 8, 8, WS_DIM, _("GPU through %s"), fw->gpu_through);
	st = status_text(c, fw, &slot);
	wdoc_text(d, 8, 10, slot, st);
	free(st);
	if (fw->archs.read && (fw->archs.sass.n > 0 || fw->archs.ptx.n > 0)) {
		char *sass = wjoin(&fw->archs.sass, " "), *ptx = wjoin(&fw->archs.ptx, " ");

		wdoc_textf(d, 8, 10, WS_DIM, _("GPU code: %s%s%s"), sass,
		    fw->archs.ptx.n > 0 && fw->archs.sass.n > 0 ? " + " : "", ptx);
		free(sass);
		free(ptx);
	}
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct facts *f = c->r->facts;
	size_t before;

	wdoc_heading(d, _("Python environments"));
	if (f->python_state.state != FACT_KNOWN)
		wdoc_text(d, 2, 4, WS_NORMAL, _("not looked for"));
	else if (f->python_envs.n == 0)
		wdoc_text(d, 2, 4, WS_NORMAL, _("none found"));
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];
		char *head;

		head = xasprintf("%s%s%s  %s%s", words_env_kind(e->kind),
		    e->name != NULL ? " " : "", e->name != NULL ? e->name : "",
		    e->prefix, e->active ? _("  (active)") : "");
		wdoc_text(d, 2, 6, e->active ? WS_HEADING : WS_NORMAL, head);
		free(head);
		if (e->python_version != NULL)
			wdoc_textf(d, 6, 6, WS_DIM, ngettext("Python %s, %zu package",
			    "Python %s, %zu packages", e->packages.n),
			    e->python_version, e->packages.n);
		else
			wdoc_textf(d, 6, 6, WS_DIM, ngettext("%zu package",
			    "%zu packages", e->packages.n), e->packages.n);
		for (size_t j = 0; j < e->frameworks.n; j++)
			framework(c, d, &e->frameworks.v[j]);
	}
	wdoc_heading(d, _("Findings about Python and frameworks"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_python = {
	.title = N_("Python environments and frameworks"),
	.build = build,
	.hint = N_("j/k: scroll  Tab: next section"),
};
