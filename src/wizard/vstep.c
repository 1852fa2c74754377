/* The verification step; see vstep.h. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "verify/verify.h"
#include "wizard/vstep.h"

struct progress_ctx {
	struct wvstep		*v;
	struct verify_facts	*vf;
};

static void
progress(void *arg, const struct verify_run *run, size_t i, size_t n)
{
	struct progress_ctx *x = arg;
	struct wvstep *v = x->v;

	v->index = i;
	v->total = n;
	free(v->current);
	v->current = xasprintf("%s %s", verify_kind_name(run->kind),
	    run->lib != NULL ? run->lib : "?");
	if (v->stop)
		return;
	if (v->tick != NULL && v->tick(v->tick_arg, true))
		v->stop = true;
}

/* verify_all asks this right after progress: a stop asked for there
 * ends the runs before the next one starts. */
static bool
cancel(void *arg)
{
	const struct progress_ctx *x = arg;

	return x->v->stop;
}

bool
wvstep_possible(const struct wiz_report *r)
{
	return r->facts->live_allowed;
}

void
wvstep_request(struct wvstep *v)
{
	v->pending = true;
}

/* Drops a run that Ctrl-C stopped: the signal handler killed the helper
 * being waited on (runcap_abort), which spawn.c reports as SIGINT; that
 * is the user, not a crash. */
static void
drop_interrupted(struct verify_facts *vf)
{
	struct verify_run *last = vf->runs.n > 0 ? &vf->runs.v[vf->runs.n - 1] :
	    NULL;

	if (last != NULL && last->outcome == VERIFY_SIGNALLED &&
	    last->signal == SIGINT) {
		verify_run_free(last);
		vf->runs.n--;
	}
}

bool
wvstep_work(struct wvstep *v, struct wiz_report *r)
{
	struct verify_facts *vf = &r->facts->verify;
	struct progress_ctx x = { v, vf };
	struct verify_opts o = { 0 };

	if (!v->pending)
		return false;
	v->pending = false;
	verify_facts_free(vf);
	memset(vf, 0, sizeof *vf);
	o.timeout_s = r->verify_timeout_s;
	o.quick = r->verify_quick;
	o.envp = r->envp;
	o.progress = progress;
	o.progress_arg = &x;
	o.cancel = cancel;
	v->running = true;
	v->stop = v->stopped = false;
	v->index = v->total = 0;
	verify_all(r->facts, &o);
	/* A stop asked for during the last run is seen only now. */
	if (!v->stop && vf->runs.n > 0 && v->tick != NULL &&
	    v->tick(v->tick_arg, false))
		v->stop = true;
	if (v->stop) {
		v->stopped = true;
		v->planned = vf->cancelled ? vf->planned : vf->runs.n;
		drop_interrupted(vf);
	}
	v->running = false;
	FREE(&v->current);
	wiz_report_rediagnose(r);
	return true;
}

void
wvstep_free(struct wvstep *v)
{
	FREE(&v->current);
}
