/* The explain rules for a missing symbol, read the right way round:
 *
 *   glibc's "F: undefined symbol: S" (a relocation at load time): F
 *   needs S, and the library among F's needs that should define it lacks
 *   it; cmd_explain.c found which one (explain_where.provider), the copy
 *   that loads for F (loaded) and the copies here that have S.
 *
 *   a dlsym()'s "Could not load symbol S from L" (TensorFlow, XLA,
 *   cuDNN): L itself lacks S, a build older than the caller's.
 *
 * Either way the fix puts a copy that has S first, or installs one.
 * Pure; see rules_explain.c. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "util/pathnorm.h"
#include "util/xalloc.h"

/* The copy that has the symbol first; the one that shadows it out of
 * LD_LIBRARY_PATH when it is there; an install when no copy has it. */
static void
shadow_fix(struct ctx *c, struct finding *f, const char *soname,
    const char *good, const char *bad)
{
	char *dir;

	if (good != NULL) {
		dir = path_dirname(good);
		lr_fix_comment(f, _("load the copy that has the symbol first:"));
		ip_fix_line(f, lr_llp_prepend_line(dir));
		free(dir);
	}
	if (good != NULL && bad != NULL)
		rx_fix_drop_dir_of(c, f, bad, _("or drop the directory that "
		    "shadows it from LD_LIBRARY_PATH:"));
	if (good != NULL)
		return;
	if (explain_is_soname(soname))
		ip_install_soname(&c->ip, f, soname);
	if (f->fix.n == 0)
		strv_pushf(&f->fix, _("# no copy of %s here has the symbol: install "
		    "a newer release of the package that provides %s (the one the "
		    "program was built against), then check it with: cudawiz why %s"),
		    soname, soname, soname);
}

bool
rx_explain_symbol_provider(struct ctx *c, const struct explain_match *m)
{
	const struct explain_where *w = rx_where(c, m);
	const struct lib_fact *lib;
	const char *good;
	const char *who = m->required_by;
	struct finding *f;

	if (m->kind != EXPLAIN_UNDEFINED_SYMBOL || m->soname != NULL ||
	    w == NULL || w->provider == NULL)
		return false;
	lib = rx_lib_named(c, w->provider);
	good = rx_defining(c, m);
	if (w->loaded == NULL) {
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs the symbol %s from %s, and here the copy it loads "
		    "has it: the program ran with another search path (another "
		    "LD_LIBRARY_PATH, environment or container) that put a copy "
		    "without it first."), who, m->symbol, w->provider);
	} else if (good != NULL) {
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs the symbol %s, which %s should provide; the copy "
		    "it loads, %s, lacks it (an older or another build), and "
		    "shadows %s, which has it."), who, m->symbol, w->provider,
		    w->loaded, good);
	} else {
		f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
		    _("%s needs the symbol %s, which %s should provide; the copy "
		    "it loads, %s, lacks it, and no other copy here has it: %s "
		    "is older than the one %s was built against."), who,
		    m->symbol, w->provider, w->loaded, w->provider, who);
	}
	f->severity = SEV_ERROR;
	rx_message_evidence(f, m);
	if (w->loaded != NULL)
		strv_pushf(&f->evidence, _("%s loads %s here, which lacks %s"),
		    who, w->loaded, m->symbol);
	for (size_t i = 0; c->xf != NULL && c->xf->defining != NULL; i++) {
		const struct strv *d = &c->xf->defining[m - c->ex->matches.v];

		if (i >= d->n)
			break;
		strv_pushf(&f->evidence, _("%s defines %s"), d->v[i], m->symbol);
	}
	rx_resolution_evidence(f, lib);
	finding_evidence_cap(f, EVIDENCE_MAX);
	shadow_fix(c, f, w->provider, good, w->loaded);
	return true;
}

void
rx_explain_dlsym(struct ctx *c, const struct explain_match *m)
{
	const struct lib_fact *lib = rx_lib_named(c, m->soname);
	const char *good = rx_defining(c, m);
	const char *copy = m->file != NULL ? m->file : lib != NULL &&
	    lib->resolved != NULL ? lib->resolved : m->soname;
	struct finding *f;

	if (m->soname == NULL || m->symbol == NULL)
		return;
	f = finding_add(c->out, FINDING_SONAME_VERSION_MISMATCH,
	    _("A program looked up the symbol %s in %s (dlsym) and that library "
	    "does not define it: the copy it loaded, %s, is older than the one "
	    "the program was built for. The library itself lacks the symbol; "
	    "nothing it depends on is missing."), m->symbol, m->soname, copy);
	f->severity = SEV_ERROR;
	rx_message_evidence(f, m);
	rx_resolution_evidence(f, lib);
	if (good != NULL)
		strv_pushf(&f->evidence, _("%s defines %s"), good, m->symbol);
	else
		strv_pushf(&f->evidence, _("no copy of %s here defines %s"),
		    m->soname, m->symbol);
	finding_evidence_cap(f, EVIDENCE_MAX);
	if (good != NULL && lib != NULL && lib->resolved != NULL &&
	    strcmp(good, lib->resolved) == 0 && m->file != NULL &&
	    strcmp(m->file, good) != 0) {
		/* Here the winner has it: the program's own search put the
		 * message's copy first. */
		shadow_fix(c, f, m->soname, good, m->file);
		return;
	}
	shadow_fix(c, f, m->soname, good, lib != NULL &&
	    lib->via == STEP_LD_LIBRARY_PATH ? lib->resolved : m->file);
}
