/* The verification step; see vstep.h. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"
#include "verify/verify.h"
#include "wizard/vstep.h"

/* A run given this timeout is killed as soon as it starts: how the
 * remaining runs are skipped once the user asked to stop, since
 * verify_all has no way to end early of its own. The skipped runs are
 * dropped from the facts afterwards. */
#define SKIP_TIMEOUT_S	1e-6

struct progress_ctx {
	struct wvstep		*v;
	struct verify_facts	*vf;
	size_t			 kept;	/* runs finished before the stop */
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
	if (v->tick != NULL && v->tick(v->tick_arg, true)) {
		v->stop = true;
		x->kept = i;
		x->vf->timeout_s = SKIP_TIMEOUT_S;
	}
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

/* Drops the runs that did not finish because the user stopped them:
 * those skipped, and one that Ctrl-C reached (the helper shares the
 * terminal, so SIGINT kills it too: that is the user, not a crash). */
static void
drop_unfinished(struct verify_facts *vf, size_t kept)
{
	if (kept > vf->runs.n)
		kept = vf->runs.n;
	if (kept > 0 && vf->runs.v[kept - 1].outcome == VERIFY_SIGNALLED &&
	    vf->runs.v[kept - 1].signal == SIGINT)
		kept--;
	for (size_t i = kept; i < vf->runs.n; i++)
		verify_run_free(&vf->runs.v[i]);
	vf->runs.n = kept;
}

bool
wvstep_work(struct wvstep *v, struct wiz_report *r)
{
	struct verify_facts *vf = &r->facts->verify;
	struct progress_ctx x = { v, vf, 0 };
	struct verify_opts o = { 0 };
	double timeout;

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
	v->running = true;
	v->stop = v->stopped = false;
	v->index = v->total = 0;
	verify_all(r->facts, &o);
	timeout = o.timeout_s > 0 ? o.timeout_s : VERIFY_TIMEOUT_DEFAULT_S;
	/* A stop asked for during the last run is seen only now. */
	if (!v->stop && vf->runs.n > 0 && v->tick != NULL &&
	    v->tick(v->tick_arg, false)) {
		v->stop = true;
		x.kept = vf->runs.n;
	}
	if (v->stop) {
		v->stopped = true;
		v->planned = vf->runs.n;
		drop_unfinished(vf, x.kept);
		vf->timeout_s = timeout;
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
