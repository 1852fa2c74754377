/* The matrix update step; see ustep.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "i18n.h"
#include "matrix/matrix.h"
#include "matrix/update.h"
#include "util/monoclock.h"
#include "util/xalloc.h"
#include "wizard/ustep.h"

/* Frames at most this often while bytes arrive: curl calls back far
 * more often than a terminal needs redrawing. Keys are read each time. */
#define FRAME_EVERY_MS	100L

static int
progress(void *arg, const char *url, size_t index, size_t count,
    uint64_t now, uint64_t total)
{
	struct wustep *u = arg;
	bool fresh = u->url == NULL || u->index != index ||
	    strcmp(u->url, url) != 0;
	bool draw;
	long t = (long)mono_ms();

	if (fresh) {
		free(u->url);
		u->url = xstrdup(url);
	}
	u->index = index;
	u->count = count;
	u->now = now;
	u->total = total;
	if (u->stop)
		return 1;
	/* A new source always gets a frame, so each shows at least once. */
	draw = fresh || t - u->frame_ms >= FRAME_EVERY_MS;
	if (draw)
		u->frame_ms = t;
	if (u->tick != NULL && u->tick(u->tick_arg, draw))
		u->stop = true;
	return u->stop;
}

const char *
wustep_blocked(const struct wiz_report *r)
{
	if (r->update.offline)
		return _("--offline: the wizard does not fetch newer data");
	if (!r->facts->live_allowed)
		return _("under --root nothing is fetched, as with 'cudawiz "
		    "matrix update --root'");
	return NULL;
}

void
wustep_request(struct wustep *u)
{
	u->pending = true;
}

static void
reset(struct wustep *u)
{
	FREE(&u->url);
	FREE(&u->msg);
	strv_free(&u->notes);
	u->outcome = WU_NONE;
	u->index = u->count = 0;
	u->now = u->total = 0;
	u->frame_ms = 0;
	u->stop = false;
}

/* What the update ended with goes to r; how it went stays here. */
static void
take(struct wustep *u, struct wiz_report *r, struct matrix_update *mu)
{
	struct matrix *emb;

	switch (mu->result) {
	case MATRIX_UPDATE_UPDATED:
		/* As select_matrix would choose at the next start: data older
		 * than the built-in data is stored but not used. */
		emb = matrix_embedded();
		if (strcmp(matrix_date(mu->m), matrix_date(emb)) < 0) {
			u->outcome = WU_KEPT;
			u->msg = xstrdup(matrix_date(mu->m));
			r->matrix_checked = time(NULL);
			wiz_report_rediagnose(r);
		} else {
			u->outcome = WU_UPDATED;
			wiz_report_set_matrix(r, mu->m, time(NULL));
			mu->m = NULL;
		}
		matrix_free(emb);
		break;
	case MATRIX_UPDATE_UP_TO_DATE:
		/* The network was asked: MATRIX_STALE may no longer hold. */
		u->outcome = WU_UP_TO_DATE;
		r->matrix_checked = time(NULL);
		wiz_report_rediagnose(r);
		break;
	case MATRIX_UPDATE_CANCELLED:
		u->outcome = WU_CANCELLED;
		break;
	case MATRIX_UPDATE_REFUSED:
		u->outcome = WU_REFUSED;
		u->msg = xstrdup(mu->err);
		break;
	case MATRIX_UPDATE_FAILED:
	case MATRIX_UPDATE_BAD_BASE:
	case MATRIX_UPDATE_NO_LIBCURL:
		u->outcome = u->stop ? WU_CANCELLED : WU_FAILED;
		u->msg = xstrdup(mu->err);
		break;
	}
	u->notes = mu->notes;
	mu->notes = (struct strv)STRV_INIT;
}

bool
wustep_work(struct wustep *u, struct wiz_report *r)
{
	struct matrix_update_opts o = { 0 };
	struct matrix_update mu;

	if (!u->pending)
		return false;
	u->pending = false;
	reset(u);
	o.urls = r->update.urls;
	o.nurls = r->update.nurls;
	o.matrix_file = r->update.matrix_file;
	o.offline = r->update.offline;
	/* The matrix is not part of the tree, but the command refuses
	 * under --root (nothing is fetched there), and so does the page. */
	o.root = r->facts->live_allowed ? NULL : r->facts->root;
	o.connect_timeout_ms = r->update.connect_timeout_ms;
	o.timeout_ms = r->update.timeout_ms;
	o.progress = progress;
	o.progress_arg = u;
	u->running = true;
	(void)matrix_update_run(&o, &mu);
	u->running = false;
	take(u, r, &mu);
	matrix_update_free(&mu);
	FREE(&u->url);
	return true;
}

void
wustep_free(struct wustep *u)
{
	reset(u);
}
