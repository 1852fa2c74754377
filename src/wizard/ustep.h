/* The Compatibility page's slow step: refreshing the matrix from the
 * wizard through the matrix layer (matrix/update.h, the very steps of
 * `cudawiz matrix update`), never by opening files itself. Like the
 * checks (vstep.h) it runs between two frames; the update's progress
 * callback draws frames through the tick hook and reads the keys
 * pressed meanwhile, so Esc, q or Ctrl-C cancel it. A cancelled or
 * failed update leaves the cache and the matrix in use as they were. */
#ifndef CUDAWIZ_WIZARD_USTEP_H
#define CUDAWIZ_WIZARD_USTEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strv.h"
#include "wizard/report.h"
#include "wizard/vstep.h"

/* How the last update ended. */
enum wustep_outcome {
	WU_NONE = 0,		/* none ran yet */
	WU_UPDATED,		/* newer data, now in use */
	WU_UP_TO_DATE,
	WU_KEPT,		/* new data older than the built-in data */
	WU_FAILED,		/* msg */
	WU_CANCELLED,
	WU_REFUSED,		/* not tried: --offline, --root; msg */
};

struct wustep {
	bool		 pending;	/* run after the next frame */
	bool		 running;
	bool		 stop;		/* asked to stop while running */
	/* While running: the source being fetched and how far. */
	char		*url;		/* owned */
	size_t		 index, count;
	uint64_t	 now, total;
	long		 frame_ms;	/* when the last frame was drawn */
	/* After: how it went. */
	enum wustep_outcome outcome;
	char		*msg;		/* owned; NULL */
	struct strv	 notes;		/* the update's notes; owned */
	wstep_tick_fn	 tick;
	void		*tick_arg;
};

/* Why the wizard will not fetch here (--offline, --root), translated;
 * NULL when it may. */
const char	*wustep_blocked(const struct wiz_report *r);
void		 wustep_request(struct wustep *u);
/* Runs a requested update; on newer data r takes the new matrix and
 * diagnoses again. False when none was requested. */
bool		 wustep_work(struct wustep *u, struct wiz_report *r);
void		 wustep_free(struct wustep *u);

#endif
