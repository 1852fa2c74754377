/* DRIFT_*: where this machine differs from a reference machine's spec
 * (doctor --baseline FILE; the command reads the file, this only
 * compares). One finding per differing item, named for the item's family,
 * with both values, so a fleet admin sees what to align and in which
 * direction. An item of a family this version does not know (a newer
 * cudawiz's spec) is left out: there is no finding to name it by. */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>

#include "diagnose/diagnose.h"
#include "i18n.h"
#include "spec/spec.h"
#include "spec/specdiff.h"

static const enum finding_code codes[] = {
	[SPEC_DRIVER] = FINDING_DRIFT_DRIVER,
	[SPEC_GPU] = FINDING_DRIFT_GPU,
	[SPEC_TOOLKIT] = FINDING_DRIFT_TOOLKIT,
	[SPEC_CUDNN] = FINDING_DRIFT_CUDNN,
	[SPEC_FRAMEWORK] = FINDING_DRIFT_FRAMEWORK,
	[SPEC_ENV] = FINDING_DRIFT_ENV,
};

struct drift {
	const char	*host;		/* the reference's name; NULL */
	struct findings	*out;
};

static void
one(const struct spec_delta *d, void *arg)
{
	const struct drift *c = arg;
	/* An absent item is one this machine (or the reference) lacks or
	 * could not read. */
	const char *mine = d->mine != NULL ? d->mine : _("absent");
	const char *ref = d->ref != NULL ? d->ref : _("absent");
	struct finding *f;

	if (d->family == SPEC_OTHER)
		return;
	if (c->host != NULL) {
		f = finding_add(c->out, codes[d->family],
		    _("%s is %s here and %s on the reference machine %s."),
		    d->key, mine, ref, c->host);
		finding_subject(f, _("%s: %s here, %s on the reference (%s)"),
		    d->key, mine, ref, c->host);
		strv_pushf(&f->evidence, _("reference (%s): %s = %s"), c->host,
		    d->key, ref);
	} else {
		f = finding_add(c->out, codes[d->family],
		    _("%s is %s here and %s on the reference machine."),
		    d->key, mine, ref);
		finding_subject(f, _("%s: %s here, %s on the reference"),
		    d->key, mine, ref);
		strv_pushf(&f->evidence, _("reference: %s = %s"), d->key, ref);
	}
	strv_pushf(&f->evidence, _("this machine: %s = %s"), d->key, mine);
}

void
rules_drift(const struct diagnose_input *in, struct findings *out)
{
	struct drift c = { in->baseline_host, out };
	json_t *mine;

	if (in->baseline == NULL)
		return;
	mine = spec_items_build(in->facts);
	spec_diff(in->baseline, mine, one, &c);
	json_decref(mine);
}
