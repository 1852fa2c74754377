/* Environment variables: every entry of LD_LIBRARY_PATH, PATH and
 * LD_PRELOAD, the CUDA variables and ld.so.conf, each problem marked in
 * words (and its slot's colour): missing, empty, a duplicate, libraries
 * on PATH. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "util/xalloc.h"
#include "wizard/page.h"

static const enum finding_code related[] = {
	FINDING_ENV_PATH_MISSING, FINDING_EMPTY_PATH_ENTRY,
	FINDING_DUPLICATE_PATH_ENTRY, FINDING_LIBDIR_ON_PATH,
	FINDING_CUDA_HOME_MISMATCH, FINDING_NO_VISIBLE_DEVICES,
	FINDING_LIB_SHADOWED, FINDING_MIXED_CUDA_VERSIONS,
};

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
	else
		wdoc_textf(d, 4, 10, WS_NORMAL, "%2zu %s %s", i + 1, g->ok,
		    e->value);
}

static void
path_var(const struct wpage_ctx *c, struct wdoc *d, const struct path_var *pv)
{
	if (!pv->set) {
		wdoc_kv(d, 2, 22, pv->name, WS_DIM, _("(unset)"));
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
	size_t before;

	wdoc_heading(d, _("Search paths"));
	path_var(c, d, &e->ld_library_path);
	path_var(c, d, &e->path);
	if (e->ld_preload.set)
		path_var(c, d, &e->ld_preload);
	wdoc_heading(d, _("CUDA variables"));
	for (size_t i = 0; i < ENV_VAR_COUNT; i++) {
		const struct env_var *v = &e->var[i];
		char *t;

		if (!v->set) {
			wdoc_kv(d, 2, 22, v->name, WS_DIM, _("(unset)"));
			continue;
		}
		t = v->exists == 0 ? xasprintf(_("%s %s  [missing]"), c->g->bad,
		    v->value) : xstrdup(v->value[0] != '\0' ? v->value : _("(empty)"));
		wdoc_kv(d, 2, 22, v->name, v->exists == 0 ? WS_ERROR : WS_NORMAL, t);
		free(t);
	}
	wdoc_heading(d, "ld.so.conf");
	if (e->ldconf_state.state != FACT_KNOWN)
		wdoc_text(d, 2, 4, WS_WARNING, wfact_text(&e->ldconf_state, ""));
	else if (e->ldconf.n == 0)
		wdoc_text(d, 2, 4, WS_DIM, _("no directories"));
	for (size_t i = 0; i < e->ldconf.n; i++) {
		const struct ldconf_dir *l = &e->ldconf.v[i];

		if (l->exists == 0)
			wdoc_textf(d, 2, 6, WS_ERROR, _("%s %s  [missing] (%s)"),
			    c->g->bad, l->dir, l->from != NULL ? l->from : "?");
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
