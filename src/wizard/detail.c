/* A finding's detail as a document, and its fix as the copy key's text;
 * see page.h. */
#include "config.h"

#include <stdlib.h>

#include "i18n.h"
#include "present/words.h"
#include "util/xalloc.h"
#include "wizard/installs.h"
#include "wizard/page.h"

/* For each environment finding f's fix installs into where other
 * findings install too: the one command that does all of it. */
static void
combined_installs(struct wdoc *d, const struct findings *fs,
    const struct finding *f)
{
	struct strv seen = STRV_INIT;

	for (size_t i = 0; i < f->fix.n; i++) {
		char *target = winstall_target(f->fix.v[i]);
		char *all;

		if (target == NULL || strv_contains(&seen, target)) {
			free(target);
			continue;
		}
		all = winstall_combined(fs, target);
		strv_push_owned(&seen, target);
		if (all == NULL)
			continue;
		wdoc_blank(d);
		wdoc_text(d, 2, 2, WS_NORMAL, _("All the installs for this "
		    "environment in one command:"));
		wdoc_command(d, 2, WS_KEY, all);
		free(all);
	}
	strv_free(&seen);
}

void
wdoc_finding_detail(struct wdoc *d, const struct wpage_ctx *c, size_t i)
{
	const struct finding *f = &c->r->findings.v[i];

	wdoc_textf(d, 0, 2, wsev_slot(f->severity), "%s %s",
	    wsev_glyph(c->g, f->severity), wfinding_text(f));
	/* The code and, when the subject took the heading, the title: what
	 * the finding is in general, below what it is here. */
	if (f->subject != NULL && f->subject[0] != '\0')
		wdoc_textf(d, 2, 2, WS_DIM, "%s  %s: %s",
		    words_severity(f->severity), finding_code_name(f->code),
		    _(finding_title(f->code)));
	else
		wdoc_textf(d, 2, 2, WS_DIM, "%s  %s",
		    words_severity(f->severity), finding_code_name(f->code));
	if (f->detail != NULL && f->detail[0] != '\0') {
		wdoc_blank(d);
		wdoc_text(d, 0, 0, WS_NORMAL, f->detail);
	}
	if (f->evidence.n > 0) {
		wdoc_heading(d, _("Evidence"));
		for (size_t j = 0; j < f->evidence.n; j++)
			wdoc_textf(d, 2, 4, WS_NORMAL, "%s %s", c->g->bullet,
			    f->evidence.v[j]);
	}
	if (f->fix.n > 0) {
		wdoc_heading(d, _("Fix"));
		/* Commands to paste: never wrapped, so a line pastes as it
		 * is; wider ones scroll sideways. */
		for (size_t j = 0; j < f->fix.n; j++)
			wdoc_command(d, 2, f->fix.v[j][0] == '#' ? WS_NORMAL :
			    WS_KEY, f->fix.v[j]);
		combined_installs(d, &c->r->findings, f);
	}
}

char *
wfinding_fix_text(const struct finding *f)
{
	return f->fix.n > 0 ? wjoin(&f->fix, "\n") : NULL;
}
