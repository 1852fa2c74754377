/* The Live verification page's slow step: running the GPU checks from
 * the wizard (verify_all, the act layer), one helper process per
 * library. The wizard runs it between two frames; verify's progress
 * callback, called before each helper run, draws a frame through the
 * tick hook and reads what the user pressed meanwhile, so the screen
 * moves while the checks run and Esc, q or Ctrl-C stop them. */
#ifndef CUDAWIZ_WIZARD_VSTEP_H
#define CUDAWIZ_WIZARD_VSTEP_H

#include <stdbool.h>
#include <stddef.h>

#include "wizard/report.h"

/* Draws a frame of a running step (when draw), then reads the keys
 * pressed meanwhile; true when the user asked the step to stop. Set by
 * the wizard, which knows the screen and the events. */
typedef bool (*wstep_tick_fn)(void *arg, bool draw);

struct wvstep {
	bool		 pending;	/* run after the next frame */
	bool		 running;
	size_t		 index, total;	/* the run starting, of how many */
	char		*current;	/* "runtime /path/libcudart.so.12"; owned */
	bool		 stop;		/* asked to stop while running */
	bool		 stopped;	/* the last run of the checks was cut short */
	size_t		 planned;	/* how many were planned then */
	wstep_tick_fn	 tick;
	void		*tick_arg;
};

/* Whether the checks can run here (not under --root). */
bool	wvstep_possible(const struct wiz_report *r);
void	wvstep_request(struct wvstep *v);
/* Runs a requested verification into r's facts, then diagnoses r anew;
 * false when none was requested. */
bool	wvstep_work(struct wvstep *v, struct wiz_report *r);
void	wvstep_free(struct wvstep *v);

#endif
