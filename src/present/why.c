/* See why.h. */
#include "config.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts/stepsource.h"
#include "i18n.h"
#include "present/json.h"
#include "present/style.h"
#include "present/text.h"
#include "present/why.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Steps the resolver made but did not keep (resolve.h's caps), in the
 * whole answer. */
static size_t
steps_cut(const struct why_view *w)
{
	size_t n = w->res->steps_cut;

	for (size_t i = 0; i < w->deps->resolutions.n; i++)
		n += w->deps->resolutions.v[i].steps_cut;
	return n;
}

/* ------------------------------------------------------------------ JSON */

/* "steps_cut" only where steps were cut, so an ordinary answer's
 * document is unchanged. */
static void
put_steps_cut(json_t *o, size_t cut)
{
	if (cut > 0)
		json_object_set_new(o, "steps_cut", json_integer((json_int_t)cut));
}

/* What was cut, for the whole answer; nothing when nothing was. */
static void
put_cut_note(json_t *o, size_t cut)
{
	json_t *t;

	if (cut == 0)
		return;
	t = json_object();
	json_object_set_new(t, "steps_cut", json_integer((json_int_t)cut));
	json_object_set_new(t, "steps_per_name_max",
	    json_integer(RESOLVE_STEPS_PER_NAME));
	json_object_set_new(t, "steps_per_run_max",
	    json_integer(RESOLVE_STEPS_PER_RUN));
	json_object_set_new(o, "truncated", t);
}

static json_t *
steps_json(const struct resolution *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->steps.n; i++)
		json_array_append_new(a, json_step(&r->steps.v[i]));
	return a;
}

static json_t *
closure_json(const struct closure *c)
{
	json_t *a = json_array();

	for (size_t i = 0; i < c->resolutions.n; i++) {
		const struct resolution *r = &c->resolutions.v[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", jstr(r->name));
		json_object_set_new(o, "needed_by", jstr(r->requester));
		json_object_set_new(o, "resolved", jstr(r->resolved));
		json_object_set_new(o, "via", r->resolved != NULL ?
		    json_string(step_source_name(r->via)) : json_null());
		json_object_set_new(o, "error", jstr(r->error));
		json_object_set_new(o, "steps", steps_json(r));
		put_steps_cut(o, r->steps_cut);
		json_object_set_new(o, "other_copies", jstrv(&r->other_copies));
		json_array_append_new(a, o);
	}
	return a;
}

int
why_print_json(FILE *fp, const struct why_view *w)
{
	const struct loader_profile *p = &w->ls->prof;
	json_t *o = json_object(), *lo = json_object();
	int rc;

	json_object_set_new(o, "schema", json_string("cudawiz/why/1"));
	json_object_set_new(o, "version", json_string(VERSION));
	json_object_set_new(o, "root", jstr(sysroot_dir(w->ls->env.sr)));
	json_object_set_new(o, "soname", jstr(w->name));
	json_object_set_new(o, "from", jstr(w->from));
	json_object_set_new(o, "resolved", jstr(w->res->resolved));
	json_object_set_new(o, "via", w->res->resolved != NULL ?
	    json_string(step_source_name(w->res->via)) : json_null());
	json_object_set_new(o, "error", jstr(w->error != NULL ? w->error :
	    w->res->error));
	json_object_set_new(o, "steps", steps_json(w->res));
	put_steps_cut(o, w->res->steps_cut);
	json_object_set_new(o, "other_copies", jstrv(&w->res->other_copies));
	json_object_set_new(o, "closure", closure_json(w->deps));
	json_object_set_new(lo, "ld_library_path", jstr(w->ls->ld_library_path));
	json_object_set_new(lo, "system_dirs", jstrv(&p->system_dirs));
	json_object_set_new(lo, "subdirs", jstrv(&p->subdirs));
	json_object_set_new(lo, "lib", jstr(p->dst_lib));
	json_object_set_new(lo, "platform", jstr(p->dst_platform));
	json_object_set_new(lo, "cache", jstr(p->cache_path));
	json_object_set_new(lo, "cache_error", jstr(w->ls->cache_error));
	json_object_set_new(lo, "source", jstr(p->source));
	json_object_set_new(o, "loader", lo);
	json_object_set_new(o, "findings", findings_json(w->findings));
	put_cut_note(o, steps_cut(w));
	rc = json_write(fp, o);
	json_decref(o);
	return rc;
}

/* ------------------------------------------------------------------ text */

/* A search list of 10,000 directories (a startup script that prepends on
 * every shell) must not bury the answer: the text shows the head and the
 * tail of the steps, and every step that found or stopped at a file;
 * --json keeps all of them. */
#define WHY_STEPS_HEAD	20
#define WHY_STEPS_TAIL	5
#define WHY_LIST_MAX	10
/* How much of LD_LIBRARY_PATH the header line shows. */
#define WHY_LLP_ENTRIES	5
#define WHY_LLP_BYTES	200

static void
print_step(FILE *fp, size_t n, const struct resolve_step *s)
{
	fprintf(fp, "  %2zu. %-16s ", n, step_words(s->source, STEPW_STEP));
	if (s->dir != NULL)
		fprintf(fp, "%s", s->dir[0] != '\0' ? s->dir : _("(current directory)"));
	if (s->spec != NULL)
		fprintf(fp, s->dir != NULL ? " (%s)" : "%s", s->spec);
	if (s->owner != NULL && (s->source == STEP_RPATH || s->source == STEP_RUNPATH))
		fprintf(fp, _(" of %s"), s->owner);
	switch (s->result) {
	case STEP_NOT_FOUND:
		fprintf(fp, s->path != NULL ? ": %s (%s)" : ": %s", _("not found"),
		    s->path);
		break;
	case STEP_DIR_MISSING:
		fprintf(fp, ": %s", _("no such directory"));
		break;
	case STEP_FOUND:
		fprintf(fp, s->dir != NULL ? ": %s %s" : "%s %s", _("found"), s->path);
		break;
	case STEP_SKIPPED:
		fprintf(fp, _(": skipped %s (%s)"), s->path, s->detail);
		break;
	case STEP_FATAL:
		fprintf(fp, _(": %s stops the loader: %s"), s->path, s->detail);
		break;
	case STEP_DROPPED:
	case STEP_NODEFLIB:
		fprintf(fp, _(": left out (%s)"), s->detail);
		break;
	}
	if (s->result == STEP_NOT_FOUND && s->detail != NULL)
		fprintf(fp, " (%s)", s->detail);
	fputc('\n', fp);
}

static bool
step_shown(const struct resolution *r, size_t i)
{
	enum step_result res = r->steps.v[i].result;

	return i < WHY_STEPS_HEAD || i + WHY_STEPS_TAIL >= r->steps.n ||
	    res == STEP_FOUND || res == STEP_FATAL;
}

static void
print_steps(FILE *fp, const struct resolution *r)
{
	size_t hidden = 0;

	for (size_t i = 0; i < r->steps.n; i++) {
		if (!step_shown(r, i)) {
			hidden++;
			continue;
		}
		if (hidden > 0)
			fprintf(fp, ngettext("      … %zu more step (see --json)\n",
			    "      … %zu more steps (see --json)\n", hidden),
			    hidden);
		hidden = 0;
		print_step(fp, i + 1, &r->steps.v[i]);
	}
	if (r->steps_cut > 0)
		fprintf(fp, ngettext("      … %zu more step, not kept\n",
		    "      … %zu more steps, not kept\n", r->steps_cut),
		    r->steps_cut);
}

/* How many of a list of copies to show; what is left is counted. */
static size_t
copies_shown(const struct strv *copies)
{
	return copies->n < WHY_LIST_MAX ? copies->n : WHY_LIST_MAX;
}

static void
print_more(FILE *fp, const char *indent, size_t more)
{
	if (more == 0)
		return;
	fputs(indent, fp);
	fprintf(fp, ngettext("… and %zu more", "… and %zu more", more), more);
	fputc('\n', fp);
}

static void
print_resolution(FILE *fp, const struct resolution *r, bool color)
{
	print_steps(fp, r);
	if (r->resolved != NULL)
		fprintf(fp, "  %s%s%s %s\n", style_bold(color), _("resolved:"),
		    style_off(color), r->resolved);
	else
		fprintf(fp, "  %s%s%s %s\n", style_bold(color), _("not loaded:"),
		    style_off(color), r->error != NULL ? r->error : "");
	if (r->other_copies.n > 0) {
		fprintf(fp, "  %s\n", r->resolved != NULL ?
		    _("other copies (not loaded):") :
		    _("it exists, but no step reaches it:"));
		for (size_t i = 0; i < copies_shown(&r->other_copies); i++)
			fprintf(fp, "    %s\n", r->other_copies.v[i]);
		print_more(fp, "    ", r->other_copies.n -
		    copies_shown(&r->other_copies));
	}
}

static void
print_cut_note(FILE *fp, size_t cut)
{
	if (cut == 0)
		return;
	fputc('\n', fp);
	fprintf(fp, ngettext("Note: %zu search step was not kept (at most %d are kept for one name, %d in all); what each name resolves to is unaffected.\n",
	    "Note: %zu search steps were not kept (at most %d are kept for one name, %d in all); what each name resolves to is unaffected.\n",
	    cut), cut, RESOLVE_STEPS_PER_NAME, RESOLVE_STEPS_PER_RUN);
}

/* LD_LIBRARY_PATH for the header: whole when short, else its first
 * entries and how many there are. NULL for NULL. */
static char *
shown_llp(const char *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t entries = 1, shown = 0;
	const char *p = v;

	if (v == NULL)
		return NULL;
	for (const char *c = v; *c != '\0'; c++)
		entries += *c == ':';
	if (entries <= WHY_LLP_ENTRIES && strlen(v) <= WHY_LLP_BYTES)
		return xstrdup(v);
	for (;;) {
		size_t n = strcspn(p, ":");

		strbuf_add(&sb, p, n < WHY_LLP_BYTES ? n : WHY_LLP_BYTES);
		shown++;
		if (p[n] == '\0' || shown == WHY_LLP_ENTRIES ||
		    sb.len >= WHY_LLP_BYTES)
			break;
		strbuf_putc(&sb, ':');
		p += n + 1;
	}
	strbuf_puts(&sb, ":… ");
	strbuf_printf(&sb, ngettext("(%zu entry in all, see --json)",
	    "(%zu entries in all, see --json)", entries), entries);
	return strbuf_take(&sb);
}

int
why_print_text(FILE *fp, const struct why_view *w, bool color)
{
	const struct closure *c = w->deps;
	char *llp;

	if (w->name != NULL) {
		fprintf(fp, "%s%s%s ", style_bold(color), w->name, style_off(color));
		if (w->from != NULL)
			fprintf(fp, _("as dlopen()ed by %s\n"), w->from);
		else
			fputs(_("as dlopen()ed by a program with no RPATH or RUNPATH\n"), fp);
	} else {
		fprintf(fp, _("%s%s%s and what it loads\n"), style_bold(color),
		    w->from, style_off(color));
	}
	llp = shown_llp(w->ls->ld_library_path);
	fprintf(fp, _("loader: %s; LD_LIBRARY_PATH %s%s\n"),
	    w->ls->prof.source, w->ls->ld_library_path != NULL ? "=" : _("unset"),
	    llp != NULL ? llp : "");
	free(llp);
	if (w->ls->cache_error != NULL)
		fprintf(fp, _("ld.so.cache: %s\n"), w->ls->cache_error);
	if (w->error != NULL) {
		fprintf(fp, "%s\n", w->error);
		return ferror(fp) ? -1 : 0;
	}
	if (w->name != NULL)
		print_resolution(fp, w->res, color);
	if (c->resolutions.n > 0) {
		fprintf(fp, "\n%s%s%s\n", style_bold(color), w->name != NULL ?
		    _("What it loads in turn:") : _("What it loads:"),
		    style_off(color));
		for (size_t i = 0; i < c->resolutions.n; i++) {
			const struct resolution *r = &c->resolutions.v[i];

			/* A name an earlier object answers to loads nothing. */
			if (r->resolved != NULL && r->via == STEP_LOADED)
				continue;
			if (r->resolved != NULL)
				fprintf(fp, "  %s => %s (%s)\n", r->name, r->resolved,
				    step_words(r->via, STEPW_STEP));
			else
				fprintf(fp, "  %s => %s\n", r->name,
				    r->error != NULL ? r->error : _("not found"));
			if (r->resolved != NULL)
				continue;
			for (size_t j = 0; j < copies_shown(&r->other_copies); j++)
				fprintf(fp, _("      exists off the search path: %s\n"),
				    r->other_copies.v[j]);
			print_more(fp, "      ", r->other_copies.n -
			    copies_shown(&r->other_copies));
		}
	}
	print_cut_note(fp, steps_cut(w));
	if (w->findings->n > 0) {
		fprintf(fp, "\n%s%s%s\n", style_bold(color), _("Findings"),
		    style_off(color));
		text_print_findings(fp, w->findings, color);
	}
	return ferror(fp) ? -1 : 0;
}
