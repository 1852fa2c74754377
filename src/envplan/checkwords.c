/* The few words of env --check's verdicts and live runs (check.h),
 * shared by its presenter and the wizard's Fix page, in Linux's program
 * and the Windows one (which has no src/run/ for check.c). */
#include "config.h"

#include <stdlib.h>

#include "envplan/check.h"
#include "i18n.h"
#include "util/xalloc.h"

char *
env_check_live_words(const struct verify_run *r)
{
	const struct verify_record *init = verify_find(r, "init", -1);
	const struct verify_record *ld = verify_find(r, "load", -1);
	const struct verify_record *rv = verify_find(r, "runtime_version", -1);
	double v;

	if (r->outcome == VERIFY_NOT_STARTED)
		return xasprintf(_("not run: %s"), r->start_error != NULL ?
		    r->start_error : "?");
	if (r->outcome != VERIFY_DONE)
		return xasprintf(_("the helper %s (last step: %s)"),
		    verify_outcome_name(r->outcome), r->last_step != NULL ?
		    r->last_step : "-");
	if (ld != NULL && ld->ok == 0) {
		const char *e = verify_str(ld, "error");

		return xasprintf(_("does not load: %s"), e != NULL ? e : "?");
	}
	if (init != NULL && init->ok == 0)
		return xasprintf("%s (%lld)", init->name != NULL ? init->name :
		    "?", init->code);
	if (rv != NULL && verify_num(rv, "version", &v))
		return xasprintf(_("works: runtime %d.%d"), (int)v / 1000,
		    ((int)v % 1000) / 10);
	return xstrdup(_("works"));
}

const char *
env_check_verdict_words(enum need_verdict v)
{
	switch (v) {
	case VERDICT_UNCHANGED:
		return _("unchanged");
	case VERDICT_MOVED:
		return _("resolves elsewhere");
	case VERDICT_FIXED:
		return _("FIXED");
	case VERDICT_STILL_BROKEN:
		return _("STILL BROKEN");
	case VERDICT_BROKEN:
		return _("BROKEN BY THE SCRIPT");
	}
	return "?";
}
