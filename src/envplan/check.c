/* The before/after proof of an activation script; see check.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnose/diagnose.h"
#include "envplan/check.h"
#include "i18n.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

static int
probe_side(struct env_check_side *s, const char *root, char *const *envp,
    const struct matrix *m, char **err)
{
	struct diagnose_input in;

	s->sr = sysroot_new(root, err);
	if (s->sr == NULL)
		return -1;
	sysroot_keep_listings(s->sr);
	s->facts = probe_all(s->sr, envp);
	diagnose_annotate(s->facts, m);
	in.facts = s->facts;
	in.matrix = m;
	in.now = time(NULL);
	in.matrix_checked = 0;
	diagnose(&in, &s->findings);
	return 0;
}

static void
side_free(struct env_check_side *s)
{
	findings_free(&s->findings);
	if (s->facts != NULL)
		facts_free(s->facts);
	if (s->sr != NULL)
		sysroot_free(s->sr);
}

/* ------------------------------------------------------------ live */

static void
live_run(struct verify_run *r, const char *soname, const char *helper,
    char *const *envp, double timeout_s)
{
	memset(r, 0, sizeof *r);
	r->kind = VERIFY_RUNTIME;
	r->lib = xstrdup(soname);
	strv_push(&r->argv, "runtime");
	strv_push(&r->argv, "--lib");
	strv_push(&r->argv, soname);
	verify_exec(r, helper, envp, timeout_s);
}

/* Each libcudart soname the script's environment resolves, loaded by
 * soname so the dynamic loader searches exactly as a program would. */
static void
check_live(struct env_check *c, const char *helper, char *const *envp,
    double timeout_s)
{
	for (size_t i = 0; i < c->rows.n; i++) {
		const struct check_row *r = &c->rows.v[i];
		bool seen = false;
		struct env_check_live *l;

		if (strncmp(r->soname, "libcudart.so.", 13) != 0 ||
		    r->after.state != NEED_RESOLVES)
			continue;
		for (size_t j = 0; j < c->live.n; j++)
			seen = seen || strcmp(c->live.v[j].soname, r->soname) == 0;
		if (seen)
			continue;
		l = VEC_PUSH(&c->live);
		l->soname = xstrdup(r->soname);
		live_run(&l->before, r->soname, helper, envp, timeout_s);
		live_run(&l->after, r->soname, helper, c->src.envp, timeout_s);
	}
}

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

/* ------------------------------------------------------- findings */

static bool
has_code(const struct findings *fs, enum finding_code code)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->v[i].code == code)
			return true;
	return false;
}

/* Codes (problems: warnings and errors) in a and not in b. */
static void
codes_only(const struct findings *a, const struct findings *b, struct strv *out)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *name = finding_code_name(a->v[i].code);

		if (a->v[i].severity < SEV_WARNING || has_code(b, a->v[i].code) ||
		    strv_contains(out, name))
			continue;
		strv_push(out, name);
	}
}

/* ------------------------------------------------------------ run */

int
env_check_run(const char *file, enum script_format fmt, const char *root,
    char *const *envp, const struct matrix *m, double timeout_s,
    const char *helper, struct env_check *out, char **err)
{
	char *found;

	memset(out, 0, sizeof *out);
	out->fmt = fmt;
	if (script_source(file, fmt, envp, timeout_s, &out->src, err) != 0 ||
	    probe_side(&out->before, root, envp, m, err) != 0 ||
	    probe_side(&out->after, root, out->src.envp, m, err) != 0)
		return -1;
	check_compare(out->before.facts, out->after.facts, &out->rows);
	if (!out->after.facts->live_allowed) {
		out->live_why = xstrdup(_("under --root nothing is loaded"));
	} else if (helper != NULL) {
		check_live(out, helper, envp, timeout_s);
	} else if ((found = verify_helper_path(envp, &out->live_why)) != NULL) {
		check_live(out, found, envp, timeout_s);
		free(found);
	}
	codes_only(&out->before.findings, &out->after.findings, &out->gone);
	codes_only(&out->after.findings, &out->before.findings, &out->new);
	out->ok = check_rows_ok(&out->rows);
	return 0;
}

void
env_check_free(struct env_check *c)
{
	check_rows_free(&c->rows);
	for (size_t i = 0; i < c->live.n; i++) {
		free(c->live.v[i].soname);
		verify_run_free(&c->live.v[i].before);
		verify_run_free(&c->live.v[i].after);
	}
	free(c->live.v);
	free(c->live_why);
	strv_free(&c->gone);
	strv_free(&c->new);
	side_free(&c->before);
	side_free(&c->after);
	sourced_free(&c->src);
	memset(c, 0, sizeof *c);
}
