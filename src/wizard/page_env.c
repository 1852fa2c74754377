/* Environment variables: every entry of LD_LIBRARY_PATH, PATH and
 * LD_PRELOAD, the CUDA variables and ld.so.conf, each problem marked in
 * words (and its slot's colour): missing, empty, a duplicate, libraries
 * on PATH. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"
#include "wizard/pagefacts.h"

static const enum finding_code related[] = {
	FINDING_ENV_PATH_MISSING, FINDING_EMPTY_PATH_ENTRY,
	FINDING_DUPLICATE_PATH_ENTRY, FINDING_LIBDIR_ON_PATH,
	FINDING_CUDA_HOME_MISMATCH, FINDING_NO_VISIBLE_DEVICES,
	FINDING_LIB_SHADOWED, FINDING_MIXED_CUDA_VERSIONS,
};

/* Findings an entry of a search path or an ld.so.conf directory causes
 * (SONAME_NOT_FOUND's "not in LD_LIBRARY_PATH: …" names every entry it
 * looked in, and is not one). */
static const enum finding_code entry_codes[] = {
	FINDING_ENV_PATH_MISSING, FINDING_DUPLICATE_PATH_ENTRY,
	FINDING_LIBDIR_ON_PATH, FINDING_LIB_SHADOWED,
	FINDING_MIXED_CUDA_VERSIONS, FINDING_STUB_LIBCUDA,
	FINDING_WSL_LIBCUDA,
};

/* An entry its facts find fine, but a finding names: the finding's
 * glyph and code, never ✓. */
static bool
entry_named(const struct wpage_ctx *c, struct wdoc *d, size_t i,
    const char *value)
{
	const struct finding *f = wfinding_naming(&c->r->findings, entry_codes,
	    sizeof entry_codes / sizeof entry_codes[0], value, WN_PATH);

	if (f == NULL)
		return false;
	/* TRANSLATORS: an entry of a search path a finding is about:
	 * " 3 ! /opt/cuda/lib64  [see LIB_SHADOWED]". */
	wdoc_textf(d, 4, 10, wsev_slot(f->severity), _("%2zu %s %s  [see %s]"),
	    i + 1, wsev_glyph(c->g, f->severity), value,
	    finding_code_name(f->code));
	return true;
}

static void
entry(const struct wpage_ctx *c, struct wdoc *d, const struct path_var *pv,
    size_t i)
{
	const struct path_entry *e = &pv->entries.v[i];
	const struct wglyphs *g = c->g;

	if (e->empty)
		wdoc_textf(d, 4, 10, WS_WARNING, "%2zu %s %s", i + 1, g->warn,
		    _("(empty: the current directory)"));
	else if (e->exists == 0)
		wdoc_textf(d, 4, 10, WS_ERROR, _("%2zu %s %s  [missing]"), i + 1,
		    g->bad, e->value);
	else if (e->exists < 0)
		wdoc_textf(d, 4, 10, WS_WARNING, _("%2zu %s %s  [unreadable]"),
		    i + 1, g->warn, e->value);
	else if (e->duplicate_of >= 0)
		wdoc_textf(d, 4, 10, WS_WARNING, _("%2zu %s %s  [same as %ld]"),
		    i + 1, g->warn, e->value, e->duplicate_of + 1);
	else if (e->has_cuda_libs)
		wdoc_textf(d, 4, 10, WS_WARNING,
		    _("%2zu %s %s  [holds CUDA libraries]"), i + 1, g->warn,
		    e->value);
	else if (!entry_named(c, d, i, e->value))
		wdoc_textf(d, 4, 10, WS_NORMAL, "%2zu %s %s", i + 1, g->ok,
		    e->value);
}

static void
path_var(const struct wpage_ctx *c, struct wdoc *d, const struct path_var *pv,
    int lw)
{
	if (!pv->set) {
		wdoc_kv(d, 2, lw, pv->name, WS_DIM, _("(unset)"));
		return;
	}
	wdoc_text(d, 2, 4, WS_NORMAL, pv->name);
	if (pv->entries.n == 0)
		wdoc_text(d, 4, 4, WS_DIM, _("(set, empty)"));
	for (size_t i = 0; i < pv->entries.n; i++)
		entry(c, d, pv, i);
}

static void
build(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct env_facts *e = &c->r->facts->env;
	int lw = 0;
	size_t before;

	/* The variables' names are the labels: CUDA_VISIBLE_DEVICES and
	 * a gap, whatever the language. */
	for (size_t i = 0; i < ENV_VAR_COUNT; i++)
		lw = wlabel_fit(lw, e->var[i].name);
	lw = wlabel_fit(lw, e->ld_library_path.name);
	lw = wlabel_done(lw, c->body.cols);
	wdoc_heading(d, _("Search paths"));
	path_var(c, d, &e->ld_library_path, lw);
	path_var(c, d, &e->path, lw);
	if (e->ld_preload.set)
		path_var(c, d, &e->ld_preload, lw);
	wdoc_heading(d, _("CUDA variables"));
	for (size_t i = 0; i < ENV_VAR_COUNT; i++) {
		const struct env_var *v = &e->var[i];
		const struct finding *f;
		const char *val;
		char *t;

		if (!v->set) {
			wdoc_kv(d, 2, lw, v->name, WS_DIM, _("(unset)"));
			continue;
		}
		f = wfinding_naming(&c->r->findings, related,
		    sizeof related / sizeof related[0], v->name, WN_VAR);
		val = v->value[0] != '\0' ? v->value : _("(empty)");
		if (v->exists == 0)
			t = xasprintf(_("%s %s  [missing]"), c->g->bad, v->value);
		else if (f != NULL)
			t = xasprintf(_("%s %s  [see %s]"),
			    wsev_glyph(c->g, f->severity), val,
			    finding_code_name(f->code));
		else
			t = xstrdup(val);
		wdoc_kv(d, 2, lw, v->name, v->exists == 0 ? WS_ERROR :
		    f != NULL ? wsev_slot(f->severity) : WS_NORMAL, t);
		free(t);
	}
	wdoc_heading(d, "ld.so.conf");
	if (e->ldconf_state.state != FACT_KNOWN)
		wdoc_text(d, 2, 4, WS_WARNING, wfact_text(&e->ldconf_state, ""));
	else if (e->ldconf.n == 0)
		wdoc_text(d, 2, 4, WS_DIM, _("no directories"));
	for (size_t i = 0; i < e->ldconf.n; i++) {
		const struct ldconf_dir *l = &e->ldconf.v[i];
		const struct finding *f;

		if (l->exists == 0)
			wdoc_textf(d, 2, 6, WS_ERROR, _("%s %s  [missing] (%s)"),
			    c->g->bad, l->dir, l->from != NULL ? l->from : "?");
		else if ((f = wfinding_naming(&c->r->findings, entry_codes,
		    sizeof entry_codes / sizeof entry_codes[0], l->dir,
		    WN_PATH)) != NULL)
			/* TRANSLATORS: an ld.so.conf directory a finding is
			 * about: "! /opt/x/lib  (/etc/ld.so.conf.d/x.conf)
			 * [see MIXED_CUDA_VERSIONS]". */
			wdoc_textf(d, 2, 6, wsev_slot(f->severity),
			    _("%s %s  (%s)  [see %s]"), wsev_glyph(c->g, f->severity),
			    l->dir, l->from != NULL ? l->from : "?",
			    finding_code_name(f->code));
		else
			wdoc_textf(d, 2, 6, WS_NORMAL, "%s %s  (%s)", c->g->ok,
			    l->dir, l->from != NULL ? l->from : "?");
	}
	wdoc_heading(d, _("Findings about the environment"));
	before = d->n;
	wdoc_findings_of(d, c, related, sizeof related / sizeof related[0]);
	if (d->n == before)
		wdoc_textf(d, 2, 4, WS_OK, "%s %s", c->g->ok, _("none"));
}

const struct wpage page_env = {
	.title = N_("Environment variables"),
	.build = build,
	.hint = N_("j/k: scroll  Tab: next section"),
};
