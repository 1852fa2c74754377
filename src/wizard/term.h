/* The wizard on a real terminal, through ncursesw: the only file of the
 * wizard that includes curses. */
#ifndef CUDAWIZ_WIZARD_TERM_H
#define CUDAWIZ_WIZARD_TERM_H

#include <stdbool.h>

#include "wizard/report.h"

struct wiz_term_opts {
	bool	ascii;		/* --ascii: no UTF-8 boxes or ticks */
	int	color;		/* -1 automatic, 0 never, 1 always */
	bool	mouse;		/* clicks on rows and buttons (not --no-mouse) */
};

/* Runs the wizard on stdin/stdout until the user quits. Returns 0; -1
 * when the terminal could not be set up (nothing was drawn, the reason
 * is on stderr); or the number of the signal (SIGINT, SIGTERM, SIGHUP)
 * that ended it (Ctrl-C while a step runs stops the step instead), the
 * terminal restored, for the caller to re-raise once it has freed what
 * it holds. *farewell: wizard_farewell()'s text, for the caller to
 * print on the normal screen; NULL. */
int	wiz_term_run(struct wiz_report *r, const struct wiz_term_opts *o,
	    char **farewell);

#endif
