/* What `cudawiz env` reports besides the script itself: the
 * cudawiz/env/1 document (the plan, the environments it serves, the
 * script and where it was written) and the needs no script can fix. */
#ifndef CUDAWIZ_PRESENT_ENVCMD_H
#define CUDAWIZ_PRESENT_ENVCMD_H

#include <stdbool.h>
#include <stdio.h>

#include "envplan/plan.h"
#include "envscript/envscript.h"

/* Where env wrote its files, borrowed; path NULL: nothing was written. */
struct env_written_view {
	const char	*path;
	const char	*backup;
	const char	*deactivate;	/* conda */
	const char	*rc;
	bool		 rc_changed;
};

/* 0, or -1 when the document could not be written. */
int	env_print_json(FILE *fp, enum script_format fmt, const struct env_plan *p,
	    const struct plan_report *rep, const struct script_text *t,
	    const struct env_written_view *w);

/* After the "how to use" lines of a --scope user script (plan->win_user):
 * what it changes besides this console, and when other consoles see it
 * (fmt: a PowerShell script announces the change, a cmd.exe one cannot).
 * Nothing for a session script. */
void	env_print_scope(FILE *fp, enum script_format fmt,
	    const struct env_plan *p);

/* A line for each need the plan could not fix (cmd_env.c prints them on
 * stderr, so the script on stdout stays clean for a pipe). */
void	env_print_unfixable(FILE *fp, const struct plan_report *rep);

#endif
