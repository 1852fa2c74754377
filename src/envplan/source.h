/* Sourcing an activation script in the shell it is for and taking the
 * environment it leaves: the "after" side of `cudawiz env --check`. The
 * shell runs as a child (its own process group, a timeout), so a script
 * that loops, fails or prints cannot touch cudawiz. */
#ifndef CUDAWIZ_ENVPLAN_SOURCE_H
#define CUDAWIZ_ENVPLAN_SOURCE_H

#include "envscript/envscript.h"

struct sourced {
	char	**envp;		/* NULL-terminated, owned */
	char	 *shell;	/* the shell that sourced it (a path) */
	char	 *how;		/* what it ran, for the report */
};

/* The format a file was written in: its "cudawiz-format:" line, else its
 * name or first bytes as the writers' rows guess them (writer.h: .fish,
 * .csh, .ps1, .lua, .envrc, a #%Module file, then .sh or #!/bin/sh).
 * -1 with *err when neither says. */
int	script_file_format(const char *file, enum script_format *fmt, char **err);

/* Sources file (format fmt) in a shell found on envp's PATH, as fmt's
 * row says (writer.h, struct script_run), starting from envp, and takes
 * the environment that results. -1 with *err (the shell's own words)
 * when the shell is missing or the script fails. */
int	script_source(const char *file, enum script_format fmt,
	    char *const *envp, double timeout_s, struct sourced *out, char **err);
void	sourced_free(struct sourced *s);

#endif
