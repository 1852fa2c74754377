/* Helpers the pages share; see page.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/page.h"

enum wslot
wsev_slot(enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		return WS_ERROR;
	case SEV_WARNING:
		return WS_WARNING;
	case SEV_INFO:
		break;
	}
	return WS_INFO;
}

const char *
wsev_glyph(const struct wglyphs *g, enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		return g->bad;
	case SEV_WARNING:
		return g->warn;
	case SEV_INFO:
		break;
	}
	return g->info;
}

const char *
wfact_text(const struct fact_str *f, const char *absent)
{
	if (f->state == FACT_KNOWN)
		return f->value != NULL ? f->value : absent;
	if (f->state == FACT_UNREADABLE)
		return _("unreadable");
	return _("unknown");
}

void
wdoc_fact(struct wdoc *d, int indent, int labelw, const char *label,
    const struct fact_str *f, const char *absent)
{
	char *v;

	if (f->state == FACT_KNOWN && f->value != NULL && f->source != NULL)
		v = xasprintf("%s (%s)", f->value, f->source);
	else if (f->state != FACT_KNOWN && f->why != NULL)
		v = xasprintf("%s (%s)", wfact_text(f, absent), f->why);
	else
		v = xstrdup(wfact_text(f, absent));
	wdoc_kv(d, indent, labelw, label,
	    f->state == FACT_UNREADABLE ? WS_WARNING : WS_NORMAL, v);
	free(v);
}

const char *
wfinding_text(const struct finding *f)
{
	return f->subject != NULL && f->subject[0] != '\0' ? f->subject :
	    _(finding_title(f->code));
}

char *
wfinding_headline(const struct finding *f)
{
	if (f->subject == NULL || f->subject[0] == '\0')
		return xstrdup(_(finding_title(f->code)));
	return xasprintf(_("%s: %s"), f->subject, _(finding_title(f->code)));
}

char *
wcut(const char *text, int cols, const char *ellipsis)
{
	int ew = wtext_width(ellipsis);
	size_t fit;

	if (wtext_width(text) <= cols)
		return xstrdup(text);
	if (cols <= ew)
		return xstrndup(text, wtext_fit(text, cols > 0 ? cols : 0));
	fit = wtext_fit(text, cols - ew);
	/* No blank before the mark: "libcudart…", not "libcudart …". */
	while (fit > 0 && text[fit - 1] == ' ')
		fit--;
	return xasprintf("%.*s%s", (int)fit, text, ellipsis);
}

char *
wcounts(const struct findings *fs)
{
	/* The words every view uses, joined as the language joins a list. */
	return words_counts(findings_count(fs, SEV_ERROR),
	    findings_count(fs, SEV_WARNING), findings_count(fs, SEV_INFO));
}

void
wdoc_findings_of(struct wdoc *d, const struct wpage_ctx *c,
    const enum finding_code *codes, size_t ncodes)
{
	const struct findings *fs = &c->r->findings;
	int item = d->item;

	for (size_t i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->v[i];

		for (size_t j = 0; j < ncodes; j++) {
			if (f->code != codes[j])
				continue;
			d->item = (int)i;
			wdoc_textf(d, 2, 4, wsev_slot(f->severity), "%s %s (%s)",
			    wsev_glyph(c->g, f->severity), wfinding_text(f),
			    finding_code_name(f->code));
			break;
		}
	}
	d->item = item;
}

char *
wjoin(const struct strv *sv, const char *sep)
{
	size_t len = 1, off = 0;
	char *out;

	for (size_t i = 0; i < sv->n; i++)
		len += strlen(sv->v[i]) + strlen(sep);
	out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < sv->n; i++) {
		size_t l = strlen(sv->v[i]);

		if (i > 0) {
			memcpy(out + off, sep, strlen(sep));
			off += strlen(sep);
		}
		memcpy(out + off, sv->v[i], l);
		off += l;
	}
	out[off] = '\0';
	return out;
}
