/* The text view of a fleet: one line for the whole, then each list that
 * has something in it, most telling first (findings shared by the most
 * hosts, drift, stale, unreadable, duplicates). */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/fleet.h"
#include "present/style.h"
#include "util/xalloc.h"

static void
names(FILE *fp, const struct fleet *fl, const struct fleet_idx *x)
{
	for (size_t i = 0; i < x->n; i++)
		fprintf(fp, "%s%s", i > 0 ? ", " : "",
		    fl->hosts.v[x->v[i]].host);
}

static void
heading(FILE *fp, const char *s, bool color)
{
	fprintf(fp, "\n%s%s%s\n", style_bold(color), s, style_off(color));
}

static void
groups(FILE *fp, const struct fleet *fl, bool color)
{
	if (fl->groups.n == 0) {
		fputs(_("\nNo host has a finding.\n"), fp);
		return;
	}
	heading(fp, _("Findings, the most hosts first:"), color);
	for (size_t i = 0; i < fl->groups.n; i++) {
		const struct fleet_group *g = &fl->groups.v[i];

		fprintf(fp, "  %s%s%s (%s), ", style_sev_on(g->worst, color),
		    g->code, style_off(color), severity_name(g->worst));
		fprintf(fp, ngettext("%zu host: ", "%zu hosts: ", g->hosts.n),
		    g->hosts.n);
		names(fp, fl, &g->hosts);
		fputc('\n', fp);
	}
}

static void
drift_item(FILE *fp, const struct fleet *fl, const struct fleet_drift *d)
{
	const char *absent = _("(absent)");

	fprintf(fp, "  %s: ", d->key);
	if (d->tie)
		fputs(_("no majority"), fp);
	else if (fl->baseline != NULL)
		fprintf(fp, _("%s on the baseline"),
		    d->ref_absent ? absent : d->ref);
	else
		fprintf(fp, ngettext("%s on %zu host", "%s on %zu hosts",
		    d->ref_hosts), d->ref_absent ? absent : d->ref,
		    d->ref_hosts);
	for (size_t i = 0; i < d->values.n; i++) {
		const struct fleet_value *v = &d->values.v[i];

		fprintf(fp, "; %s: ", v->value != NULL ? v->value : absent);
		names(fp, fl, &v->hosts);
	}
	fputc('\n', fp);
}

static void
drift(FILE *fp, const struct fleet *fl, bool color)
{
	char *h;

	if (fl->compared == 0)
		return;
	if (fl->drift.n == 0) {
		fprintf(fp, ngettext("\nNo drift: the %zu host compared has "
		    "the same spec.\n", "\nNo drift: the %zu hosts compared "
		    "have the same spec.\n", fl->compared), fl->compared);
		return;
	}
	if (fl->baseline != NULL)
		h = xasprintf(_("Drift from the baseline %s (%s), %zu hosts "
		    "compared:"), fl->baseline, fl->baseline_host != NULL ?
		    fl->baseline_host : "?", fl->compared);
	else
		h = xasprintf(_("Drift from the majority, %zu hosts compared:"),
		    fl->compared);
	heading(fp, h, color);
	free(h);
	for (size_t i = 0; i < fl->drift.n; i++)
		drift_item(fp, fl, &fl->drift.v[i]);
}

static void
hosts_list(FILE *fp, const struct fleet *fl, const struct fleet_idx *x,
    const char *title, bool color, bool age)
{
	if (x->n == 0)
		return;
	heading(fp, title, color);
	for (size_t i = 0; i < x->n; i++) {
		const struct fleet_report *r = &fl->hosts.v[x->v[i]];

		fprintf(fp, "  %s", r->host);
		if (age)
			fprintf(fp, _(": %s, %lld h old"), r->time != NULL ?
			    r->time : "?",
			    (long long)((fl->now - r->time_unix) / 3600));
		fprintf(fp, " (%s)\n", r->file);
	}
}

int
fleet_print_text(FILE *fp, const struct fleet *fl, bool color)
{
	char *h;

	fprintf(fp, "%s%s %s fleet%s\n", style_bold(color), PACKAGE, VERSION,
	    style_off(color));
	/* TRANSLATORS: fleet's first line: how many hosts, from how many
	 * files, then how many of them are unwell in each way. */
	fprintf(fp, _("%zu hosts from %zu files: %zu with an error finding, "
	    "%zu stale, %zu unreadable, %zu duplicates.\n"), fl->hosts.n,
	    fl->files, fl->with_errors.n, fl->stale.n, fl->unreadable.n,
	    fl->duplicates.n);
	if (fl->hosts.n == 0)
		fputs(_("No report could be read.\n"), fp);
	groups(fp, fl, color);
	drift(fp, fl, color);
	h = xasprintf(_("Stale reports (older than %ld h):"),
	    fl->max_age_s / 3600);
	hosts_list(fp, fl, &fl->stale, h, color, true);
	free(h);
	hosts_list(fp, fl, &fl->no_time, _("Reports with no time (made by "
	    "an older cudawiz; their age is unknown):"), color, false);
	hosts_list(fp, fl, &fl->no_spec, _("Reports with no spec (not "
	    "compared):"), color, false);
	if (fl->unreadable.n > 0) {
		heading(fp, _("Unreadable reports:"), color);
		for (size_t i = 0; i < fl->unreadable.n; i++)
			fprintf(fp, "  %s: %s\n", fl->unreadable.v[i].file,
			    fl->unreadable.v[i].why);
	}
	if (fl->duplicates.n > 0) {
		heading(fp, _("Duplicate reports (the newest of a host is "
		    "kept):"), color);
		for (size_t i = 0; i < fl->duplicates.n; i++)
			fprintf(fp, _("  %s: %s, also in %s\n"),
			    fl->duplicates.v[i].file, fl->duplicates.v[i].host,
			    fl->duplicates.v[i].kept);
	}
	return ferror(fp) ? -1 : 0;
}
