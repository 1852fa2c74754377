/* The before/after proof of an activation script; see check.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnose/diagnose.h"
#include "envplan/check.h"
#include "i18n.h"
#include "run/run.h"
#include "sysroot/sysroot.h"
#include "util/xalloc.h"

/* One side: the machine as a program started from envp sees it, with
 * the run's matrix and loader profile. */
static void
probe_side(struct env_check_side *s, struct cw_run *run, char *const *envp)
{
	s->facts = run_probe_env(run, envp);
	run_annotate_facts(run, s->facts);
	run_diagnose_facts(run, s->facts, &s->findings);
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
static bool
stopped(const struct env_check_stop *st)
{
	return st != NULL && st->stop != NULL && st->stop(st->arg);
}

static void
check_live(struct env_check *c, const char *helper, char *const *envp,
    double timeout_s, const struct env_check_stop *st)
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
		if (stopped(st)) {
			c->stopped = true;
			return;
		}
		l = VEC_PUSH(&c->live);
		l->soname = xstrdup(r->soname);
		live_run(&l->before, r->soname, helper, envp, timeout_s);
		live_run(&l->after, r->soname, helper, c->src.envp, timeout_s);
	}
}

/* ------------------------------------------------------------ run */

/* Ends a stopped proof: -1 with out->stopped, whatever a killed child
 * left in *err replaced by the stop. */
static int
stop_here(struct env_check *out, char **err)
{
	out->stopped = true;
	free(*err);
	*err = xstrdup(_("stopped before it finished"));
	return -1;
}

static int
check_in(struct cw_run *run, const char *file, enum script_format fmt,
    double timeout_s, const char *helper, const struct env_check_stop *st,
    struct env_check *out, char **err)
{
	char *const *envp = run->envp;
	char *found;

	memset(out, 0, sizeof *out);
	out->fmt = fmt;
	*err = NULL;
	if (script_source(file, fmt, envp, timeout_s, &out->src, err) != 0)
		return stopped(st) ? stop_here(out, err) : -1;
	if (stopped(st))
		return stop_here(out, err);
	probe_side(&out->before, run, envp);
	if (stopped(st))
		return stop_here(out, err);
	probe_side(&out->after, run, out->src.envp);
	check_compare(out->before.facts, out->after.facts, &out->rows);
	if (!out->after.facts->live_allowed) {
		out->live_why = xstrdup(_("under --root nothing is loaded"));
	} else if (helper != NULL) {
		check_live(out, helper, envp, timeout_s, st);
	} else if ((found = verify_helper_path(envp, &out->live_why)) != NULL) {
		check_live(out, found, envp, timeout_s, st);
		free(found);
	}
	if (out->stopped || stopped(st))
		return stop_here(out, err);
	check_codes_only(&out->before.findings, &out->after.findings, &out->gone);
	check_codes_only(&out->after.findings, &out->before.findings, &out->new);
	out->ok = check_rows_ok(&out->rows);
	return 0;
}

int
env_check_run_in(struct cw_run *run, const char *file, enum script_format fmt,
    double timeout_s, const char *helper, struct env_check *out, char **err)
{
	return check_in(run, file, fmt, timeout_s, helper, NULL, out, err);
}

int
env_check_run(const char *file, enum script_format fmt, const char *root,
    char *const *envp, const struct matrix *m, double timeout_s,
    const char *helper, struct env_check *out, char **err)
{
	return env_check_run_stop(file, fmt, root, envp, m, timeout_s, helper,
	    NULL, out, err);
}

int
env_check_run_stop(const char *file, enum script_format fmt, const char *root,
    char *const *envp, const struct matrix *m, double timeout_s,
    const char *helper, const struct env_check_stop *st,
    struct env_check *out, char **err)
{
	struct cw_run run;
	int rc;

	memset(out, 0, sizeof *out);
	if (run_open_with(&run, root, m, NULL, envp, err) != 0)
		return -1;
	rc = check_in(&run, file, fmt, timeout_s, helper, st, out, err);
	run_close(&run);
	return rc;
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
