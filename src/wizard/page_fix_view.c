/* The Fix page's two scrolled views: the script as it will be written,
 * and the before/after check of the written file (the rows `cudawiz env
 * --check` prints, from src/envplan/check.h). Documents only: the page
 * scrolls them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "util/envp.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wizard/fix.h"
#include "wizard/page.h"

static const char *const shown_vars[] = { "PATH", "LD_LIBRARY_PATH",
    "CUDA_HOME", "CUDA_PATH" };

/* Tabs as a terminal shows them, to the next multiple of 8 columns: a
 * tab is a control character the screen would show as '?'. */
static char *
expand_tabs(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	size_t col = 0;

	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '\t') {
			do
				strbuf_putc(&sb, ' ');
			while (++col % 8 != 0);
			continue;
		}
		strbuf_putc(&sb, *p);
		/* Columns counted in bytes outside continuation bytes:
		 * enough for where the tabs of a script fall. */
		if (*p == '\n')
			col = 0;
		else if (((unsigned char)*p & 0xc0) != 0x80)
			col++;
	}
	return strbuf_take(&sb);
}

void
wfix_build_preview(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;
	enum script_format fmt = wfix_format(fx);
	char *script;

	if (!fx->rendered) {
		wdoc_text(d, 0, 2, WS_ERROR, fx->render_err != NULL ?
		    fx->render_err : "?");
		return;
	}
	if (fmt == SCRIPT_CONDA)
		wdoc_textf(d, 0, 2, WS_HEADING, _("A %s script, for the conda "
		    "environment's activate.d"), script_format_name(fmt));
	else
		wdoc_textf(d, 0, 2, WS_HEADING, _("A %s script, to be written to %s"),
		    script_format_name(fmt), fx->path.text);
	d->v[d->n - 1].heading = true;
	wdoc_text(d, 0, 0, WS_DIM, _("Esc: back to the choices  Enter or w: "
	    "write and check it  c: copy it  Left/Right: scroll"));
	wdoc_blank(d);
	/* The script as it is, never wrapped: a line wider than the body
	 * scrolls sideways, so what is copied from the screen pastes. */
	script = expand_tabs(fx->text.text);
	wdoc_command(d, 0, WS_NORMAL, script);
	free(script);
	if (fx->rep.unfixable.n > 0) {
		wdoc_heading(d, _("Not fixed by any script"));
		for (size_t i = 0; i < fx->rep.unfixable.n; i++)
			wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn,
			    fx->rep.unfixable.v[i]);
	}
}

static void
side_line(struct wdoc *d, const char *label, const struct check_side *s)
{
	switch (s->state) {
	case NEED_RESOLVES:
		wdoc_textf(d, 6, 14, WS_NORMAL, "%s %s", label, s->path);
		break;
	case NEED_SHADOWED:
		wdoc_textf(d, 6, 14, WS_NORMAL, _("%s %s (not the copy the "
		    "framework expects)"), label, s->path);
		break;
	case NEED_STUB:
		wdoc_textf(d, 6, 14, WS_NORMAL, _("%s %s (a stub: it cannot work)"),
		    label, s->path);
		break;
	case NEED_MISSING:
		wdoc_textf(d, 6, 14, WS_NORMAL, _("%s not found"), label);
		break;
	case NEED_ABSENT:
		wdoc_textf(d, 6, 14, WS_NORMAL, _("%s (not looked up)"), label);
		break;
	}
}

static enum wslot
verdict_slot(enum need_verdict v)
{
	switch (v) {
	case VERDICT_FIXED:
		return WS_OK;
	case VERDICT_STILL_BROKEN:
		return WS_WARNING;
	case VERDICT_BROKEN:
		return WS_ERROR;
	case VERDICT_UNCHANGED:
	case VERDICT_MOVED:
		break;
	}
	return WS_NORMAL;
}

static void
vars(const struct wpage_ctx *c, struct wdoc *d, const struct env_check *ec)
{
	bool any = false;

	wdoc_heading(d, _("What it changes"));
	for (size_t i = 0; i < sizeof shown_vars / sizeof *shown_vars; i++) {
		const char *b = envp_get(c->r->envp, shown_vars[i]);
		const char *a = envp_get(ec->src.envp, shown_vars[i]);

		if ((b == NULL) == (a == NULL) && (b == NULL || strcmp(a, b) == 0))
			continue;
		any = true;
		wdoc_text(d, 2, 2, WS_NORMAL, shown_vars[i]);
		if (b != NULL)
			wdoc_textf(d, 6, 14, WS_DIM, _("before: '%s'"), b);
		else
			wdoc_text(d, 6, 14, WS_DIM, _("before: unset"));
		if (a != NULL)
			wdoc_textf(d, 6, 14, WS_NORMAL, _("after:  '%s'"), a);
		else
			wdoc_text(d, 6, 14, WS_NORMAL, _("after:  unset"));
	}
	if (!any)
		wdoc_text(d, 2, 4, WS_NORMAL, _("nothing"));
}

static void
rows(struct wdoc *d, const struct env_check *ec)
{
	bool any = false;

	wdoc_heading(d, _("What the frameworks need"));
	for (size_t i = 0; i < ec->rows.n; i++) {
		const struct check_row *r = &ec->rows.v[i];

		if (r->framework == NULL)
			continue;
		any = true;
		wdoc_textf(d, 2, 4, verdict_slot(r->verdict), _("%s for %s (%s)%s: %s"),
		    r->soname, r->framework, r->env, r->optional ? _(", optional") :
		    "", env_check_verdict_words(r->verdict));
		side_line(d, _("before:"), &r->before);
		side_line(d, _("after: "), &r->after);
	}
	if (!any)
		wdoc_text(d, 2, 4, WS_NORMAL, _("(no framework that runs on the GPU "
		    "was found)"));
	wdoc_heading(d, _("CUDA libraries"));
	for (size_t i = 0; i < ec->rows.n; i++) {
		const struct check_row *r = &ec->rows.v[i];

		if (r->framework != NULL)
			continue;
		/* Missing on both sides and optional: noise, as in the
		 * command's report. */
		if (r->optional && r->verdict == VERDICT_STILL_BROKEN)
			continue;
		wdoc_textf(d, 2, 4, verdict_slot(r->verdict), "%s: %s", r->soname,
		    env_check_verdict_words(r->verdict));
		if (r->verdict != VERDICT_UNCHANGED)
			side_line(d, _("before:"), &r->before);
		side_line(d, _("after: "), &r->after);
	}
}

static void
live_and_findings(const struct wpage_ctx *c, struct wdoc *d,
    const struct env_check *ec)
{
	wdoc_heading(d, _("Live runtime check"));
	if (ec->live_why != NULL)
		wdoc_textf(d, 2, 4, WS_DIM, _("not run: %s"), ec->live_why);
	else if (ec->live.n == 0)
		wdoc_text(d, 2, 4, WS_DIM, _("not run: no CUDA runtime resolves in "
		    "the script's environment"));
	for (size_t i = 0; i < ec->live.n; i++) {
		char *b = env_check_live_words(&ec->live.v[i].before);
		char *a = env_check_live_words(&ec->live.v[i].after);

		wdoc_text(d, 2, 4, WS_NORMAL, ec->live.v[i].soname);
		wdoc_textf(d, 6, 14, WS_DIM, _("before: %s"), b);
		wdoc_textf(d, 6, 14, WS_NORMAL, _("after:  %s"), a);
		free(b);
		free(a);
	}
	wdoc_heading(d, _("Findings"));
	for (size_t i = 0; i < ec->gone.n; i++)
		wdoc_textf(d, 2, 4, WS_OK, _("%s gone: %s"), c->g->ok, ec->gone.v[i]);
	for (size_t i = 0; i < ec->new.n; i++)
		wdoc_textf(d, 2, 4, WS_ERROR, _("%s new:  %s"), c->g->bad,
		    ec->new.v[i]);
	if (ec->gone.n + ec->new.n == 0)
		wdoc_text(d, 2, 4, WS_NORMAL, _("the same before and after"));
	wdoc_blank(d);
	if (ec->ok)
		wdoc_textf(d, 0, 2, WS_OK, "%s %s", c->g->ok, _("Result: inside the "
		    "script's environment every library the frameworks need "
		    "resolves, and nothing that worked stopped working."));
	else
		wdoc_textf(d, 0, 2, WS_ERROR, "%s %s", c->g->bad, _("Result: the "
		    "script does not fix everything: see the rows marked above."));
}

/* How to use it, first: the line to paste, never wrapped. */
static void
activate_part(const struct wfix *fx, struct wdoc *d)
{
	char *how = wfix_howto(fx);

	if (how == NULL)
		return;
	wdoc_blank(d);
	wdoc_command(d, 2, WS_KEY, how);
	free(how);
}

void
wfix_build_result(const struct wpage_ctx *c, struct wdoc *d)
{
	const struct wfix *fx = c->fix;

	if (fx->check_pending || fx->check_running) {
		wdoc_textf(d, 0, 2, WS_HEADING, _("Checking %s%s"), fx->w_path,
		    c->g->ellipsis);
		wdoc_blank(d);
		wdoc_textf(d, 2, 2, WS_NORMAL, _("The script is sourced in its "
		    "shell and the machine is probed twice, before and inside it. "
		    "Each step stops after %.0f s."), fx->r->check_timeout_s);
		wdoc_blank(d);
		/* No clock (tests): no number, so the screens stay the same. */
		if (c->busy_s >= 0)
			wdoc_textf(d, 2, 2, WS_DIM, _("running for %.0f s (Esc, q or "
			    "Ctrl-C stops it)"), c->busy_s);
		else
			wdoc_text(d, 2, 2, WS_DIM, _("Esc, q or Ctrl-C stops it"));
		return;
	}
	if (fx->check_err != NULL) {
		wdoc_textf(d, 0, 2, WS_HEADING, _("Check of %s"), fx->w_path);
		wdoc_blank(d);
		if (fx->check_stopped)
			wdoc_textf(d, 2, 4, WS_WARNING, "%s %s", c->g->warn,
			    _("stopped: the check did not finish, so it proves "
			    "nothing yet (Check again runs it anew)"));
		else
			wdoc_textf(d, 2, 4, WS_ERROR, "%s %s", c->g->bad,
			    fx->check_err);
		wdoc_blank(d);
		wdoc_text(d, 0, 0, WS_DIM, _("Esc: back to the choices"));
		return;
	}
	if (!fx->checked) {
		wdoc_text(d, 0, 0, WS_NORMAL, _("No check has run."));
		return;
	}
	wdoc_textf(d, 0, 2, WS_HEADING, _("Check of %s: a %s script, sourced in %s"),
	    fx->w_path, script_format_name(fx->check.fmt), fx->check.src.shell);
	d->v[d->n - 1].heading = true;
	wdoc_text(d, 0, 0, WS_DIM, _("Esc: back to the choices  c: copy the "
	    "activate line"));
	activate_part(fx, d);
	vars(c, d, &fx->check);
	rows(d, &fx->check);
	live_and_findings(c, d, &fx->check);
}
